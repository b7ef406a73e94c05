import type {
  AnthropicRequestBody,
  AnthropicResponse,
  AnthropicStreamEvent,
  AnthropicUsage,
} from '../providers/anthropic/anthropic-wire-types.ts';
import { checkAnthropicRequest } from './anthropic-check-request.ts';
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

/**
 * Anthropic's Messages API (`POST /v1/messages`, plain JSON and SSE) on the test server
 * (wire-server.ts). Like the real API it wants `x-api-key` and `anthropic-version`, and rejects
 * bodies that break its rules (roles not alternating, tool results not answering the calls before
 * them). For tests only.
 */

export interface ScriptedToolUse {
  name: string;
  /** An object is serialized; a string is streamed as is. */
  input: Record<string, unknown> | string;
  /** Default `toolu_<n>`. */
  id?: string;
}

export interface ReplySpec extends ReplyControls {
  text?: string;
  toolCalls?: ScriptedToolUse[];
  /** Default `tool_use` with tool calls, else `end_turn`; null sends none. */
  stopReason?: string | null;
  /** Default: counted from the sizes; null sends none. */
  usage?: AnthropicUsage | null;
  /** Streaming: how many input_json_delta pieces each tool input is cut into (default 3). */
  argumentPieces?: number;
  /** The `error.type` of an error body; default by status (529 → overloaded_error, …). */
  errorType?: string;
}

export type RecordedRequest = WireRequest<AnthropicRequestBody, NoRoute>;
export type ReplyHandler = WireHandler<AnthropicRequestBody, NoRoute, ReplySpec>;
/** Its `url` has no `/v1`, as ANTHROPIC_BASE_URL is given. */
export type AnthropicTestServer = WireTestServer<AnthropicRequestBody, NoRoute>;

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

export const ANTHROPIC_WIRE: WireProtocol<AnthropicRequestBody, NoRoute, ReplySpec> = {
  basePath: '',
  route: (method, url) => (method === 'POST' && url.pathname === '/v1/messages' ? {} : undefined),
  notFound: (method, url) => `Not found: ${method} ${url}`,
  refuse(headers) {
    if (typeof headers['x-api-key'] !== 'string' || headers['x-api-key'] === '')
      return { status: 401, message: 'x-api-key header is required' };
    if (headers['anthropic-version'] === undefined)
      return { status: 400, message: 'anthropic-version: header is required' };
    return undefined;
  },
  notJson: (error) => `There was an issue with your request body: ${error.message}`,
  check: checkAnthropicRequest,
  streams: (request) => request.body.stream === true,
  answer: (request, spec) => message(request.body, spec),
  events: (request, spec) => spec.events ?? streamEvents(request.body, spec),
  // The event's name is its `type`.
  frame: (payload, event) =>
    `event: ${typeof event === 'string' ? 'unknown' : String((event as { type?: unknown }).type)}\ndata: ${payload}\n\n`,
  streamContentType: 'text/event-stream; charset=utf-8',
  errorBody({ status, message }, spec) {
    const type = spec?.errorType ?? ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    return {
      headers: { 'content-type': 'application/json', 'request-id': 'req_test' },
      body: JSON.stringify({ type: 'error', error: { type, message } }),
    };
  },
};

export function startAnthropicTestServer(handler: ReplyHandler | ReplySpec): Promise<AnthropicTestServer> {
  return startWireServer(ANTHROPIC_WIRE, handler);
}

/** The event sequence of the real API: message_start, each block (start, ping after the first, deltas, stop), message_delta, message_stop. */
function streamEvents(body: AnthropicRequestBody, spec: ReplySpec): AnthropicStreamEvent[] {
  const usage = usageOf(body, spec);
  const start = message(body, {
    text: '',
    toolCalls: [],
    stopReason: null,
    usage: usage === null ? null : { ...usage, output_tokens: 1 },
  });
  const out: AnthropicStreamEvent[] = [{ type: 'message_start', message: start }];
  let index = 0;
  const ping = () => {
    if (index === 1) out.push({ type: 'ping' });
  };
  if (spec.text !== undefined && spec.text !== '') {
    out.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    index++;
    ping();
    for (const piece of words(spec.text))
      out.push({ type: 'content_block_delta', index: index - 1, delta: { type: 'text_delta', text: piece } });
    out.push({ type: 'content_block_stop', index: index - 1 });
  }
  (spec.toolCalls ?? []).forEach((call, n) => {
    out.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: call.id ?? `toolu_${n + 1}`, name: call.name, input: {} },
    });
    index++;
    ping();
    // The real API opens with an empty piece.
    const pieces = ['', ...split(inputJsonText(call), spec.argumentPieces ?? 3)];
    for (const piece of pieces)
      out.push({
        type: 'content_block_delta',
        index: index - 1,
        delta: { type: 'input_json_delta', partial_json: piece },
      });
    out.push({ type: 'content_block_stop', index: index - 1 });
  });
  const reason = stopReasonOf(spec);
  out.push({
    type: 'message_delta',
    delta: { stop_reason: reason, stop_sequence: null },
    ...(usage === null ? {} : { usage: { output_tokens: usage.output_tokens } }),
  });
  out.push({ type: 'message_stop' });
  return out;
}

function message(body: AnthropicRequestBody, spec: ReplySpec): AnthropicResponse {
  const content: AnthropicResponse['content'] = [];
  if (spec.text !== undefined && spec.text !== '') content.push({ type: 'text', text: spec.text });
  (spec.toolCalls ?? []).forEach((call, n) => {
    content.push({
      type: 'tool_use',
      id: call.id ?? `toolu_${n + 1}`,
      name: call.name,
      input: JSON.parse(inputJsonText(call)) as Record<string, unknown>,
    });
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
  const output_tokens = Math.max(
    1,
    Math.ceil(((spec.text ?? '').length + JSON.stringify(spec.toolCalls ?? []).length) / 4),
  );
  return { input_tokens, output_tokens };
}
