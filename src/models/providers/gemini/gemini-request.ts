import { hasProperties, type SchemaNode } from '../../../schema/schema-node.ts';
import type { ChatMessage, ToolCallRequest } from '../../chat-message.ts';
import type { ModelRequest, ToolChoice } from '../../chat-model.ts';
import type { GeminiCallMemory } from './gemini-call-memory.ts';
import type { MessageImage } from '../../chat-message.ts';
import type { ImagePart } from '../../../tools/content-part.ts';
import type {
  GeminiBlob,
  GeminiContent,
  GeminiFunctionCall,
  GeminiFunctionDeclaration,
  GeminiFunctionResponse,
  GeminiPart,
} from './gemini-wire-types.ts';
import { jsonText } from '../../json-text.ts';
import { base64Of, mediaType } from '../../message-images.ts';
import { toolsWire, type ToolsWire } from '../../tools-wire.ts';

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

/**
 * The signature Google documents for a function call the model did not just make (history from
 * before a restart, or from another model): without any, Gemini 3 rejects the request.
 */
export const FOREIGN_SIGNATURE = 'skip_thought_signature_validator';

/**
 * Tools as Gemini takes them: one `functionDeclarations` list, parameters in the gemini dialect. A
 * tool without parameters declares none (Gemini rejects an object without properties).
 */
export const GEMINI_TOOLS: ToolsWire = toolsWire(
  'gemini',
  ({ name, description, parameters }) => {
    const schema = parameters as SchemaNode;
    const declaration: GeminiFunctionDeclaration = hasProperties(schema)
      ? { name, description, parameters: schema }
      : { name, description };
    return JSON.stringify(declaration);
  },
  'json',
  (declarations) => `[{"functionDeclarations":[${declarations.join(',')}]}]`,
);

/**
 * Where a tool result's pictures go: inside its functionResponse (`parts` of inlineData), which
 * Google documents for Gemini 3 models, or, for the others, as inlineData parts of the same turn
 * after the responses.
 */
export type ResultImages = 'in-response' | 'after-responses';

/**
 * Gemini 3 and later, by the version in the name, take pictures inside a function response; any
 * other name (an alias, a tuned model) gets them after the responses, which every version reads.
 */
export function resultImagesFor(model: string): ResultImages {
  const version = /gemini-(\d+)/.exec(model)?.[1];
  return version !== undefined && Number(version) >= 3 ? 'in-response' : 'after-responses';
}

/** The whole body of a generateContent or streamGenerateContent request. */
export function requestBody(
  request: ModelRequest,
  memory: GeminiCallMemory,
  resultImages: ResultImages = 'after-responses',
): string {
  let body = `{"contents":${jsonText(geminiContents(request.messages, memory, resultImages))}`;
  const system = request.system;
  if (system !== undefined && system !== '')
    body += `,"systemInstruction":${JSON.stringify({ parts: [{ text: system }] })}`;
  const tools = request.tools;
  const withTools = tools !== undefined && tools.length > 0;
  if (withTools) {
    body += `,"tools":${GEMINI_TOOLS.toolsText(tools)}`;
    if (request.toolChoice !== undefined) body += `,"toolConfig":${JSON.stringify(toolConfig(request.toolChoice))}`;
  }
  const config = generationConfig(request, withTools);
  if (config !== undefined) body += `,"generationConfig":${JSON.stringify(config)}`;
  return `${body}}`;
}

/** `tool_choice` as Gemini's function calling modes: ANY (with one name allowed, for a named tool), NONE, AUTO. */
function toolConfig(choice: ToolChoice): { functionCallingConfig: Record<string, unknown> } {
  if (typeof choice !== 'string')
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
  return { functionCallingConfig: { mode: choice === 'required' ? 'ANY' : choice.toUpperCase() } };
}

/**
 * The sampling fields in Gemini's names, and JSON mode (with the schema, `responseJsonSchema`).
 * JSON mode goes only into a request without tools: models before Gemini 3 refuse it beside
 * function calling; with tools the format is asked for in the system prompt, and checked by the turn.
 */
function generationConfig(request: ModelRequest, withTools: boolean): Record<string, unknown> | undefined {
  const config: Record<string, unknown> = {};
  const sampling = request.sampling;
  if (sampling !== undefined) {
    const fields: Record<string, unknown> = {
      temperature: sampling.temperature,
      topP: sampling.topP,
      maxOutputTokens: sampling.maxTokens,
      stopSequences: sampling.stop,
      seed: sampling.seed,
      presencePenalty: sampling.presencePenalty,
      frequencyPenalty: sampling.frequencyPenalty,
    };
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) config[key] = value;
  }
  const format = request.responseFormat;
  if (format !== undefined && !withTools) {
    config.responseMimeType = 'application/json';
    if (format.type === 'json_schema') {
      const { $schema: _draft, ...schema } = format.schema;
      config.responseJsonSchema = schema;
    }
  }
  return Object.keys(config).length === 0 ? undefined : config;
}

/**
 * ChatMessage[] as Gemini turns: assistant → `model` with functionCall parts; the results of one
 * round → a single `user` turn of functionResponse parts in the order of the calls (Gemini pairs
 * them by position and name, as its calls carry no ids). Empty texts are left out: Gemini
 * rejects empty parts.
 */
function geminiContents(
  messages: readonly ChatMessage[],
  memory: GeminiCallMemory,
  resultImages: ResultImages,
): GeminiContent[] {
  const out: GeminiContent[] = [];
  let calls: readonly ToolCallRequest[] = [];
  let results: ToolMessage[] = [];
  const flush = () => {
    if (results.length === 0) return;
    out.push({ role: 'user', parts: responseParts(results, calls, memory, resultImages) });
    results = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      results.push(message);
      continue;
    }
    flush();
    if (message.role === 'user') {
      calls = [];
      const parts: GeminiPart[] = message.content === '' ? [] : [{ text: message.content }];
      for (const image of message.images ?? []) parts.push(imagePart(image));
      if (parts.length > 0) out.push({ role: 'user', parts });
      continue;
    }
    calls = message.toolCalls ?? [];
    const parts: GeminiPart[] = message.content === '' ? [] : [{ text: message.content }];
    for (let i = 0; i < calls.length; i++) parts.push(callPart(calls[i]!, i === 0, memory));
    if (parts.length > 0) out.push({ role: 'model', parts });
  }
  flush();
  return out;
}

function callPart(call: ToolCallRequest, first: boolean, memory: GeminiCallMemory): GeminiPart {
  const functionCall: GeminiFunctionCall = { name: call.name, args: argsObject(call.arguments) };
  if (memory.isServerId(call.id)) functionCall.id = call.id;
  // Gemini signs only the first call of a step; a call it did not just send us gets the stand-in.
  const signature = memory.has(call.id) ? memory.signature(call.id) : first ? FOREIGN_SIGNATURE : undefined;
  return signature === undefined ? { functionCall } : { functionCall, thoughtSignature: signature };
}

function responseParts(
  results: readonly ToolMessage[],
  calls: readonly ToolCallRequest[],
  memory: GeminiCallMemory,
  resultImages: ResultImages,
): GeminiPart[] {
  const position = (id: string) => {
    const index = calls.findIndex((call) => call.id === id);
    return index === -1 ? calls.length : index;
  };
  const ordered =
    results.length > 1 ? [...results].sort((a, b) => position(a.toolCallId) - position(b.toolCallId)) : results;
  const after: GeminiPart[] = [];
  const parts = ordered.map((result): GeminiPart => {
    const name = calls.find((call) => call.id === result.toolCallId)?.name ?? result.name;
    const functionResponse: GeminiFunctionResponse = {
      name,
      response: result.isError === true ? { error: result.content } : { content: result.content },
    };
    if (memory.isServerId(result.toolCallId)) functionResponse.id = result.toolCallId;
    const images = result.images ?? [];
    const inside =
      resultImages === 'in-response' ? images.filter((image): image is ImagePart => image.type === 'image') : [];
    if (inside.length > 0) functionResponse.parts = inside.map((image) => ({ inlineData: blob(image) }));
    if (inside.length < images.length) {
      after.push({ text: `Images returned by the tool ${name}:` });
      for (const image of images) if (image.type !== 'image' || !inside.includes(image)) after.push(imagePart(image));
    }
    return { functionResponse };
  });
  return after.length === 0 ? parts : [...parts, ...after];
}

/**
 * A picture as inline data (base64 encoded here, once). Gemini takes no web links in a request
 * (fileData is for its Files API): a link the service did not fetch is named in text.
 */
function imagePart(image: MessageImage): GeminiPart {
  return image.type === 'image-url' ? { text: `[image: ${image.url}]` } : { inlineData: blob(image) };
}

const blob = (image: ImagePart): GeminiBlob => ({ mimeType: mediaType(image), data: base64Of(image.data) });

/** Gemini takes arguments as an object; text that is not one (another model's broken JSON) is passed on as it is. */
function argsObject(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  return { arguments: text };
}
