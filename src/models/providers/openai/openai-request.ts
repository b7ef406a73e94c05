import type { ChatMessage } from '../../chat-message.ts';
import type { ModelRequest, ResponseFormat, SamplingSettings, ToolChoice } from '../../chat-model.ts';
import { toolsWire, type ToolsWire } from '../../tools-wire.ts';
import type { MessageImage } from '../../chat-message.ts';
import { dataUrl } from '../../message-images.ts';
import type { RequestBody } from '../../http-transport.ts';

/** Tools as Chat Completions takes them: functions, their parameters in the openai dialect. */
export const OPENAI_TOOLS: ToolsWire = toolsWire('openai', ({ name, description, parameters }) =>
  JSON.stringify({ type: 'function', function: { name, description, parameters } }),
);

/**
 * With `strict: true` (decision 009): the parameters in the openai-strict dialect, which OpenAI then
 * holds the model's arguments to.
 */
export const OPENAI_STRICT_TOOLS: ToolsWire = toolsWire('openai-strict', ({ name, description, parameters }) =>
  JSON.stringify({ type: 'function', function: { name, description, parameters, strict: true } }),
);

/**
 * The whole body: its text, and the tools as the wire made their bytes (once per array) spliced in
 * as a piece of their own; `modelJson` is the model name already serialized.
 */
export function requestBody(
  modelJson: string,
  request: ModelRequest,
  tools: ToolsWire = OPENAI_TOOLS,
  maxTokensField: MaxTokensField = 'max_tokens',
): RequestBody {
  const head = `{"model":${modelJson},"messages":${messagesJson(request.system, request.messages)}`;
  let tail = '';
  const withTools = request.tools !== undefined && request.tools.length > 0;
  if (withTools && request.toolChoice !== undefined) tail += `,"tool_choice":${toolChoiceJson(request.toolChoice)}`;
  if (request.responseFormat !== undefined) tail += `,"response_format":${responseFormatJson(request.responseFormat)}`;
  if (request.sampling !== undefined) tail += samplingJson(request.sampling, maxTokensField);
  tail += request.stream === true ? STREAMING : NOT_STREAMING;
  return withTools ? [`${head},"tools":`, tools.toolsBytes(request.tools!), tail] : head + tail;
}

/**
 * OpenAI's own API takes `max_completion_tokens` (its reasoning models refuse `max_tokens`); the
 * servers that copy its wire (vLLM, Ollama, llama.cpp, LM Studio) know `max_tokens` best.
 */
export type MaxTokensField = 'max_tokens' | 'max_completion_tokens';

function toolChoiceJson(choice: ToolChoice): string {
  return typeof choice === 'string'
    ? JSON.stringify(choice)
    : `{"type":"function","function":{"name":${JSON.stringify(choice.name)}}}`;
}

function responseFormatJson(format: ResponseFormat): string {
  if (format.type === 'json_object') return '{"type":"json_object"}';
  const { name, schema, strict, description } = format;
  return JSON.stringify({
    type: 'json_schema',
    json_schema: {
      name,
      ...(description === undefined ? {} : { description }),
      schema,
      ...(strict === undefined ? {} : { strict }),
    },
  });
}

/** The sampling fields in Chat Completions' names, each only when set (`,"temperature":0.2,…`). */
function samplingJson(sampling: SamplingSettings, maxTokensField: MaxTokensField): string {
  const fields: Record<string, unknown> = {
    temperature: sampling.temperature,
    top_p: sampling.topP,
    [maxTokensField]: sampling.maxTokens,
    stop: sampling.stop,
    seed: sampling.seed,
    presence_penalty: sampling.presencePenalty,
    frequency_penalty: sampling.frequencyPenalty,
  };
  let json = '';
  for (const [key, value] of Object.entries(fields))
    if (value !== undefined) json += `,"${key}":${JSON.stringify(value)}`;
  return json;
}

const STREAMING = ',"stream":true,"stream_options":{"include_usage":true}}';
const NOT_STREAMING = ',"stream":false}';

/**
 * ChatMessage[] in OpenAI's form, the system prompt first. A tool message takes text only, so the
 * pictures of a round's results follow in one user message after the round's tool messages (a
 * message between them would break the calls' pairing).
 */
function messagesJson(system: string | undefined, messages: readonly ChatMessage[]): string {
  const out: string[] = [];
  if (system !== undefined && system !== '') out.push(`{"role":"system","content":${JSON.stringify(system)}}`);
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    out.push(`{"role":"user","content":[${pending.join(',')}]}`);
    pending = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flush();
    out.push(messageJson(message));
    if (message.role === 'tool' && message.images !== undefined && message.images.length > 0) {
      pending.push(textPart(`Images returned by the tool ${message.name} (call ${message.toolCallId}):`));
      for (const image of message.images) pending.push(imagePart(image));
    }
  }
  flush();
  return `[${out.join(',')}]`;
}

const textPart = (text: string): string => `{"type":"text","text":${JSON.stringify(text)}}`;

/** An `image_url` part: the link as given, or the bytes as a data URL (base64 encoded here, once). */
function imagePart(image: MessageImage): string {
  const detail = image.detail === undefined ? '' : `,"detail":${JSON.stringify(image.detail)}`;
  const url = image.type === 'image-url' ? image.url : dataUrl(image);
  return `{"type":"image_url","image_url":{"url":${JSON.stringify(url)}${detail}}}`;
}

/** A user message: its text, and its pictures after it as parts. */
function userJson(content: string, images: readonly MessageImage[] | undefined): string {
  if (images === undefined || images.length === 0) return `{"role":"user","content":${JSON.stringify(content)}}`;
  const parts = content === '' ? [] : [textPart(content)];
  for (const image of images) parts.push(imagePart(image));
  return `{"role":"user","content":[${parts.join(',')}]}`;
}

function messageJson(message: ChatMessage): string {
  switch (message.role) {
    case 'user':
      return userJson(message.content, message.images);
    case 'tool':
      // OpenAI has no error flag on a tool result: the content has to say it.
      return `{"role":"tool","tool_call_id":${JSON.stringify(message.toolCallId)},"content":${JSON.stringify(message.content)}}`;
    case 'assistant': {
      const calls = message.toolCalls;
      if (calls === undefined || calls.length === 0)
        return `{"role":"assistant","content":${JSON.stringify(message.content)}}`;
      // With tool calls and no text, OpenAI's own replies carry `content: null`.
      let json = `{"role":"assistant","content":${message.content === '' ? 'null' : JSON.stringify(message.content)},"tool_calls":[`;
      for (let i = 0; i < calls.length; i++) {
        const call = calls[i]!;
        if (i > 0) json += ',';
        json += `{"id":${JSON.stringify(call.id)},"type":"function","function":{"name":${JSON.stringify(call.name)},"arguments":${JSON.stringify(call.arguments)}}}`;
      }
      return `${json}]}`;
    }
  }
}
