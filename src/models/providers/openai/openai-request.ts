import type { ChatMessage } from '../../chat-message.ts';
import type { ModelRequest, ResponseFormat, SamplingSettings, ToolChoice } from '../../chat-model.ts';
import { toolsWire, type ToolsWire } from '../../tools-wire.ts';

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
 * The whole body, built as a string: the tools are spliced in as the wire built them (once per
 * array); `modelJson` is the model name already serialized.
 */
export function requestBody(
  modelJson: string,
  request: ModelRequest,
  tools: ToolsWire = OPENAI_TOOLS,
  maxTokensField: MaxTokensField = 'max_tokens',
): string {
  let body = `{"model":${modelJson},"messages":${messagesJson(request.system, request.messages)}`;
  if (request.tools !== undefined && request.tools.length > 0) {
    body += `,"tools":${tools.toolsText(request.tools)}`;
    if (request.toolChoice !== undefined) body += `,"tool_choice":${toolChoiceJson(request.toolChoice)}`;
  }
  if (request.responseFormat !== undefined) body += `,"response_format":${responseFormatJson(request.responseFormat)}`;
  if (request.sampling !== undefined) body += samplingJson(request.sampling, maxTokensField);
  body += request.stream === true ? STREAMING : NOT_STREAMING;
  return body;
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

/** ChatMessage[] in OpenAI's form, the system prompt first. */
function messagesJson(system: string | undefined, messages: readonly ChatMessage[]): string {
  let json = '[';
  let first = true;
  if (system !== undefined && system !== '') {
    json += `{"role":"system","content":${JSON.stringify(system)}}`;
    first = false;
  }
  for (const message of messages) {
    if (!first) json += ',';
    first = false;
    json += messageJson(message);
  }
  return `${json}]`;
}

function messageJson(message: ChatMessage): string {
  switch (message.role) {
    case 'user':
      return `{"role":"user","content":${JSON.stringify(message.content)}}`;
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
