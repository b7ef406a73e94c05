import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AnthropicRequestBody, AnthropicResponse, AnthropicStreamEvent, AnthropicUsage } from '../anthropic-wire-types.ts';
import { checkAnthropicRequest } from './anthropic-check-request.ts';

/**
 * A real HTTP server speaking Anthropic's Messages API (`POST /v1/messages`, plain JSON and SSE),
 * scripted by the test: each request goes to a handler that returns a ReplySpec. Like the real API
 * it wants `x-api-key` and `anthropic-version`, and rejects bodies that break its rules (roles not
 * alternating, tool results not answering the calls before them). For tests only.
 */

export interface ScriptedToolUse {
  name: string;
  /** An object is serialized; a string is streamed as is. */
  input: Record<string, unknown> | string;
  /** Default `toolu_<n>`. */
  id?: string;
}

export interface ReplySpec {
  text?: string;
  toolCalls?: ScriptedToolUse[];
  /** Default `tool_use` with tool calls, else `end_turn`; null sends none. */
  stopReason?: string | null;
  /** Default: counted from the sizes; null sends none. */
  usage?: AnthropicUsage | null;
  /** Streaming: how many input_json_delta pieces each tool input is cut into (default 3). */
  argumentPieces?: number;
  /** HTTP status; ≥ 400 sends an Anthropic error body with `error` as its message. */
  status?: number;
  headers?: Record<string, string>;
  error?: string;
  /** The `error.type` of an error body; default by status (529 → overloaded_error, …). */
  errorType?: string;
  /** Sends exactly this body (status default 200). */
  body?: string;
  /** Streaming: exactly these event payloads (objects are serialized; their `type` names the event). */
  events?: (string | object)[];
  /** Never answers; the connection stays open until the client gives up or the server closes. */
  hang?: boolean;
  /** Sends this many SSE events (or, not streaming, half the body), then destroys the socket. */
  cutAfterChunks?: number;
  /** Before the headers. */
  delayMs?: number;
  /** Streaming: between events. */
  chunkDelayMs?: number;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: AnthropicRequestBody;
  /** The body as it arrived, byte for byte. */
  raw: string;
}

export type ReplyHandler = (request: RecordedRequest, index: number) => ReplySpec | Promise<ReplySpec>;

export interface AnthropicTestServer {
  /** The base URL, without `/v1` (as ANTHROPIC_BASE_URL is given). */
  url: string;
  /** Requests that passed the header and body checks, in order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Replies in order, one per request; the last one repeats. */
export function replies(list: readonly ReplySpec[]): ReplyHandler {
  if (list.length === 0) throw new Error('replies() needs at least one reply');
  return (_request, index) => list[Math.min(index, list.length - 1)]!;
}

export async function startAnthropicTestServer(handler: ReplyHandler | ReplySpec): Promise<AnthropicTestServer> {
  const handle: ReplyHandler = typeof handler === 'function' ? handler : () => handler;
  const requests: RecordedRequest[] = [];
  let served = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || (req.url ?? '/').split('?')[0] !== '/v1/messages') return sendError(res, 404, `Not found: ${req.method} ${req.url}`);
      if (typeof req.headers['x-api-key'] !== 'string' || req.headers['x-api-key'] === '') return sendError(res, 401, 'x-api-key header is required');
      if (req.headers['anthropic-version'] === undefined) return sendError(res, 400, 'anthropic-version: header is required');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: AnthropicRequestBody;
      try {
        body = JSON.parse(raw) as AnthropicRequestBody;
      } catch (error) {
        return sendError(res, 400, `There was an issue with your request body: ${(error as Error).message}`);
      }
      const problem = checkAnthropicRequest(body);
      if (problem !== undefined) return sendError(res, 400, problem);
      const request: RecordedRequest = { method: req.method, url: req.url ?? '', headers: req.headers, body, raw };
      requests.push(request);
      Promise.resolve(handle(request, served++)).then(
        (spec) => reply(res, body, spec),
        (error: unknown) => sendError(res, 500, `test handler failed: ${String(error)}`),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function reply(res: ServerResponse, body: AnthropicRequestBody, spec: ReplySpec): Promise<void> {
  if (spec.hang === true) return;
  if (spec.delayMs !== undefined) await pause(spec.delayMs);
  if (res.destroyed) return;
  const status = spec.status ?? 200;
  if (spec.body !== undefined) {
    res.writeHead(status, { 'content-type': 'application/json', ...spec.headers });
    res.end(spec.body);
    return;
  }
  if (status >= 400) return sendError(res, status, spec.error ?? `error ${status}`, spec.headers, spec.errorType);
  if (body.stream === true) return streamReply(res, body, spec);
  const text = JSON.stringify(message(body, spec));
  if (spec.cutAfterChunks !== undefined) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...spec.headers });
    res.write(text.slice(0, text.length >> 1), () => res.destroy());
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', ...spec.headers });
  res.end(text);
}

async function streamReply(res: ServerResponse, body: AnthropicRequestBody, spec: ReplySpec): Promise<void> {
  const events = spec.events ?? streamEvents(body, spec);
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...spec.headers });
  for (let i = 0; i < events.length; i++) {
    if (spec.cutAfterChunks !== undefined && i === spec.cutAfterChunks) {
      res.destroy();
      return;
    }
    if (i > 0 && spec.chunkDelayMs !== undefined) await pause(spec.chunkDelayMs);
    if (res.destroyed) return;
    const event = events[i]!;
    const data = typeof event === 'string' ? event : JSON.stringify(event);
    const name = typeof event === 'string' ? 'unknown' : String((event as { type?: unknown }).type);
    // Flushed before the next step, so that a cut comes after exactly these events.
    await new Promise((resolve) => res.write(`event: ${name}\ndata: ${data}\n\n`, resolve));
  }
  res.end();
}

/** The event sequence of the real API: message_start, each block (start, ping after the first, deltas, stop), message_delta, message_stop. */
function streamEvents(body: AnthropicRequestBody, spec: ReplySpec): AnthropicStreamEvent[] {
  const usage = usageOf(body, spec);
  const start = message(body, { text: '', toolCalls: [], stopReason: null, usage: usage === null ? null : { ...usage, output_tokens: 1 } });
  const out: AnthropicStreamEvent[] = [{ type: 'message_start', message: start }];
  let index = 0;
  const ping = () => {
    if (index === 1) out.push({ type: 'ping' });
  };
  if (spec.text !== undefined && spec.text !== '') {
    out.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    index++;
    ping();
    for (const piece of spec.text.match(/\S+\s*|\s+/g) ?? []) out.push({ type: 'content_block_delta', index: index - 1, delta: { type: 'text_delta', text: piece } });
    out.push({ type: 'content_block_stop', index: index - 1 });
  }
  (spec.toolCalls ?? []).forEach((call, n) => {
    out.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: call.id ?? `toolu_${n + 1}`, name: call.name, input: {} } });
    index++;
    ping();
    // The real API opens with an empty piece.
    const pieces = ['', ...split(inputJsonText(call), spec.argumentPieces ?? 3)];
    for (const piece of pieces) out.push({ type: 'content_block_delta', index: index - 1, delta: { type: 'input_json_delta', partial_json: piece } });
    out.push({ type: 'content_block_stop', index: index - 1 });
  });
  const reason = stopReasonOf(spec);
  out.push({ type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, ...(usage === null ? {} : { usage: { output_tokens: usage.output_tokens } }) });
  out.push({ type: 'message_stop' });
  return out;
}

function message(body: AnthropicRequestBody, spec: ReplySpec): AnthropicResponse {
  const content: AnthropicResponse['content'] = [];
  if (spec.text !== undefined && spec.text !== '') content.push({ type: 'text', text: spec.text });
  (spec.toolCalls ?? []).forEach((call, n) => {
    content.push({ type: 'tool_use', id: call.id ?? `toolu_${n + 1}`, name: call.name, input: JSON.parse(inputJsonText(call)) as Record<string, unknown> });
  });
  const usage = usageOf(body, spec);
  return {
    id: 'msg_test',
    type: 'message',
    role: 'assistant',
    model: body.model,
    content,
    stop_reason: stopReasonOf(spec),
    stop_sequence: null,
    ...(usage === null ? {} : { usage }),
  };
}

function inputJsonText(call: ScriptedToolUse): string {
  return typeof call.input === 'string' ? call.input : JSON.stringify(call.input);
}

function stopReasonOf(spec: ReplySpec): string | null {
  if (spec.stopReason !== undefined) return spec.stopReason;
  return spec.toolCalls !== undefined && spec.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

function usageOf(body: AnthropicRequestBody, spec: ReplySpec): AnthropicUsage | null {
  if (spec.usage !== undefined) return spec.usage;
  const input_tokens = Math.ceil((JSON.stringify(body.messages).length + (body.system?.length ?? 0)) / 4);
  const output_tokens = Math.max(1, Math.ceil(((spec.text ?? '').length + JSON.stringify(spec.toolCalls ?? []).length) / 4));
  return { input_tokens, output_tokens };
}

function split(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function sendError(res: ServerResponse, status: number, message: string, headers?: Record<string, string>, type?: string): void {
  const errorType = type ?? ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_test', ...headers });
  res.end(JSON.stringify({ type: 'error', error: { type: errorType, message } }));
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
