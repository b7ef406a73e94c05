import type { ChatMessage } from '../models/chat-message.ts';

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
