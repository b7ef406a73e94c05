import type { ChatMessage, ToolCallRequest } from '../../chat-message.ts';
import type { ModelRequest, ToolChoice } from '../../chat-model.ts';
import { toolsWire, type ToolsWire } from '../../tools-wire.ts';
import type { MessageImage } from '../../chat-message.ts';
import { base64Of, mediaType } from '../../message-images.ts';

/** Tools as the Messages API takes them: `input_schema` is standard JSON Schema. */
export const ANTHROPIC_TOOLS: ToolsWire = toolsWire('anthropic', ({ name, description, parameters }) =>
  JSON.stringify({ name, description, input_schema: parameters }),
);

/** The whole body, built as a string like the OpenAI body; `modelJson` is the model name already serialized. */
export function anthropicRequestBody(modelJson: string, maxTokens: number, request: ModelRequest): string {
  const sampling = request.sampling;
  let body = `{"model":${modelJson},"max_tokens":${sampling?.maxTokens ?? maxTokens}`;
  if (request.system !== undefined && request.system !== '') body += `,"system":${JSON.stringify(request.system)}`;
  const tools = request.tools;
  const withTools = tools !== undefined && tools.length > 0;
  body += `,"messages":${anthropicMessagesJson(request.messages, withTools)}`;
  if (withTools) {
    body += `,"tools":${ANTHROPIC_TOOLS.toolsText(tools)}`;
    if (request.toolChoice !== undefined) body += `,"tool_choice":${toolChoiceJson(request.toolChoice)}`;
  }
  // Anthropic's structured output holds the answer to a schema written for it (every object closed,
  // as a strict schema is); any other format is asked for in the system prompt, and checked by the turn.
  const format = request.responseFormat;
  if (format?.type === 'json_schema' && format.strict === true) {
    const { $schema: _draft, ...schema } = format.schema;
    body += `,"output_config":${JSON.stringify({ format: { type: 'json_schema', schema } })}`;
  }
  if (sampling !== undefined) {
    if (sampling.temperature !== undefined) body += `,"temperature":${sampling.temperature}`;
    // Its newer models take temperature or top_p, not both: temperature wins.
    else if (sampling.topP !== undefined) body += `,"top_p":${sampling.topP}`;
    if (sampling.stop !== undefined && sampling.stop.length > 0)
      body += `,"stop_sequences":${JSON.stringify(sampling.stop)}`;
    // seed, presence_penalty and frequency_penalty: the Messages API has none of them.
  }
  return request.stream === true ? `${body},"stream":true}` : `${body}}`;
}

function toolChoiceJson(choice: ToolChoice): string {
  if (typeof choice !== 'string') return `{"type":"tool","name":${JSON.stringify(choice.name)}}`;
  return choice === 'required' ? '{"type":"any"}' : `{"type":"${choice}"}`;
}

/** One wire message being built: its content blocks as JSON, and its text when it is one text block. */
interface Turn {
  role: 'user' | 'assistant';
  blocks: string[];
  text: string | undefined;
}

/**
 * ChatMessage[] in Anthropic's form. Anthropic wants user and assistant to alternate, so messages
 * of the same role in a row become one: a round's tool results are one user message (with any
 * user text after them), whatever the history looks like. It also refuses tool_use and
 * tool_result blocks in a request without tools (the turn's last round, which must answer), so
 * then past calls and results are told as text.
 */
function anthropicMessagesJson(messages: readonly ChatMessage[], toolBlocks = true): string {
  const turns: Turn[] = [];
  const add = (role: Turn['role'], block: string, text?: string) => {
    const last = turns[turns.length - 1];
    if (last !== undefined && last.role === role) {
      last.blocks.push(block);
      last.text = undefined;
    } else {
      turns.push({ role, blocks: [block], text });
    }
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user': {
        // Pictures first, then the text: the order Anthropic recommends.
        const images = message.images ?? [];
        for (const image of images) add('user', imageBlock(image));
        if (images.length === 0) add('user', textBlock(message.content), message.content);
        else if (message.content.trim() !== '') add('user', textBlock(message.content));
        break;
      }
      case 'tool':
        if (toolBlocks)
          add('user', toolResultBlock(message.toolCallId, message.content, message.isError === true, message.images));
        else {
          add(
            'user',
            textBlock(
              `[${message.isError === true ? 'error from' : 'result of'} tool ${message.name}: ${message.content}]`,
            ),
          );
          for (const image of message.images ?? []) add('user', imageBlock(image));
        }
        break;
      case 'assistant': {
        // Anthropic rejects empty text blocks; an assistant message with nothing in it is left out.
        const hasText = message.content.trim() !== '';
        if (hasText) add('assistant', textBlock(message.content), message.content);
        for (const call of message.toolCalls ?? [])
          add(
            'assistant',
            toolBlocks ? toolUseBlock(call) : textBlock(`[called tool ${call.name} with ${call.arguments}]`),
          );
        break;
      }
    }
  }
  let json = '[';
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i]!;
    if (i > 0) json += ',';
    const content = turn.text !== undefined ? JSON.stringify(turn.text) : `[${turn.blocks.join(',')}]`;
    json += `{"role":"${turn.role}","content":${content}}`;
  }
  return `${json}]`;
}

function textBlock(text: string): string {
  return `{"type":"text","text":${JSON.stringify(text)}}`;
}

/** A tool's result; with pictures, its content is blocks: the text (unless empty, which Anthropic rejects), then the images. */
function toolResultBlock(
  id: string,
  content: string,
  isError: boolean,
  images: readonly MessageImage[] | undefined,
): string {
  let json = JSON.stringify(content);
  if (images !== undefined && images.length > 0) {
    const blocks = content.trim() === '' ? [] : [textBlock(content)];
    for (const image of images) blocks.push(imageBlock(image));
    json = `[${blocks.join(',')}]`;
  }
  return `{"type":"tool_result","tool_use_id":${JSON.stringify(id)},"content":${json}${isError ? ',"is_error":true' : ''}}`;
}

/** An image block: the bytes as base64 (encoded here, once), or the link, which Anthropic fetches itself. */
function imageBlock(image: MessageImage): string {
  if (image.type === 'image-url') return `{"type":"image","source":{"type":"url","url":${JSON.stringify(image.url)}}}`;
  return `{"type":"image","source":{"type":"base64","media_type":${JSON.stringify(mediaType(image))},"data":${JSON.stringify(base64Of(image.data))}}}`;
}

function toolUseBlock(call: ToolCallRequest): string {
  return `{"type":"tool_use","id":${JSON.stringify(call.id)},"name":${JSON.stringify(call.name)},"input":${inputJson(call.arguments)}}`;
}

/**
 * The arguments as the JSON object `input` must be. Anything else (invalid JSON, an array) becomes
 * `{}` rather than failing the request: the tool's error result, right after, tells the model what
 * went wrong.
 */
function inputJson(args: string): string {
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    return '{}';
  }
  // The text itself, not the value written again: it is valid JSON, and may be nested deeper than JSON.stringify goes.
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? args : '{}';
}
