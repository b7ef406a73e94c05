import type {
  WireChunk,
  WireCompletion,
  WireRequestBody,
  WireToolCall,
  WireUsage,
} from '../providers/openai/openai-wire-types.ts';
import {
  split,
  startWireServer,
  words,
  type NoRoute,
  type ReplyControls,
  type WireHandler,
  type WireProtocol,
  type WireRequest,
  type WireTestServer,
} from './wire-server.ts';
import { checkOpenAIRequest } from './openai-check-request.ts';

/** OpenAI's Chat Completions on the test server (wire-server.ts): plain JSON and `stream: true` SSE. For tests only. */

export interface ScriptedToolCall {
  name: string;
  /** An object is serialized; a string is sent as is. */
  arguments: Record<string, unknown> | string;
  /** Default `call_<n>`; null sends the call without an id (Ollama, llama.cpp). */
  id?: string | null;
}

export interface ReplySpec extends ReplyControls {
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
  /** Streaming: send `data: [DONE]` at the end, after scripted `events` too (default true). */
  done?: boolean;
}

export type RecordedRequest = WireRequest<WireRequestBody, NoRoute>;
export type ReplyHandler = WireHandler<WireRequestBody, NoRoute, ReplySpec>;
/** Its `url` ends in `/v1`. */
export type OpenAITestServer = WireTestServer<WireRequestBody, NoRoute>;

export const OPENAI_WIRE: WireProtocol<WireRequestBody, NoRoute, ReplySpec> = {
  basePath: '/v1',
  route: (method, url) =>
    method === 'POST' && (url.pathname === '/v1/chat/completions' || url.pathname === '/chat/completions')
      ? {}
      : undefined,
  notFound: (method, url) => `Unknown request URL: ${method} ${url}`,
  notJson: (error) => `We could not parse the JSON body of your request. (${error.message})`,
  check: checkOpenAIRequest,
  streams: (request) => request.body.stream === true,
  answer: (request, spec) => completion(request.body, spec),
  events(request, spec) {
    const payloads: (string | object)[] = spec.events ?? chunks(request.body, spec);
    return spec.done === false ? payloads : [...payloads, '[DONE]'];
  },
  frame: (payload) => `data: ${payload}\n\n`,
  errorBody({ status, message }) {
    const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
    return {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { message, type, param: null, code: null } }),
    };
  },
};

export function startOpenAITestServer(handler: ReplyHandler | ReplySpec): Promise<OpenAITestServer> {
  return startWireServer(OPENAI_WIRE, handler);
}

function chunks(body: WireRequestBody, spec: ReplySpec): WireChunk[] {
  const base = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1700000000, model: body.model };
  const chunk = (delta: object, finish: string | null = null): WireChunk => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out: WireChunk[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of words(spec.text)) out.push(chunk({ content: piece }));
  for (const [index, call] of (spec.toolCalls ?? []).entries()) {
    const wire = toolCall(call, index);
    const args = wire.function!.arguments as string;
    if (spec.wholeToolCalls === true) {
      out.push(chunk({ tool_calls: [{ index, ...wire }] }));
      continue;
    }
    out.push(chunk({ tool_calls: [{ index, ...wire, function: { name: wire.function!.name, arguments: '' } }] }));
    for (const piece of split(args, spec.argumentPieces ?? 3))
      out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  const finish = finishOf(spec);
  if (finish !== null) out.push(chunk({}, finish));
  const usage = usageOf(body, spec);
  if (usage !== null && body.stream_options?.include_usage === true) out.push({ ...base, choices: [], usage });
  return out;
}

function completion(body: WireRequestBody, spec: ReplySpec): WireCompletion {
  const calls = spec.toolCalls?.map(toolCall);
  const message = {
    role: 'assistant',
    content: spec.text ?? null,
    ...(calls === undefined ? {} : { tool_calls: calls }),
  };
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
  const completion_tokens = Math.max(
    1,
    Math.ceil(((spec.text ?? '').length + JSON.stringify(spec.toolCalls ?? []).length) / 4),
  );
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}
