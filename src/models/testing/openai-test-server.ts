import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WireChunk, WireCompletion, WireRequestBody, WireToolCall, WireUsage } from '../openai-wire-types.ts';

/**
 * A real HTTP server speaking OpenAI's Chat Completions (plain JSON and `stream: true` SSE), scripted
 * by the test: each request goes to a handler that returns a ReplySpec. For tests only.
 */

export interface ScriptedToolCall {
  name: string;
  /** An object is serialized; a string is sent as is. */
  arguments: Record<string, unknown> | string;
  /** Default `call_<n>`; null sends the call without an id (Ollama, llama.cpp). */
  id?: string | null;
}

export interface ReplySpec {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Default `tool_calls` with tool calls, else `stop`; null sends none. */
  finishReason?: string | null;
  /** Default: counted from the sizes; null sends none. */
  usage?: WireUsage | null;
  /** Streaming: each tool call whole in one chunk instead of its arguments over several. */
  wholeToolCalls?: boolean;
  /** Streaming: how many pieces the arguments are cut into (default 3). */
  argumentPieces?: number;
  /** HTTP status; ≥ 400 sends an OpenAI error body with `error` as its message. */
  status?: number;
  headers?: Record<string, string>;
  error?: string;
  /** Sends exactly this body (status default 200). */
  body?: string;
  /** Streaming: exactly these event payloads (objects are serialized), then `[DONE]` unless `done: false`. */
  events?: (string | object)[];
  /** Streaming: send `data: [DONE]` at the end (default true). */
  done?: boolean;
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
  body: WireRequestBody;
  /** The body as it arrived, byte for byte. */
  raw: string;
}

export type ReplyHandler = (request: RecordedRequest, index: number) => ReplySpec | Promise<ReplySpec>;

export interface OpenAITestServer {
  /** The base URL, ending in `/v1`. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Replies in order, one per request; the last one repeats. */
export function replies(list: readonly ReplySpec[]): ReplyHandler {
  if (list.length === 0) throw new Error('replies() needs at least one reply');
  return (_request, index) => list[Math.min(index, list.length - 1)]!;
}

export async function startOpenAITestServer(handler: ReplyHandler | ReplySpec): Promise<OpenAITestServer> {
  const handle: ReplyHandler = typeof handler === 'function' ? handler : () => handler;
  const requests: RecordedRequest[] = [];
  let served = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/chat/completions')) {
        return sendError(res, 404, `Unknown request URL: ${req.method} ${req.url}`);
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: WireRequestBody;
      try {
        body = JSON.parse(raw) as WireRequestBody;
      } catch (error) {
        return sendError(res, 400, `We could not parse the JSON body of your request. (${(error as Error).message})`);
      }
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
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function reply(res: ServerResponse, body: WireRequestBody, spec: ReplySpec): Promise<void> {
  if (spec.hang === true) return;
  if (spec.delayMs !== undefined) await pause(spec.delayMs);
  if (res.destroyed) return;
  const status = spec.status ?? 200;
  if (spec.body !== undefined) {
    res.writeHead(status, { 'content-type': 'application/json', ...spec.headers });
    res.end(spec.body);
    return;
  }
  if (status >= 400) return sendError(res, status, spec.error ?? `error ${status}`, spec.headers);
  if (body.stream === true) return streamReply(res, body, spec);
  const text = JSON.stringify(completion(body, spec));
  if (spec.cutAfterChunks !== undefined) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...spec.headers });
    res.write(text.slice(0, text.length >> 1), () => res.destroy());
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', ...spec.headers });
  res.end(text);
}

async function streamReply(res: ServerResponse, body: WireRequestBody, spec: ReplySpec): Promise<void> {
  const payloads = spec.events?.map((event) => (typeof event === 'string' ? event : JSON.stringify(event))) ?? chunks(body, spec).map((chunk) => JSON.stringify(chunk));
  if (spec.done !== false) payloads.push('[DONE]');
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...spec.headers });
  for (let i = 0; i < payloads.length; i++) {
    if (spec.cutAfterChunks !== undefined && i === spec.cutAfterChunks) {
      res.destroy();
      return;
    }
    if (i > 0 && spec.chunkDelayMs !== undefined) await pause(spec.chunkDelayMs);
    if (res.destroyed) return;
    // Flushed before the next step, so that a cut comes after exactly these events.
    await new Promise((resolve) => res.write(`data: ${payloads[i]}\n\n`, resolve));
  }
  res.end();
}

function chunks(body: WireRequestBody, spec: ReplySpec): WireChunk[] {
  const base = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1700000000, model: body.model };
  const chunk = (delta: object, finish: string | null = null): WireChunk => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const out: WireChunk[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of spec.text?.match(/\S+\s*|\s+/g) ?? []) out.push(chunk({ content: piece }));
  (spec.toolCalls ?? []).forEach((call, index) => {
    const wire = toolCall(call, index);
    const args = wire.function!.arguments as string;
    if (spec.wholeToolCalls === true) return out.push(chunk({ tool_calls: [{ index, ...wire }] }));
    out.push(chunk({ tool_calls: [{ index, ...wire, function: { name: wire.function!.name, arguments: '' } }] }));
    for (const piece of split(args, spec.argumentPieces ?? 3)) out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  const finish = finishOf(spec);
  if (finish !== null) out.push(chunk({}, finish));
  const usage = usageOf(body, spec);
  if (usage !== null && body.stream_options?.include_usage === true) out.push({ ...base, choices: [], usage });
  return out;
}

function completion(body: WireRequestBody, spec: ReplySpec): WireCompletion {
  const calls = spec.toolCalls?.map(toolCall);
  const message = { role: 'assistant', content: spec.text ?? null, ...(calls === undefined ? {} : { tool_calls: calls }) };
  const usage = usageOf(body, spec);
  return {
    id: 'chatcmpl-test',
    choices: [{ index: 0, message, finish_reason: finishOf(spec) }],
    ...(usage === null ? {} : { usage }),
  };
}

function toolCall(call: ScriptedToolCall, index: number): WireToolCall {
  const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
  const wire: WireToolCall = { type: 'function', function: { name: call.name, arguments: args } };
  if (call.id !== null) wire.id = call.id ?? `call_${index + 1}`;
  return wire;
}

function finishOf(spec: ReplySpec): string | null {
  if (spec.finishReason !== undefined) return spec.finishReason;
  return spec.toolCalls !== undefined && spec.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

function usageOf(body: WireRequestBody, spec: ReplySpec): WireUsage | null {
  if (spec.usage !== undefined) return spec.usage;
  const prompt_tokens = Math.ceil(JSON.stringify(body.messages).length / 4);
  const completion_tokens = Math.max(1, Math.ceil(((spec.text ?? '').length + JSON.stringify(spec.toolCalls ?? []).length) / 4));
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

function split(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function sendError(res: ServerResponse, status: number, message: string, headers?: Record<string, string>): void {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { message, type, param: null, code: null } }));
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
