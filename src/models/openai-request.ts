import type { ChatMessage } from './chat-message.ts';
import type { ModelRequest, ToolDefinition } from './chat-model.ts';

/*
 * The request body is built as a string. A catalog of 200 tools is about 66 KB of JSON sent with
 * every request; it is serialized once per tools array (by identity) and spliced in, so a request
 * costs the messages, not the catalog.
 */

const toolsJsonCache = new WeakMap<readonly ToolDefinition[], string>();

/** `tools` in OpenAI's form, serialized once per array object. */
export function toolsJson(tools: readonly ToolDefinition[]): string {
  let json = toolsJsonCache.get(tools);
  if (json === undefined) {
    json = JSON.stringify(
      tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
    );
    toolsJsonCache.set(tools, json);
  }
  return json;
}

/** The whole body; `modelJson` is the model name already serialized. */
export function requestBody(modelJson: string, request: ModelRequest): string {
  let body = `{"model":${modelJson},"messages":${messagesJson(request.system, request.messages)}`;
  const tools = request.tools;
  if (tools !== undefined && tools.length > 0) body += `,"tools":${toolsJson(tools)}`;
  body += request.stream === true ? STREAMING : NOT_STREAMING;
  return body;
}

const STREAMING = ',"stream":true,"stream_options":{"include_usage":true}}';
const NOT_STREAMING = ',"stream":false}';

/** ChatMessage[] in OpenAI's form, the system prompt first. */
export function messagesJson(system: string | undefined, messages: readonly ChatMessage[]): string {
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
      if (calls === undefined || calls.length === 0) return `{"role":"assistant","content":${JSON.stringify(message.content)}}`;
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
