import type { ClientTool } from '../../assistant/client-tools.ts';
import { answerChecker } from '../../assistant/structured-output.ts';
import type { ChatMessage, ToolCallRequest } from '../../models/chat-message.ts';
import type { ResponseFormat, SamplingSettings, ToolChoice } from '../../models/chat-model.ts';
import { MAX_STOP_SEQUENCES } from '../../models/sampling-ranges.ts';
import { readSamplingNumbers } from './sampling-fields.ts';
import { ApiError } from '../api-error.ts';
import { imageFromUrl } from './image-input.ts';
import type { MessageImage } from '../../models/chat-message.ts';

/** The one model `/v1` serves: the assistant, with the configured model and the drop-in tools behind it. */
export const RIVERSE_MODEL_ID = 'riverse';

/** A `POST /v1/chat/completions` body, read into what a turn takes. */
export interface CompletionInput {
  messages: ChatMessage[];
  /** The client's system (and developer) messages, in order. */
  system?: string;
  tools: ClientTool[];
  stream: boolean;
  includeUsage: boolean;
  /** The sampling fields as the client sent them (before `server.v1`'s rules). */
  sampling: SamplingSettings;
  responseFormat?: ResponseFormat;
  /** Absent for `auto`. A name may be one of ours: the turn checks it against what it offers. */
  toolChoice?: ToolChoice;
}

/** OpenAI's own cap; more tools than this is a catalog no model chooses well from anyway. */
const MAX_TOOLS = 128;
/** Nesting of a client tool's parameters: deep enough for any real schema, shallow enough to compile. */
const MAX_SCHEMA_DEPTH = 32;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = (param: string, message: string) => new ApiError(400, 'invalid-request', message, param);

/**
 * Reads the body, or throws an ApiError naming the field at fault (400), or the model (404
 * model_not_found). Sampling fields are checked against OpenAI's bounds; the service's rules
 * (`server.v1`) apply after (sampling-rules.ts).
 */
export function readCompletionRequest(body: Json): CompletionInput {
  if (typeof body.model !== 'string' || body.model === '')
    throw invalid('model', '"model" must be a non-empty string: this service has one model, "riverse".');
  if (body.model !== RIVERSE_MODEL_ID) {
    throw new ApiError(
      404,
      'model_not_found',
      `The model "${body.model.slice(0, 100)}" does not exist here: this service has one model, "riverse" (GET /v1/models).`,
      'model',
    );
  }
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean')
    throw invalid('stream', '"stream" must be true or false.');
  const stream = body.stream === true;
  let includeUsage = false;
  if (body.stream_options !== undefined && body.stream_options !== null) {
    if (!stream) throw invalid('stream_options', '"stream_options" is only allowed when "stream" is true.');
    if (!isObject(body.stream_options))
      throw invalid('stream_options', '"stream_options" must be an object, e.g. {"include_usage": true}.');
    const usage = body.stream_options.include_usage;
    if (usage !== undefined && typeof usage !== 'boolean')
      throw invalid('stream_options.include_usage', '"stream_options.include_usage" must be true or false.');
    includeUsage = usage === true;
  }
  if (body.n !== undefined && body.n !== null && body.n !== 1)
    throw invalid('n', '"n" must be 1: the assistant gives one answer per turn.');
  const tools = readTools(body.tools);
  const toolChoice = readToolChoice(body.tool_choice, tools);
  const responseFormat = readResponseFormat(body.response_format);
  const sampling = readSampling(body);
  const { messages, system } = readMessages(body.messages);
  return {
    messages,
    ...(system === undefined ? {} : { system }),
    tools,
    stream,
    includeUsage,
    sampling,
    ...(responseFormat === undefined ? {} : { responseFormat }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
  };
}

const TOOL_CHOICE_FORMS = '"auto", "none", "required" or {"type": "function", "function": {"name": "..."}}';

/** `tool_choice`; a named tool not among the request's may be one of ours (the turn says when it is not). */
function readToolChoice(value: unknown, tools: readonly ClientTool[]): ToolChoice | undefined {
  if (value === undefined || value === null || value === 'auto') return undefined;
  if (value === 'none' || value === 'required') return value;
  if (isObject(value) && value.type === 'function') {
    // Chat Completions nests the name; the Responses API's form has it at the top.
    const name = isObject(value.function) ? value.function.name : value.name;
    if (typeof name === 'string' && TOOL_NAME.test(name)) return { name };
    throw invalid(
      'tool_choice.function.name',
      '"tool_choice.function.name" must name a tool: 1 to 64 letters, digits, "_" or "-".',
    );
  }
  const hint =
    tools.length === 0
      ? ''
      : ` (the request's tools: ${tools
          .map((tool) => tool.name)
          .join(', ')
          .slice(0, 200)})`;
  throw invalid('tool_choice', `"tool_choice" must be ${TOOL_CHOICE_FORMS}${hint}.`);
}

/** `response_format`: `text` (the default) is no format; a schema must compile, or the request is refused here. */
function readResponseFormat(value: unknown): ResponseFormat | undefined {
  if (value === undefined || value === null) return undefined;
  const forms =
    '{"type": "text"}, {"type": "json_object"} or {"type": "json_schema", "json_schema": {"name", "schema", "strict"}}';
  if (!isObject(value)) throw invalid('response_format', `"response_format" must be ${forms}.`);
  if (value.type === 'text') return undefined;
  if (value.type === 'json_object') return { type: 'json_object' };
  if (value.type !== 'json_schema') throw invalid('response_format.type', `"response_format" must be ${forms}.`);
  const spec = value.json_schema;
  if (!isObject(spec))
    throw invalid('response_format.json_schema', '"response_format.json_schema" must be {"name", "schema", "strict"}.');
  const { name, schema, strict, description } = spec;
  if (typeof name !== 'string' || !TOOL_NAME.test(name))
    throw invalid(
      'response_format.json_schema.name',
      '"response_format.json_schema.name" must be 1 to 64 letters, digits, "_" or "-".',
    );
  if (schema !== undefined && !isObject(schema))
    throw invalid(
      'response_format.json_schema.schema',
      '"response_format.json_schema.schema" must be a JSON Schema object.',
    );
  if (strict !== undefined && strict !== null && typeof strict !== 'boolean')
    throw invalid('response_format.json_schema.strict', '"response_format.json_schema.strict" must be true or false.');
  if (description !== undefined && description !== null && typeof description !== 'string')
    throw invalid(
      'response_format.json_schema.description',
      '"response_format.json_schema.description" must be a string.',
    );
  if (schema !== undefined && depth(schema, MAX_SCHEMA_DEPTH + 1) > MAX_SCHEMA_DEPTH)
    throw invalid(
      'response_format.json_schema.schema',
      `"response_format.json_schema.schema" is nested more than ${MAX_SCHEMA_DEPTH} levels deep.`,
    );
  const format: ResponseFormat = {
    type: 'json_schema',
    name,
    // OpenAI's default when no schema is given: any JSON object.
    schema: schema ?? { type: 'object' },
    ...(typeof strict === 'boolean' ? { strict } : {}),
    ...(typeof description === 'string' ? { description } : {}),
  };
  try {
    answerChecker(format);
  } catch (error) {
    throw invalid(
      'response_format.json_schema.schema',
      `"response_format.json_schema.schema" is not a JSON Schema the answer can be checked against: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return format;
}

/** The sampling fields, each within OpenAI's bounds; `max_completion_tokens` wins over the older `max_tokens`. */
function readSampling(body: Json): SamplingSettings {
  const sampling = readSamplingNumbers(body, [
    ['temperature', 'temperature'],
    ['top_p', 'top_p'],
    ['max_tokens', 'max_tokens'],
    ['max_tokens', 'max_completion_tokens'],
    ['seed', 'seed'],
    ['presence_penalty', 'presence_penalty'],
    ['frequency_penalty', 'frequency_penalty'],
  ]);
  const stop = body.stop;
  if (stop !== undefined && stop !== null) {
    const list = typeof stop === 'string' ? [stop] : stop;
    if (!Array.isArray(list) || !list.every((item) => typeof item === 'string'))
      throw invalid('stop', '"stop" must be a string or an array of strings.');
    if (list.length > MAX_STOP_SEQUENCES)
      throw invalid('stop', `"stop" has ${list.length} sequences; at most ${MAX_STOP_SEQUENCES} are taken.`);
    const given = list.filter((item) => item !== '');
    if (given.length > 0) sampling.stop = given;
  }
  return sampling;
}

function readTools(value: unknown): ClientTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw invalid('tools', '"tools" must be an array of {"type": "function", "function": {...}}.');
  if (value.length > MAX_TOOLS)
    throw invalid('tools', `"tools" has ${value.length} tools; at most ${MAX_TOOLS} are taken.`);
  const seen = new Set<string>();
  return value.map((tool, index): ClientTool => {
    const at = `tools[${index}]`;
    if (!isObject(tool) || tool.type !== 'function' || !isObject(tool.function))
      throw invalid(at, `${at} must be {"type": "function", "function": {"name", "description", "parameters"}}.`);
    const { name, description, parameters } = tool.function;
    if (typeof name !== 'string' || !TOOL_NAME.test(name))
      throw invalid(`${at}.function.name`, `${at}.function.name must be 1 to 64 letters, digits, "_" or "-".`);
    if (seen.has(name)) throw invalid(`${at}.function.name`, `${at}.function.name: two tools are named "${name}".`);
    seen.add(name);
    if (description !== undefined && typeof description !== 'string')
      throw invalid(`${at}.function.description`, `${at}.function.description must be a string.`);
    if (parameters !== undefined && !isObject(parameters))
      throw invalid(`${at}.function.parameters`, `${at}.function.parameters must be a JSON Schema object.`);
    if (parameters !== undefined && depth(parameters, MAX_SCHEMA_DEPTH + 1) > MAX_SCHEMA_DEPTH) {
      throw invalid(
        `${at}.function.parameters`,
        `${at}.function.parameters is nested more than ${MAX_SCHEMA_DEPTH} levels deep.`,
      );
    }
    return {
      name,
      ...(description === undefined ? {} : { description }),
      ...(parameters === undefined ? {} : { parameters }),
    };
  });
}

/** How deep `value` nests, counted no further than `limit`. */
function depth(value: unknown, limit: number): number {
  if (limit <= 0 || typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depth(child, limit - 1));
  return deepest + 1;
}

/**
 * The conversation, as a turn takes it: system messages set apart, text parts joined, each tool
 * result named after its call. It must be whole: every call answered right after its message,
 * no result without its call, and it ends with the user's message or with results.
 */
function readMessages(value: unknown): { messages: ChatMessage[]; system?: string } {
  if (!Array.isArray(value) || value.length === 0)
    throw invalid('messages', '"messages" must be a non-empty array of {"role", "content"}.');
  const messages: ChatMessage[] = [];
  const system: string[] = [];
  /** Calls of the last assistant message still waiting for their result. */
  let open = new Map<string, ToolCallRequest>();
  let openAt = -1;
  const closeOpen = (index: number) => {
    if (open.size === 0) return;
    throw invalid(
      `messages[${openAt}].tool_calls`,
      `messages[${openAt}] calls tools, and ${[...open.keys()].join(', ')} got no result: each call needs a "tool" message with its tool_call_id right after it (before messages[${index}]).`,
    );
  };
  value.forEach((message: unknown, index) => {
    const at = `messages[${index}]`;
    if (!isObject(message)) throw invalid(at, `${at} must be an object with "role" and "content".`);
    const role = message.role;
    if (role !== 'tool') closeOpen(index);
    switch (role) {
      case 'system':
      case 'developer':
        system.push(readText(message.content, `${at}.content`, false));
        break;
      case 'user':
        messages.push(readUserMessage(message.content, `${at}.content`));
        break;
      case 'assistant': {
        const content = readText(message.content, `${at}.content`, true);
        const calls = readToolCalls(message.tool_calls, `${at}.tool_calls`);
        messages.push(
          calls.length === 0 ? { role: 'assistant', content } : { role: 'assistant', content, toolCalls: calls },
        );
        open = new Map(calls.map((call) => [call.id, call]));
        openAt = index;
        break;
      }
      case 'tool': {
        const id = message.tool_call_id;
        if (typeof id !== 'string' || id === '')
          throw invalid(`${at}.tool_call_id`, `${at}.tool_call_id must be the id of the call it answers.`);
        const call = open.get(id);
        if (call === undefined)
          throw invalid(
            `${at}.tool_call_id`,
            `${at} answers "${id.slice(0, 100)}", which is not a call of the assistant message before it (or was answered already).`,
          );
        open.delete(id);
        messages.push({
          role: 'tool',
          toolCallId: id,
          name: call.name,
          content: readText(message.content, `${at}.content`, false),
        });
        break;
      }
      default:
        throw invalid(
          `${at}.role`,
          `${at}.role must be "system", "developer", "user", "assistant" or "tool"${role === 'function' ? ' ("function" messages are the old form of "tool")' : ''}.`,
        );
    }
  });
  closeOpen(value.length);
  const last = messages.at(-1);
  if (last === undefined || last.role === 'assistant') {
    throw invalid(
      'messages',
      'The last message must be the user\'s, or the results of the assistant\'s tool calls ("tool" messages): that is what the assistant answers.',
    );
  }
  return system.length === 0 ? { messages } : { messages, system: system.join('\n\n') };
}

/**
 * A user message's content: a string, or parts — text (joined, as readText does) and pictures
 * (`image_url`, as Open WebUI and LibreChat send an attached picture): a `data:` URL becomes the
 * image's base64 text, kept as it came (decoded by no one on its way to the model); an http(s)
 * link is kept for the model's API to fetch, or the route to (fetch-image-links.ts).
 */
function readUserMessage(value: unknown, at: string): ChatMessage {
  if (!Array.isArray(value)) return { role: 'user', content: readText(value, at, false) };
  const texts: string[] = [];
  const images: MessageImage[] = [];
  value.forEach((part: unknown, index) => {
    const here = `${at}[${index}]`;
    if (isObject(part) && part.type === 'image_url') images.push(readImagePart(part, here));
    else if (isObject(part) && part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (isObject(part) && part.type === 'refusal' && typeof part.refusal === 'string') texts.push(part.refusal);
    else {
      const type = isObject(part) && typeof part.type === 'string' ? ` (${part.type.slice(0, 40)})` : '';
      throw invalid(
        here,
        `${here}${type}: a user message takes text parts, {"type": "text", "text": "..."}, and pictures, {"type": "image_url", "image_url": {"url": "..."}}.`,
      );
    }
  });
  const content = texts.join('\n');
  return images.length === 0 ? { role: 'user', content } : { role: 'user', content, images };
}

/** Where a body's first picture is (`messages[2].content[1]`), once readCompletionRequest took it; none without one. */
export function firstImageAt(body: Json): string | undefined {
  for (const [index, message] of (body.messages as unknown[]).entries()) {
    const content = (message as Json).content;
    if ((message as Json).role !== 'user' || !Array.isArray(content)) continue;
    const part = content.findIndex((item) => isObject(item) && item.type === 'image_url');
    if (part !== -1) return `messages[${index}].content[${part}]`;
  }
  return undefined;
}

function readImagePart(part: Json, at: string): MessageImage {
  const shape = `${at} must be {"type": "image_url", "image_url": {"url": "data:image/png;base64,…" or "https://…", "detail"?}}.`;
  const field = isObject(part.image_url) ? part.image_url : { url: part.image_url };
  const { url, detail } = field;
  if (typeof url !== 'string' || url === '') throw invalid(`${at}.image_url.url`, shape);
  if (detail !== undefined && detail !== null && detail !== 'auto' && detail !== 'low' && detail !== 'high')
    throw invalid(`${at}.image_url.detail`, `${at}.image_url.detail must be "auto", "low" or "high".`);
  return imageFromUrl(url, typeof detail === 'string' ? detail : undefined, `${at}.image_url.url`, shape);
}

/** A content field: a string, or text parts (joined). Other parts (audio, files) are refused: only a user's pictures are taken besides text. */
function readText(value: unknown, at: string, nullable: boolean): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) {
    if (nullable) return '';
    throw invalid(at, `${at} must be a string or an array of text parts.`);
  }
  if (!Array.isArray(value)) throw invalid(at, `${at} must be a string or an array of text parts.`);
  return value
    .map((part: unknown, index) => {
      if (isObject(part) && (part.type === 'text' || part.type === 'refusal')) {
        const text = part.type === 'text' ? part.text : part.refusal;
        if (typeof text === 'string') return text;
      }
      const type = isObject(part) && typeof part.type === 'string' ? ` (${part.type.slice(0, 40)})` : '';
      throw invalid(
        `${at}[${index}]`,
        `${at}[${index}]${type}: only text parts, {"type": "text", "text": "..."}, are taken.`,
      );
    })
    .join('\n');
}

function readToolCalls(value: unknown, at: string): ToolCallRequest[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw invalid(at, `${at} must be an array of {"id", "type": "function", "function": {"name", "arguments"}}.`);
  const ids = new Set<string>();
  return value.map((call: unknown, index): ToolCallRequest => {
    const here = `${at}[${index}]`;
    if (!isObject(call) || !isObject(call.function) || (call.type !== undefined && call.type !== 'function'))
      throw invalid(here, `${here} must be {"id", "type": "function", "function": {"name", "arguments"}}.`);
    const { id } = call;
    const { name, arguments: args } = call.function;
    if (typeof id !== 'string' || id === '') throw invalid(`${here}.id`, `${here}.id must be a non-empty string.`);
    if (ids.has(id)) throw invalid(`${here}.id`, `${here}.id: two calls have the id "${id.slice(0, 100)}".`);
    ids.add(id);
    if (typeof name !== 'string' || name === '')
      throw invalid(`${here}.function.name`, `${here}.function.name must be a non-empty string.`);
    if (typeof args !== 'string')
      throw invalid(`${here}.function.arguments`, `${here}.function.arguments must be a string (JSON text).`);
    // Broken arguments in history would reach the model as a call it never made (and some APIs refuse them).
    if (args.trim() !== '' && !isJsonObjectText(args)) {
      throw invalid(
        `${here}.function.arguments`,
        `${here}.function.arguments must be a JSON object as text, e.g. "{\\"city\\": \\"Paris\\"}"; it is ${JSON.stringify(args.slice(0, 60))}${args.length > 60 ? '…' : ''}.`,
      );
    }
    return { id, name, arguments: args };
  });
}

function isJsonObjectText(text: string): boolean {
  try {
    return isObject(JSON.parse(text));
  } catch {
    return false;
  }
}
