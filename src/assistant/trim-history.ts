import type { ChatMessage, ToolCallRequest } from '../models/chat-message.ts';

const WIDE = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]/g;

/** A rough token count: about one token per CJK character and per four other characters. */
export function estimateTokens(text: string): number {
  const wide = text.match(WIDE)?.length ?? 0;
  return wide + Math.ceil((text.length - wide) / 4);
}

function messageTokens(message: ChatMessage): number {
  let tokens = 4 + estimateTokens(message.content);
  if (message.role === 'assistant') for (const call of message.toolCalls ?? []) tokens += 8 + estimateTokens(call.name) + estimateTokens(call.arguments);
  return tokens;
}

/**
 * The most recent part of a conversation that fits `budget` tokens. It is cut only where a user
 * message starts, so a tool call is never separated from its result; the last user message and
 * what follows it are always kept.
 */
export function trimHistory(messages: readonly ChatMessage[], budget: number): ChatMessage[] {
  let total = 0;
  let start = messages.length;
  for (let index = messages.length - 1; index >= 0; index--) {
    total += messageTokens(messages[index]!);
    if (messages[index]!.role !== 'user') continue;
    if (total > budget && start < messages.length) break;
    start = index;
  }
  return messages.slice(start);
}

/** The result given to a call that never got one. */
export const INTERRUPTED_CALL = 'Error: this call was interrupted (Riverse stopped before it finished) and has no result.';

/**
 * The conversation with a result right after every tool call, as providers require: a turn cut
 * off while a tool ran (the process was killed) left its calls unanswered in the store. Missing
 * results are filled in as failures; a result without its call is dropped.
 */
export function closeOpenToolCalls(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let open: ToolCallRequest[] = [];
  const close = () => {
    for (const call of open) out.push({ role: 'tool', toolCallId: call.id, name: call.name, content: INTERRUPTED_CALL, isError: true });
    open = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      const index = open.findIndex((call) => call.id === message.toolCallId);
      if (index === -1) continue;
      open.splice(index, 1);
      out.push(message);
      continue;
    }
    close();
    out.push(message);
    if (message.role === 'assistant' && message.toolCalls !== undefined) open = [...message.toolCalls];
  }
  close();
  return out;
}
