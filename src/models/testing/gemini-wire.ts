import type {
  GeminiErrorDetail,
  GeminiPart,
  GeminiRequestBody,
  GeminiResponse,
  GeminiUsage,
} from '../providers/gemini/gemini-wire-types.ts';
import {
  startWireServer,
  words,
  type ReplyControls,
  type WireHandler,
  type WireProtocol,
  type WireRequest,
  type WireTestServer,
} from './wire-server.ts';

/**
 * Gemini's `generateContent` and `streamGenerateContent` (SSE with `alt=sse`, else a JSON array of
 * chunks) on the test server (wire-server.ts). Like Google's, it refuses requests without
 * `x-goog-api-key`. For tests only.
 */

export interface ScriptedFunctionCall {
  name: string;
  args?: Record<string, unknown>;
  /** Sent as `functionCall.id`; Gemini usually sends none. */
  id?: string;
  thoughtSignature?: string;
}

export interface GeminiReplySpec extends ReplyControls {
  text?: string;
  /** A thought summary, sent as a `thought: true` part before the answer. */
  thought?: string;
  functionCalls?: ScriptedFunctionCall[];
  /** Default STOP; null sends none. */
  finishReason?: string | null;
  /** Default: counted from the sizes; null sends none. */
  usage?: GeminiUsage | null;
  /** The error's `status` (default from the HTTP status, e.g. RESOURCE_EXHAUSTED for 429). */
  errorStatus?: string;
  errorDetails?: GeminiErrorDetail[];
}

/** What the path says: the model, and which method of it. */
export interface GeminiRoute {
  /** `gemini-2.5-flash`. */
  model: string;
  endpoint: 'generateContent' | 'streamGenerateContent';
  /** Streamed as server-sent events (`alt=sse`). */
  sse: boolean;
}

export type GeminiRecordedRequest = WireRequest<GeminiRequestBody, GeminiRoute>;
export type GeminiReplyHandler = WireHandler<GeminiRequestBody, GeminiRoute, GeminiReplySpec>;
/** Its `url` ends in `/v1beta`. */
export type GeminiTestServer = WireTestServer<GeminiRequestBody, GeminiRoute>;

const ROUTE = /^\/v1beta\/(?:models|tunedModels)\/([^/:]+):(generateContent|streamGenerateContent)$/;

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

export const GEMINI_WIRE: WireProtocol<GeminiRequestBody, GeminiRoute, GeminiReplySpec> = {
  basePath: '/v1beta',
  route(method, url) {
    const match = ROUTE.exec(url.pathname);
    if (method !== 'POST' || match === null) return undefined;
    const endpoint = match[2] as GeminiRoute['endpoint'];
    return {
      model: decodeURIComponent(match[1]!),
      endpoint,
      sse: endpoint === 'streamGenerateContent' && url.searchParams.get('alt') === 'sse',
    };
  },
  notFound: (method, url) => `Unknown request URL: ${method} ${url}`,
  refuse: (headers) =>
    headers['x-goog-api-key'] === undefined
      ? {
          status: 403,
          message:
            "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        }
      : undefined,
  notJson: (error) => `Invalid JSON payload received. ${error.message}`,
  streams: (request) => request.route.sse,
  // streamGenerateContent without alt=sse answers with the chunks as one JSON array.
  answer: (request, spec) =>
    request.route.endpoint === 'streamGenerateContent' ? streamChunks(request, spec) : whole(request, spec),
  events: (request, spec) => spec.events ?? streamChunks(request, spec),
  // Google ends lines with \r\n.
  frame: (payload) => `data: ${payload}\r\n\r\n`,
  errorBody({ status, message }, spec) {
    const error = {
      code: status,
      message,
      status: spec?.errorStatus ?? STATUS_NAMES[status] ?? 'UNKNOWN',
      ...(spec?.errorDetails === undefined ? {} : { details: spec.errorDetails }),
    };
    return { headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ error }, null, 2) };
  },
};

export function startGeminiTestServer(handler: GeminiReplyHandler | GeminiReplySpec): Promise<GeminiTestServer> {
  return startWireServer(GEMINI_WIRE, handler);
}

/** Chunks as Gemini streams them: a thought, the text a word or so at a time, the calls whole; the last carries finishReason and usage. */
function streamChunks(request: GeminiRecordedRequest, spec: GeminiReplySpec): GeminiResponse[] {
  const out: GeminiResponse[] = [];
  if (spec.thought !== undefined) out.push(chunk([{ text: spec.thought, thought: true }]));
  for (const piece of words(spec.text)) out.push(chunk([{ text: piece }]));
  if (spec.functionCalls !== undefined && spec.functionCalls.length > 0)
    out.push(chunk(spec.functionCalls.map(callPart)));
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

/** One response chunk with these parts. */
export function chunk(parts: GeminiPart[]): GeminiResponse {
  return { candidates: [{ content: { role: 'model', parts }, index: 0 }], modelVersion: 'gemini-test' };
}

function callPart(call: ScriptedFunctionCall): GeminiPart {
  const part: GeminiPart = {
    functionCall: { name: call.name, args: call.args ?? {}, ...(call.id === undefined ? {} : { id: call.id }) },
  };
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
  const candidatesTokenCount = Math.max(
    1,
    Math.ceil(((spec.text ?? '').length + JSON.stringify(spec.functionCalls ?? []).length) / 4),
  );
  return { promptTokenCount, candidatesTokenCount, totalTokenCount: promptTokenCount + candidatesTokenCount };
}
