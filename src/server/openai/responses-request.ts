import type { ClientTool } from '../../assistant/client-tools.ts';
import type { MessageImage, ToolCallRequest } from '../../models/chat-message.ts';
import type { ResponseFormat, SamplingSettings, ToolChoice } from '../../models/chat-model.ts';
import { readSamplingNumbers } from './sampling-fields.ts';
import { ApiError } from '../api-error.ts';
import { imageFromUrl } from './image-input.ts';
import { RIVERSE_MODEL_ID } from './read-completion-request.ts';

/*
 * A `POST /v1/responses` body, read into what a turn takes. The item list stays a list of items
 * here (responses-items.ts joins it to a stored chain); every field at fault is named in a 400.
 */

/** One input item, read: a message's text, a call the model made, or the result of a call. */
export type InputItem =
  | {
      kind: 'message';
      role: 'user' | 'assistant';
      text: string;
      at: string;
      /** A user's pictures (`input_image`), and where the first is (`input[0].content[1]`), for a 400. */
      images?: MessageImage[];
      imageAt?: string;
    }
  | { kind: 'call'; call: ToolCallRequest; at: string }
  | { kind: 'output'; callId: string; text: string; at: string }
  /** An `item_reference`: an item of a kept response, by its id (responses-items.ts resolves it). */
  | { kind: 'reference'; id: string; at: string };

export interface ResponsesInput {
  items: InputItem[];
  /** Where the input's first picture is (`input[0].content[1]`); none without one. */
  firstImage?: string;
  /** `instructions`, then the input's system and developer messages, in order. */
  system?: string;
  instructions: string | null;
  tools: ClientTool[];
  /** The function tools as the request wrote them, echoed in the response's `tools`. */
  toolsEcho: object[];
  stream: boolean;
  previousResponseId?: string;
  /** `store` (default true): keep the response for `previous_response_id` and `GET`. */
  store: boolean;
  metadata: Record<string, string>;
  responseFormat?: ResponseFormat;
  toolChoice?: ToolChoice;
  sampling?: SamplingSettings;
}

/** OpenAI's caps: 128 tools, 16 metadata keys of 64 characters with values of 512. */
const MAX_TOOLS = 128;
const MAX_METADATA = 16;
const MAX_ITEMS = 10_000;
const MAX_SCHEMA_DEPTH = 32;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = (param: string, message: string) => new ApiError(400, 'invalid-request', message, param);
const given = (value: unknown) => value !== undefined && value !== null;

/** Features of OpenAI's that a turn here has no counterpart for: refused, never ignored. */
const UNSUPPORTED: Record<string, string> = {
  background: 'background responses are not kept running here; leave "background" out or false',
  conversation: 'conversations are not kept here; continue with "previous_response_id" instead',
  prompt: 'stored prompts are OpenAI\'s; send "instructions" and "input" instead',
  max_tool_calls: 'the assistant decides how many calls a turn makes (assistant.max_rounds in riverse.yaml)',
  top_logprobs: 'log probabilities are not available from the assistant',
};

/**
 * Reads the body, or throws an ApiError naming the field at fault (400), or the model (404
 * model_not_found). Fields that only tune OpenAI's own service (`include`, `truncation`,
 * `parallel_tool_calls`, `reasoning`, `service_tier`, `user`, prompt caching, …) are accepted and
 * have no effect: the configured model's settings decide.
 */
export function readResponsesRequest(body: Json): ResponsesInput {
  if (typeof body.model !== 'string' || body.model === '')
    throw invalid('model', '"model" must be a non-empty string: this service has one model, "riverse".');
  if (body.model !== RIVERSE_MODEL_ID)
    throw new ApiError(
      404,
      'model_not_found',
      `The model "${body.model.slice(0, 100)}" does not exist here: this service has one model, "riverse" (GET /v1/models).`,
      'model',
    );
  for (const [field, why] of Object.entries(UNSUPPORTED)) {
    const value = body[field];
    if (given(value) && value !== false && !(field === 'top_logprobs' && value === 0))
      throw invalid(field, `"${field}" is not supported: ${why}.`);
  }
  const stream = readBoolean(body, 'stream', false);
  const store = readBoolean(body, 'store', true);
  if (given(body.stream_options) && !stream)
    throw invalid('stream_options', '"stream_options" is only allowed when "stream" is true.');
  let previousResponseId: string | undefined;
  if (given(body.previous_response_id)) {
    if (typeof body.previous_response_id !== 'string' || body.previous_response_id === '')
      throw invalid('previous_response_id', '"previous_response_id" must be the id of an earlier response ("resp_…").');
    previousResponseId = body.previous_response_id;
  }
  let instructions: string | null = null;
  if (given(body.instructions)) {
    if (typeof body.instructions !== 'string')
      throw invalid('instructions', '"instructions" must be a string (the system message).');
    instructions = body.instructions;
  }
  const { items, system } = readInput(body.input);
  const allSystem = [...(instructions === null || instructions === '' ? [] : [instructions]), ...system];
  const { tools, echo } = readTools(body.tools);
  const firstImage = items.find((item) => item.kind === 'message' && item.imageAt !== undefined);
  const input: ResponsesInput = {
    items,
    ...(firstImage?.kind === 'message' && firstImage.imageAt !== undefined ? { firstImage: firstImage.imageAt } : {}),
    ...(allSystem.length === 0 ? {} : { system: allSystem.join('\n\n') }),
    instructions,
    tools,
    toolsEcho: echo,
    stream,
    ...(previousResponseId === undefined ? {} : { previousResponseId }),
    store,
    metadata: readMetadata(body.metadata),
  };
  const format = readTextFormat(body.text);
  if (format !== undefined) input.responseFormat = format;
  const choice = readToolChoice(body.tool_choice);
  if (choice !== undefined) input.toolChoice = choice;
  const sampling = readSampling(body);
  if (sampling !== undefined) input.sampling = sampling;
  return input;
}

function readBoolean(body: Json, field: string, fallback: boolean): boolean {
  const value = body[field];
  if (!given(value)) return fallback;
  if (typeof value !== 'boolean') throw invalid(field, `"${field}" must be true or false.`);
  return value;
}

function readMetadata(value: unknown): Record<string, string> {
  if (!given(value)) return {};
  if (!isObject(value)) throw invalid('metadata', '"metadata" must be an object of strings.');
  const entries = Object.entries(value);
  if (entries.length > MAX_METADATA) throw invalid('metadata', `"metadata" has at most ${MAX_METADATA} keys.`);
  for (const [key, text] of entries) {
    if (key.length > 64) throw invalid('metadata', '"metadata" keys are at most 64 characters.');
    if (typeof text !== 'string' || text.length > 512)
      throw invalid(
        `metadata.${key.slice(0, 64)}`,
        `"metadata.${key.slice(0, 64)}" must be a string of at most 512 characters.`,
      );
  }
  return value as Record<string, string>;
}

/** `text.format`: plain text, or the structured output that `responseFormat` carries. */
function readTextFormat(value: unknown): ResponseFormat | undefined {
  if (!given(value)) return undefined;
  if (!isObject(value)) throw invalid('text', '"text" must be an object, e.g. {"format": {"type": "text"}}.');
  const format = value.format;
  if (!given(format)) return undefined;
  if (!isObject(format)) throw invalid('text.format', '"text.format" must be an object with a "type".');
  if (format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type === 'json_schema') {
    if (typeof format.name !== 'string' || !TOOL_NAME.test(format.name))
      throw invalid('text.format.name', '"text.format.name" must be 1 to 64 letters, digits, "_" or "-".');
    if (!isObject(format.schema))
      throw invalid('text.format.schema', '"text.format.schema" must be a JSON Schema object.');
    if (given(format.strict) && typeof format.strict !== 'boolean')
      throw invalid('text.format.strict', '"text.format.strict" must be true or false.');
    return {
      type: 'json_schema',
      name: format.name,
      schema: format.schema,
      ...(typeof format.strict === 'boolean' ? { strict: format.strict } : {}),
    };
  }
  throw invalid('text.format.type', '"text.format.type" must be "text", "json_object" or "json_schema".');
}

function readToolChoice(value: unknown): ToolChoice | undefined {
  if (!given(value)) return undefined;
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (isObject(value) && value.type === 'function' && typeof value.name === 'string' && value.name !== '')
    return { name: value.name };
  throw invalid(
    'tool_choice',
    '"tool_choice" must be "auto", "none", "required" or {"type": "function", "name": "..."} (a function tool of the request or one of ours).',
  );
}

function readSampling(body: Json): SamplingSettings | undefined {
  const sampling = readSamplingNumbers(body, [
    ['temperature', 'temperature'],
    ['top_p', 'top_p'],
    ['max_tokens', 'max_output_tokens'],
  ]);
  return Object.keys(sampling).length === 0 ? undefined : sampling;
}

function readTools(value: unknown): { tools: ClientTool[]; echo: object[] } {
  if (!given(value)) return { tools: [], echo: [] };
  if (!Array.isArray(value))
    throw invalid('tools', '"tools" must be an array of {"type": "function", "name", "description", "parameters"}.');
  if (value.length > MAX_TOOLS)
    throw invalid('tools', `"tools" has ${value.length} tools; at most ${MAX_TOOLS} are taken.`);
  const seen = new Set<string>();
  const tools: ClientTool[] = [];
  const echo: object[] = [];
  value.forEach((tool: unknown, index) => {
    const at = `tools[${index}]`;
    if (!isObject(tool) || tool.type !== 'function') {
      const type = isObject(tool) && typeof tool.type === 'string' ? ` ("${tool.type.slice(0, 40)}")` : '';
      throw invalid(
        at,
        `${at}${type}: only function tools, {"type": "function", "name", "parameters"}, are taken; the assistant's own tools stand in for OpenAI's hosted ones.`,
      );
    }
    const { name, description, parameters, strict } = tool;
    if (typeof name !== 'string' || !TOOL_NAME.test(name))
      throw invalid(`${at}.name`, `${at}.name must be 1 to 64 letters, digits, "_" or "-".`);
    if (seen.has(name)) throw invalid(`${at}.name`, `${at}.name: two tools are named "${name}".`);
    seen.add(name);
    if (given(description) && typeof description !== 'string')
      throw invalid(`${at}.description`, `${at}.description must be a string.`);
    if (given(parameters) && !isObject(parameters))
      throw invalid(`${at}.parameters`, `${at}.parameters must be a JSON Schema object.`);
    if (isObject(parameters) && depth(parameters, MAX_SCHEMA_DEPTH + 1) > MAX_SCHEMA_DEPTH)
      throw invalid(`${at}.parameters`, `${at}.parameters is nested more than ${MAX_SCHEMA_DEPTH} levels deep.`);
    tools.push({
      name,
      ...(typeof description === 'string' ? { description } : {}),
      ...(isObject(parameters) ? { parameters } : {}),
    });
    echo.push({
      type: 'function',
      name,
      description: typeof description === 'string' ? description : null,
      parameters: isObject(parameters) ? parameters : null,
      strict: typeof strict === 'boolean' ? strict : true,
    });
  });
  return { tools, echo };
}

function depth(value: unknown, limit: number): number {
  if (limit <= 0 || typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depth(child, limit - 1));
  return deepest + 1;
}

/** `input`: a string (the user's message) or a list of items; system and developer messages set apart. */
function readInput(value: unknown): { items: InputItem[]; system: string[] } {
  if (typeof value === 'string')
    return { items: [{ kind: 'message', role: 'user', text: value, at: 'input' }], system: [] };
  if (!Array.isArray(value) || value.length === 0)
    throw invalid(
      'input',
      '"input" must be a string or a non-empty array of items (messages, function_call_output, …).',
    );
  if (value.length > MAX_ITEMS)
    throw invalid('input', `"input" has ${value.length} items; at most ${MAX_ITEMS} are taken.`);
  const items: InputItem[] = [];
  const system: string[] = [];
  value.forEach((item: unknown, index) => {
    const at = `input[${index}]`;
    if (!isObject(item)) throw invalid(at, `${at} must be an object: a message or another item with a "type".`);
    const type = item.type ?? 'message';
    switch (type) {
      case 'message': {
        const role = item.role;
        if (role === 'system' || role === 'developer') system.push(readContent(item.content, `${at}.content`, 'input'));
        else if (role === 'user')
          items.push({ kind: 'message', role, ...readUserContent(item.content, `${at}.content`), at });
        else if (role === 'assistant')
          items.push({ kind: 'message', role, text: readContent(item.content, `${at}.content`, 'output'), at });
        else throw invalid(`${at}.role`, `${at}.role must be "user", "assistant", "system" or "developer".`);
        break;
      }
      case 'function_call': {
        const { call_id: id, name, arguments: args } = item;
        if (typeof id !== 'string' || id === '')
          throw invalid(`${at}.call_id`, `${at}.call_id must be a non-empty string.`);
        if (typeof name !== 'string' || name === '')
          throw invalid(`${at}.name`, `${at}.name must be a non-empty string.`);
        if (typeof args !== 'string') throw invalid(`${at}.arguments`, `${at}.arguments must be a string (JSON text).`);
        try {
          JSON.parse(args);
        } catch {
          throw invalid(`${at}.arguments`, `${at}.arguments is not JSON: send the arguments the call was made with.`);
        }
        items.push({ kind: 'call', call: { id, name, arguments: args }, at });
        break;
      }
      case 'function_call_output': {
        const id = item.call_id;
        if (typeof id !== 'string' || id === '')
          throw invalid(`${at}.call_id`, `${at}.call_id must be the call_id of the function_call it answers.`);
        const output =
          typeof item.output === 'string' ? item.output : readContent(item.output, `${at}.output`, 'input');
        items.push({ kind: 'output', callId: id, text: output, at });
        break;
      }
      // The model's reasoning is not shown here, so an item of it carries nothing this turn can use.
      case 'reasoning':
        break;
      case 'item_reference': {
        if (typeof item.id !== 'string' || item.id === '')
          throw invalid(`${at}.id`, `${at}.id must be the id of an item of a stored response ("msg_…", "fc_…").`);
        items.push({ kind: 'reference', id: item.id, at });
        break;
      }
      default:
        throw invalid(
          `${at}.type`,
          `${at}.type "${String(type).slice(0, 40)}" is not taken: items are messages, "function_call" and "function_call_output".`,
        );
    }
  });
  return { items, system };
}

/**
 * A message's content: a string, or parts — `input_text` in what the user (or system) says,
 * `output_text` and `refusal` in what the assistant said — joined.
 */
function readContent(value: unknown, at: string, side: 'input' | 'output'): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw invalid(at, `${at} must be a string or an array of text parts.`);
  return value.map((part: unknown, index) => readTextPart(part, `${at}[${index}]`, side)).join('\n');
}

/** One text part of a message's content, at `here`. */
function readTextPart(part: unknown, here: string, side: 'input' | 'output' | 'user'): string {
  const type = isObject(part) ? part.type : undefined;
  if (isObject(part) && (type === 'input_text' || type === 'output_text') && typeof part.text === 'string')
    return part.text;
  if (isObject(part) && type === 'refusal' && typeof part.refusal === 'string') return part.refusal;
  if (type === 'input_image')
    throw invalid(here, `${here} (input_image): only a user message takes pictures; send the text alone here.`);
  const expected =
    side === 'output' ? '{"type": "output_text", "text": "..."}' : '{"type": "input_text", "text": "..."}';
  const named = typeof type === 'string' ? ` (${type.slice(0, 40)})` : '';
  if (side === 'user')
    throw invalid(
      here,
      `${here}${named}: a user message takes text parts, ${expected}, and pictures, {"type": "input_image", "image_url": "..."}.`,
    );
  throw invalid(here, `${here}${named}: only text parts, ${expected}, are taken.`);
}

/**
 * A user message's content: a string, or `input_text` parts (joined) and `input_image` parts, whose
 * `image_url` is a data: URL or an http(s) link, as chat completions' `image_url` parts are read.
 */
function readUserContent(value: unknown, at: string): { text: string; images?: MessageImage[]; imageAt?: string } {
  if (!Array.isArray(value)) return { text: readContent(value, at, 'input') };
  const texts: string[] = [];
  const images: MessageImage[] = [];
  let imageAt: string | undefined;
  value.forEach((part: unknown, index) => {
    const here = `${at}[${index}]`;
    if (isObject(part) && part.type === 'input_image') {
      images.push(readInputImage(part, here));
      imageAt ??= here;
    } else texts.push(readTextPart(part, here, 'user'));
  });
  const text = texts.join('\n');
  return imageAt === undefined ? { text } : { text, images, imageAt };
}

const DETAILS = ['auto', 'low', 'high', 'original'];

function readInputImage(part: Record<string, unknown>, at: string): MessageImage {
  const shape = `${at} must be {"type": "input_image", "image_url": "data:image/png;base64,…" or "https://…", "detail"?}.`;
  const { image_url: url, detail, file_id: file } = part;
  if (given(file))
    throw invalid(
      `${at}.file_id`,
      `${at}.file_id: files are not kept here; send the picture as "image_url" (a data: URL or an https link).`,
    );
  if (typeof url !== 'string' || url === '') throw invalid(`${at}.image_url`, shape);
  if (given(detail) && !DETAILS.includes(detail as string))
    throw invalid(`${at}.detail`, `${at}.detail must be "auto", "low", "high" or "original".`);
  // "original" is the Responses API's own; the models' APIs here take auto, low and high.
  const kept = typeof detail === 'string' && detail !== 'original' ? detail : undefined;
  return imageFromUrl(url, kept, `${at}.image_url`, shape);
}
