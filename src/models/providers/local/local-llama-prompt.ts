// The conversation in node-llama-cpp's chat-history form. The model's chat template formats it; a
// template knows no tool calls, so calls are shown as the JSON the grammar makes the model write,
// and results as a user message, so past rounds read the same as the reply being generated.
import type { ChatMessage, ToolCallRequest } from '../../chat-message.ts';
import type { ToolDefinition } from '../../chat-model.ts';
import type { ChatHistoryItem } from './local-llama-runtime.ts';
import { toolsWire, type ToolsWire } from '../../tools-wire.ts';

export function chatHistory(
  system: string | undefined,
  messages: readonly ChatMessage[],
  tools: readonly ToolDefinition[] | undefined,
): ChatHistoryItem[] {
  const items: ChatHistoryItem[] = [];
  const systemText = [system, tools === undefined || tools.length === 0 ? undefined : LOCAL_TOOLS.toolsText(tools)]
    .filter((part) => part !== undefined && part !== '')
    .join('\n\n');
  if (systemText !== '') items.push({ type: 'system', text: systemText });
  let results: string[] = [];
  const flushResults = () => {
    if (results.length > 0) items.push({ type: 'user', text: results.join('\n\n') });
    results = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      results.push(
        `Result of ${message.name} (${message.toolCallId})${message.isError === true ? ', failed' : ''}:\n${message.content}`,
      );
      continue;
    }
    flushResults();
    if (message.role === 'user') items.push({ type: 'user', text: message.content });
    else items.push({ type: 'model', response: [modelText(message.content, message.toolCalls)] });
  }
  flushResults();
  // An empty model turn at the end: the reply to generate.
  items.push({ type: 'model', response: [] });
  return items;
}

const TOOLS_HEADER = [
  'Reply with exactly one JSON object. To call a tool: {"tool": "<tool name>", "arguments": {<parameters>}}; you will get its result, then reply again. To answer the user: {"answer": "<your reply>"}. Optional parameters you do not use are null.',
  'Tools:',
];

/** What the model must know to call tools, in its system prompt: the reply shape and each tool's parameters (plain JSON Schema). */
export const LOCAL_TOOLS: ToolsWire = toolsWire(
  'json',
  (tool) => `- ${tool.name}: ${tool.description} Parameters (JSON Schema): ${JSON.stringify(tool.parameters)}`,
  'text',
  (lines) => [...TOOLS_HEADER, ...lines].join('\n'),
);

function modelText(content: string, calls: readonly ToolCallRequest[] | undefined): string {
  if (calls === undefined || calls.length === 0) return content;
  const json = calls.map(
    (call) => `{"tool": ${JSON.stringify(call.name)}, "arguments": ${argumentsJson(call.arguments)}}`,
  );
  return [content, ...json].filter((part) => part !== '').join('\n');
}

/** Arguments as sent; text that is not JSON (from another model) is quoted rather than pasted. */
function argumentsJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return JSON.stringify(text);
  }
}
