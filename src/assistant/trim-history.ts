import type { ChatMessage, ToolCallRequest } from '../models/chat-message.ts';

/**
 * A rough token count: about one token per CJK character and per four other characters. Counted
 * in a loop, not with a regular expression's match list, which for a pasted megabyte of Chinese
 * would be a million strings.
 */
export function estimateTokens(text: string): number {
  let wide = 0;
  for (let index = 0; index < text.length; index++) {
    const c = text.charCodeAt(index);
    if (c < 0x3040) continue;
    if (
      c <= 0x30ff ||
      (c >= 0x3400 && c <= 0x4dbf) ||
      (c >= 0x4e00 && c <= 0x9fff) ||
      (c >= 0xac00 && c <= 0xd7af) ||
      (c >= 0xff00 && c <= 0xffef)
    )
      wide++;
  }
  return wide + Math.ceil((text.length - wide) / 4);
}

function messageTokens(message: ChatMessage): number {
  let tokens = 4 + estimateTokens(message.content);
  if (message.role === 'assistant')
    for (const call of message.toolCalls ?? [])
      tokens += 8 + estimateTokens(call.name) + estimateTokens(call.arguments);
  return tokens;
}

/**
 * What a picture is counted as when old turns are dropped to fit the budget: about what a vision
 * model bills for a picture of a megapixel or so (Anthropic ~1,300, OpenAI ~765 at high detail,
 * Gemini 258 a tile). Only for dropping whole turns: a picture cannot be cut down like text.
 */
const PICTURE_TOKENS = 1_000;

const withPictures = (message: ChatMessage): number =>
  messageTokens(message) + (message.role === 'assistant' ? 0 : (message.images?.length ?? 0) * PICTURE_TOKENS);

/** What replaces the part of a message cut to fit the budget: says how much was left out, and why. */
export type CutNote = (omittedChars: number) => string;

const CUT_NOTE: CutNote = (omitted) =>
  `[… ${omitted} characters cut here by Riverse: this message was longer than the history budget (assistant.history_tokens)]`;

/**
 * The most recent part of a conversation that fits `budget` tokens. It is cut only where a user
 * message starts, so a tool call is never separated from its result; the last user message and
 * what follows it are always kept — and when they alone are over the budget, the largest of them
 * are cut down (with `note` where the cut is), so the result fits even then.
 */
export function trimHistory(messages: readonly ChatMessage[], budget: number, note: CutNote = CUT_NOTE): ChatMessage[] {
  let total = 0;
  let start = messages.length;
  for (let index = messages.length - 1; index >= 0; index--) {
    total += withPictures(messages[index]!);
    if (messages[index]!.role !== 'user') continue;
    if (total > budget && start < messages.length) break;
    start = index;
  }
  return fitBudget(messages.slice(start), budget, note);
}

/**
 * The messages with the largest cut down to one common ceiling, the highest that makes them fit
 * `budget`: small messages stay whole, and a single huge one (a pasted file, a tool result) takes
 * the cut alone.
 */
function fitBudget(messages: ChatMessage[], budget: number, note: CutNote = CUT_NOTE): ChatMessage[] {
  const tokens = messages.map(messageTokens);
  if (tokens.reduce((sum, n) => sum + n, 0) <= budget) return messages;
  const ceiling = waterLevel(tokens, budget);
  return messages.map((message, index) => (tokens[index]! > ceiling ? cutMessage(message, ceiling, note) : message));
}

/** The highest c with Σ min(size, c) ≤ budget. */
function waterLevel(sizes: readonly number[], budget: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let below = 0;
  for (let index = 0; index < sorted.length; index++) {
    const level = Math.floor((budget - below) / (sorted.length - index));
    if (level < sorted[index]!) return Math.max(0, level);
    below += sorted[index]!;
  }
  return sorted.at(-1) ?? 0;
}

/** One message cut to about `maxTokens`: its text, and for an assistant message its calls' arguments, share the room. */
function cutMessage(message: ChatMessage, maxTokens: number, note: CutNote): ChatMessage {
  if (message.role !== 'assistant' || message.toolCalls === undefined || message.toolCalls.length === 0) {
    return { ...message, content: cutText(message.content, maxTokens - 4, note) };
  }
  const calls = message.toolCalls;
  const fixed = 4 + calls.reduce((sum, call) => sum + 8 + estimateTokens(call.name), 0);
  const parts = [estimateTokens(message.content), ...calls.map((call) => estimateTokens(call.arguments))];
  const level = waterLevel(parts, Math.max(0, maxTokens - fixed));
  return {
    ...message,
    content: cutText(message.content, level, note),
    // Arguments cut mid-way would be broken JSON, which some providers refuse: a marker object instead.
    toolCalls: calls.map((call, index) => {
      if (parts[index + 1]! <= level) return call;
      const marker = JSON.stringify({ riverse_cut: note(call.arguments.length) });
      return marker.length < call.arguments.length ? { ...call, arguments: marker } : call;
    }),
  };
}

/** The start of `text` and `note`, within about `maxTokens`; the text itself when it fits. */
export function cutText(text: string, maxTokens: number, note: CutNote = CUT_NOTE): string {
  const tokens = estimateTokens(text);
  const noteTokens = estimateTokens(note(text.length));
  // A text no longer than the note itself would only grow.
  if (tokens <= maxTokens || tokens <= noteTokens) return text;
  const room = Math.max(0, maxTokens - noteTokens);
  // A first guess from the text's own characters per token, shrunk until it fits.
  let keep = Math.min(text.length, Math.floor((text.length * room) / Math.max(1, tokens)));
  while (keep > 0 && estimateTokens(text.slice(0, keep)) > room) keep = Math.floor(keep * 0.9);
  // Not between the two halves of a surrogate pair.
  if (keep > 0 && /[\ud800-\udbff]/.test(text[keep - 1]!)) keep--;
  return `${text.slice(0, keep)}${note(text.length - keep)}`;
}

/** The result given to a call that never got one. */
export const INTERRUPTED_CALL =
  'Error: this call was interrupted (Riverse stopped before it finished) and has no result.';

/**
 * The conversation with a result right after every tool call, as providers require: a turn cut
 * off while a tool ran (the process was killed) left its calls unanswered in the store. Missing
 * results are taken from `late` (a call's trace: it ran, or was denied, after its turn was gone),
 * else filled in as failures; a result without its call is dropped.
 */
export function closeOpenToolCalls(
  messages: readonly ChatMessage[],
  late?: ReadonlyMap<string, { content: string; isError?: boolean }>,
): ChatMessage[] {
  const out: ChatMessage[] = [];
  let open: ToolCallRequest[] = [];
  const close = () => {
    for (const call of open)
      out.push({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        ...(late?.get(call.id) ?? { content: INTERRUPTED_CALL, isError: true }),
      });
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
