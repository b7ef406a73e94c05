import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GeminiErrorDetail, GeminiPart, GeminiRequestBody, GeminiResponse, GeminiUsage } from '../gemini-wire-types.ts';

/**
 * A real HTTP server speaking Gemini's `generateContent` and `streamGenerateContent` (SSE with
 * `alt=sse`, else a JSON array of chunks), scripted by the test: each request goes to a handler
 * that returns a GeminiReplySpec. Like Google's, it refuses requests without `x-goog-api-key`.
 * For tests only.
 */

export interface ScriptedFunctionCall {
  name: string;
  args?: Record<string, unknown>;
  /** Sent as `functionCall.id`; Gemini usually sends none. */
  id?: string;
  thoughtSignature?: string;
}

export interface GeminiReplySpec {
  text?: string;
  /** A thought summary, sent as a `thought: true` part before the answer. */
  thought?: string;
  functionCalls?: ScriptedFunctionCall[];
  /** Default STOP; null sends none. */
  finishReason?: string | null;
  /** Default: counted from the sizes; null sends none. */
  usage?: GeminiUsage | null;
  /** HTTP status; ≥ 400 sends Google's error body. */
  status?: number;
  /** The error's message. */
  error?: string;
  /** The error's `status` (default from the HTTP status, e.g. RESOURCE_EXHAUSTED for 429). */
  errorStatus?: string;
  errorDetails?: GeminiErrorDetail[];
  headers?: Record<string, string>;
  /** Sends exactly this body (status default 200). */
  body?: string;
  /** Streaming: exactly these event payloads (objects are serialized). */
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

export interface GeminiRecordedRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: GeminiRequestBody;
  /** The body as it arrived, byte for byte. */
  raw: string;
  /** From the path: `gemini-2.5-flash`. */
  model: string;
  method: 'generateContent' | 'streamGenerateContent';
}

export type GeminiReplyHandler = (request: GeminiRecordedRequest, index: number) => GeminiReplySpec | Promise<GeminiReplySpec>;

export interface GeminiTestServer {
  /** The base URL, ending in `/v1beta`. */
  url: string;
  requests: GeminiRecordedRequest[];
  close(): Promise<void>;
}

/** Replies in order, one per request; the last one repeats. */
export function replies(list: readonly GeminiReplySpec[]): GeminiReplyHandler {
  if (list.length === 0) throw new Error('replies() needs at least one reply');
  return (_request, index) => list[Math.min(index, list.length - 1)]!;
}

const ROUTE = /^\/v1beta\/(?:models|tunedModels)\/([^/:]+):(generateContent|streamGenerateContent)$/;

export async function startGeminiTestServer(handler: GeminiReplyHandler | GeminiReplySpec): Promise<GeminiTestServer> {
  const handle: GeminiReplyHandler = typeof handler === 'function' ? handler : () => handler;
  const requests: GeminiRecordedRequest[] = [];
  let served = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const route = ROUTE.exec(url.pathname);
      if (req.method !== 'POST' || route === null) return sendError(res, 404, `Unknown request URL: ${req.method} ${req.url}`);
      if (req.headers['x-goog-api-key'] === undefined) {
        return sendError(res, 403, "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.");
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: GeminiRequestBody;
      try {
        body = JSON.parse(raw) as GeminiRequestBody;
      } catch (error) {
        return sendError(res, 400, `Invalid JSON payload received. ${(error as Error).message}`);
      }
      const request: GeminiRecordedRequest = { url: req.url ?? '', headers: req.headers, body, raw, model: decodeURIComponent(route[1]!), method: route[2] as GeminiRecordedRequest['method'] };
      requests.push(request);
      const sse = request.method === 'streamGenerateContent' && url.searchParams.get('alt') === 'sse';
      Promise.resolve(handle(request, served++)).then(
        (spec) => reply(res, request, sse, spec),
        (error: unknown) => sendError(res, 500, `test handler failed: ${String(error)}`),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1beta`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function reply(res: ServerResponse, request: GeminiRecordedRequest, sse: boolean, spec: GeminiReplySpec): Promise<void> {
  if (spec.hang === true) return;
  if (spec.delayMs !== undefined) await pause(spec.delayMs);
  if (res.destroyed) return;
  const status = spec.status ?? 200;
  if (spec.body !== undefined) {
    res.writeHead(status, { 'content-type': 'application/json', ...spec.headers });
    res.end(spec.body);
    return;
  }
  if (status >= 400) return sendError(res, status, spec.error ?? `error ${status}`, spec.headers, spec.errorStatus, spec.errorDetails);
  if (sse) return streamReply(res, request, spec);
  const payload = request.method === 'streamGenerateContent' ? streamChunks(request, spec) : whole(request, spec);
  const text = JSON.stringify(payload);
  if (spec.cutAfterChunks !== undefined) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...spec.headers });
    res.write(text.slice(0, text.length >> 1), () => res.destroy());
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', ...spec.headers });
  res.end(text);
}

async function streamReply(res: ServerResponse, request: GeminiRecordedRequest, spec: GeminiReplySpec): Promise<void> {
  const payloads = (spec.events ?? streamChunks(request, spec)).map((event) => (typeof event === 'string' ? event : JSON.stringify(event)));
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...spec.headers });
  for (let i = 0; i < payloads.length; i++) {
    if (spec.cutAfterChunks !== undefined && i === spec.cutAfterChunks) {
      res.destroy();
      return;
    }
    if (i > 0 && spec.chunkDelayMs !== undefined) await pause(spec.chunkDelayMs);
    if (res.destroyed) return;
    // Flushed before the next step, so that a cut comes after exactly these events. Google ends lines with \r\n.
    await new Promise((resolve) => res.write(`data: ${payloads[i]}\r\n\r\n`, resolve));
  }
  res.end();
}

/** Chunks as Gemini streams them: a thought, the text a word or so at a time, the calls whole; the last carries finishReason and usage. */
function streamChunks(request: GeminiRecordedRequest, spec: GeminiReplySpec): GeminiResponse[] {
  const out: GeminiResponse[] = [];
  if (spec.thought !== undefined) out.push(chunk([{ text: spec.thought, thought: true }]));
  for (const piece of spec.text?.match(/\S+\s*|\s+/g) ?? []) out.push(chunk([{ text: piece }]));
  if (spec.functionCalls !== undefined && spec.functionCalls.length > 0) out.push(chunk(spec.functionCalls.map(callPart)));
  if (out.length === 0) out.push(chunk([{ text: '' }]));
  return finishLast(out, request, spec);
}

function whole(request: GeminiRecordedRequest, spec: GeminiReplySpec): GeminiResponse {
  const parts: GeminiPart[] = [];
  if (spec.thought !== undefined) parts.push({ text: spec.thought, thought: true });
  if (spec.text !== undefined) parts.push({ text: spec.text });
  parts.push(...(spec.functionCalls ?? []).map(callPart));
  return finishLast([chunk(parts)], request, spec)[0]!;
}

function chunk(parts: GeminiPart[]): GeminiResponse {
  return { candidates: [{ content: { role: 'model', parts }, index: 0 }], modelVersion: 'gemini-test' };
}

function callPart(call: ScriptedFunctionCall): GeminiPart {
  const part: GeminiPart = { functionCall: { name: call.name, args: call.args ?? {}, ...(call.id === undefined ? {} : { id: call.id }) } };
  if (call.thoughtSignature !== undefined) part.thoughtSignature = call.thoughtSignature;
  return part;
}

function finishLast(chunks: GeminiResponse[], request: GeminiRecordedRequest, spec: GeminiReplySpec): GeminiResponse[] {
  const last = chunks.at(-1)!;
  const finish = spec.finishReason === undefined ? 'STOP' : spec.finishReason;
  if (finish !== null) last.candidates![0]!.finishReason = finish;
  const usage = spec.usage !== undefined ? spec.usage : defaultUsage(request, spec);
  if (usage !== null) last.usageMetadata = usage;
  return chunks;
}

function defaultUsage(request: GeminiRecordedRequest, spec: GeminiReplySpec): GeminiUsage {
  const promptTokenCount = Math.ceil(JSON.stringify(request.body.contents).length / 4);
  const candidatesTokenCount = Math.max(1, Math.ceil(((spec.text ?? '').length + JSON.stringify(spec.functionCalls ?? []).length) / 4));
  return { promptTokenCount, candidatesTokenCount, totalTokenCount: promptTokenCount + candidatesTokenCount };
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function sendError(res: ServerResponse, code: number, message: string, headers?: Record<string, string>, status?: string, details?: GeminiErrorDetail[]): void {
  res.writeHead(code, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  const error = { code, message, status: status ?? STATUS_NAMES[code] ?? 'UNKNOWN', ...(details === undefined ? {} : { details }) };
  res.end(JSON.stringify({ error }, null, 2));
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
