import type { Readable, Writable } from 'node:stream';
import {
  type JSONRPCMessage,
  parseJSONRPCMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type Transport,
} from '@modelcontextprotocol/server';
import { cutToFit } from './cut-to-fit.ts';
import { BATCH_REFUSED, INVALID_REQUEST, lineNotJson, lineTooLong, notJsonRpc, PARSE_ERROR } from './rpc-refusals.ts';

/** The longest line read: the SDK's own bound, so that what one client may send, every Riverse reads. */
const MAX_LINE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;
/**
 * The longest line written: the SDK client's read buffer holds the line and what follows it in the
 * same pipe chunk (64 KiB at most), so a line must leave that room under its 10 MiB.
 */
const MAX_OUT_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE - 128 * 1024;
/** How much of an over-long line is kept, at each end, to find its id in. */
const ID_WINDOW = 4096;

/**
 * MCP over stdio, newline-delimited, for `riverse mcp`: the SDK's StdioServerTransport, except
 * that nothing a client sends ends the session without an answer. A line over the bound is
 * skipped to its end and answered with an error (the SDK's transport closes, and the process
 * exits 0 without a word); a batch, a line that is not JSON, and JSON that is not JSON-RPC are
 * each answered with an error too (the SDK drops them silently). Going out, an answer over the
 * client's read buffer is cut to fit (cut-to-fit.ts) rather than written whole, which would make
 * the client's SDK drop the connection.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Messages Riverse answers itself rather than the SDK (a listen stream that names tasks: task-notices.ts); true when it did. */
  intercept?: (message: JSONRPCMessage) => boolean;
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #maxLine: number;
  readonly #maxOut: number;
  #chunks: Buffer[] = [];
  #buffered = 0;
  /** Set while an over-long line is skipped: its size so far, and its two ends (for the id). */
  #skipping: { bytes: number; head: Buffer; tail: Buffer } | undefined;
  #closed = false;

  constructor(input: Readable, output: Writable, options: { maxLineBytes?: number; maxOutBytes?: number } = {}) {
    this.#input = input;
    this.#output = output;
    this.#maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.#maxOut = options.maxOutBytes ?? MAX_OUT_BYTES;
  }

  async start(): Promise<void> {
    this.#input.on('data', this.#onData);
    this.#input.on('error', this.#onError);
    this.#input.on('end', this.#onEnd);
    this.#input.on('close', this.#onEnd);
    this.#output.on('error', this.#onOutputError);
    if (this.#input.readableEnded || this.#input.destroyed) setImmediate(this.#onEnd);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error('The stdio transport is closed.');
    const line = cutToFit(message, this.#maxOut);
    if (line === undefined) {
      this.onerror?.(new Error(`A notification over ${this.#maxOut} bytes was not sent on stdio.`));
      return;
    }
    await this.#write(line);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off('data', this.#onData);
    this.#input.off('error', this.#onError);
    this.#input.off('end', this.#onEnd);
    this.#input.off('close', this.#onEnd);
    if (this.#input.listenerCount('data') === 0) this.#input.pause();
    this.#chunks = [];
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (data.length > 0 && !this.#closed) {
      const newline = data.indexOf(0x0a);
      const piece = newline === -1 ? data : data.subarray(0, newline);
      if (this.#skipping !== undefined) this.#skip(piece);
      else if (this.#buffered + piece.length > this.#maxLine) {
        const line = Buffer.concat([...this.#chunks, piece]);
        this.#chunks = [];
        this.#buffered = 0;
        this.#skipping = { bytes: 0, head: line.subarray(0, ID_WINDOW), tail: Buffer.alloc(0) };
        this.#skip(line);
      } else {
        this.#chunks.push(piece);
        this.#buffered += piece.length;
      }
      if (newline === -1) return;
      data = data.subarray(newline + 1);
      this.#endLine();
    }
  };

  #skip(piece: Buffer): void {
    const skipping = this.#skipping!;
    skipping.bytes += piece.length;
    skipping.tail = Buffer.concat([skipping.tail, piece.subarray(-ID_WINDOW)]).subarray(-ID_WINDOW);
  }

  #endLine(): void {
    const skipped = this.#skipping;
    if (skipped !== undefined) {
      this.#skipping = undefined;
      const error = lineTooLong(skipped.bytes, this.#maxLine);
      this.onerror?.(new Error(error));
      this.#refuse(idOf(skipped.head.toString('utf8'), skipped.tail.toString('utf8')), INVALID_REQUEST, error);
      return;
    }
    const text = Buffer.concat(this.#chunks).toString('utf8').replace(/\r$/, '');
    this.#chunks = [];
    this.#buffered = 0;
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.#refuse(null, PARSE_ERROR, lineNotJson((error as Error).message));
      return;
    }
    if (Array.isArray(value)) {
      this.#refuse(null, INVALID_REQUEST, BATCH_REFUSED);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch (error) {
      const id = (value as { id?: unknown } | null)?.id;
      // A reply (no method) that is malformed has no one to answer: it is only reported.
      if (typeof value === 'object' && value !== null && !('method' in value))
        this.onerror?.(new Error(notJsonRpc(firstLine(error))));
      else
        this.#refuse(
          typeof id === 'string' || typeof id === 'number' ? id : null,
          INVALID_REQUEST,
          notJsonRpc(firstLine(error)),
        );
      return;
    }
    if (this.intercept?.(message) === true) return;
    this.onmessage?.(message);
  }

  #refuse(id: string | number | null, code: number, message: string): void {
    if (this.#closed) return;
    this.#write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`).catch((error) =>
      this.onerror?.(error as Error),
    );
  }

  #write(line: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const fits = this.#output.write(line, (error) => (error ? reject(error) : undefined));
      if (fits) resolve();
      else this.#output.once('drain', resolve);
    });
  }

  readonly #onError = (error: Error) => this.onerror?.(error);
  readonly #onOutputError = (error: Error) => {
    if (this.#closed) return;
    this.onerror?.(error);
    void this.close();
  };
  readonly #onEnd = () => void this.close();
}

/** The id of a request too long to parse: at the start (`{"jsonrpc":"2.0","id":…`) or, as the SDK's client writes it, the end. */
function idOf(head: string, tail: string): string | number | null {
  const value =
    /[,{]\s*"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,20})\s*\}\s*\r?$/.exec(tail)?.[1] ??
    /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,20})/.exec(head)?.[1];
  if (value === undefined) return null;
  try {
    return JSON.parse(value) as string | number;
  } catch {
    return null;
  }
}

/** A schema error in a few words: the first issue and where it is. */
function firstLine(error: unknown): string {
  const issue = (error as { issues?: Array<{ message: string; path?: unknown[] }> }).issues?.[0];
  if (issue !== undefined)
    return `${issue.path === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `}${issue.message}`;
  return String(error instanceof Error ? error.message : error)
    .split('\n')[0]!
    .slice(0, 300);
}
