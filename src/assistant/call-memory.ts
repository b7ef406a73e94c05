import type { ChatMessage, ToolCallRequest } from '../models/chat-message.ts';
import { imageBytes } from '../models/message-images.ts';

export interface CallMemoryOptions {
  /** Turns remembered at most (default 1,000); the least recently used go first. */
  maxEntries?: number;
  /** How long a turn is remembered after it was last used (default 1 h). */
  ttlMs?: number;
  /** Characters of messages held at most, all turns together, a picture counting its bytes (default 32 M). */
  maxChars?: number;
  now?: () => number;
}

interface Entry {
  /** The client calls, in order, as the caller was given them. */
  calls: readonly ToolCallRequest[];
  /** What the turn said up to and including them: our calls, their results, the reply that asked for the client's. */
  messages: readonly ChatMessage[];
  chars: number;
  usedAt: number;
}

/**
 * The server-side part of turns that ended with calls for the client to run. A stateless caller
 * (an OpenAI client) keeps only what it was shown — the reply with its own calls — so the calls we
 * ran before it would be lost to the model; this keeps them, keyed by the first client call's id,
 * and puts them back when that reply comes again. Bounded in count, age and size: a turn
 * forgotten only costs the model its earlier results, never a wrong conversation (ids are random,
 * and the calls must match).
 */
export class CallMemory {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #maxChars: number;
  readonly #now: () => number;
  #chars = 0;

  constructor(options: CallMemoryOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 1_000;
    this.#ttlMs = options.ttlMs ?? 3_600_000;
    this.#maxChars = options.maxChars ?? 32 * 1024 * 1024;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Keeps `messages` (the turn's, its first user message left out) for the reply that asked for `calls`. */
  remember(calls: readonly ToolCallRequest[], messages: readonly ChatMessage[]): void {
    const first = calls[0];
    if (first === undefined) return;
    const chars = messages.reduce((sum, message) => sum + messageChars(message), 0);
    if (chars > this.#maxChars) return;
    this.#delete(first.id);
    this.#entries.set(first.id, { calls, messages, chars, usedAt: this.#now() });
    this.#chars += chars;
    this.#prune();
  }

  /**
   * The conversation with every assistant message whose calls are remembered replaced by what the
   * turn really said. An entry used is kept for another `ttlMs`: the caller sends it with every
   * request of the conversation.
   */
  splice(conversation: readonly ChatMessage[]): ChatMessage[] {
    if (this.#entries.size === 0) return [...conversation];
    const out: ChatMessage[] = [];
    for (const message of conversation) {
      const entry = message.role === 'assistant' ? this.#take(message.toolCalls) : undefined;
      if (entry === undefined) out.push(message);
      else out.push(...entry.messages);
    }
    return out;
  }

  #take(calls: readonly ToolCallRequest[] | undefined): Entry | undefined {
    const first = calls?.[0];
    if (calls === undefined || first === undefined) return undefined;
    const entry = this.#entries.get(first.id);
    if (entry === undefined) return undefined;
    if (this.#now() - entry.usedAt > this.#ttlMs) {
      this.#delete(first.id);
      return undefined;
    }
    if (!sameCalls(entry.calls, calls)) return undefined;
    // Most recently used last, so that the first in the map is the one to drop.
    this.#entries.delete(first.id);
    entry.usedAt = this.#now();
    this.#entries.set(first.id, entry);
    return entry;
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#chars -= entry.chars;
  }

  #prune(): void {
    const now = this.#now();
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#chars <= this.#maxChars && now - entry.usedAt <= this.#ttlMs)
        break;
      this.#delete(key);
    }
  }
}

/** The caller may send the reply back with other text, but its calls must be the ones it was given. */
function sameCalls(a: readonly ToolCallRequest[], b: readonly ToolCallRequest[]): boolean {
  return a.length === b.length && a.every((call, index) => call.id === b[index]!.id && call.name === b[index]!.name);
}

function messageChars(message: ChatMessage): number {
  let chars = message.content.length;
  if (message.role === 'assistant')
    for (const call of message.toolCalls ?? []) chars += call.name.length + call.arguments.length;
  // A kept result's pictures weigh what they hold, so that the memory's bound holds for them too.
  else for (const image of message.images ?? []) chars += image.type === 'image' ? imageBytes(image) : image.url.length;
  return chars;
}
