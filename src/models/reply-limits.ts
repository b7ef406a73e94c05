import type { ModelEvent } from './chat-model.ts';
import type { ModelError } from './model-error.ts';
import { replyTooLargeError, type ErrorContext } from './request-errors.ts';

/** Caps on one reply, counted in characters as it arrives. */
export interface ReplyCaps {
  /** The whole reply: its text and all its tool calls' arguments. */
  maxReplyChars: number;
  /** The arguments of each tool call. */
  maxToolCallChars: number;
}

/**
 * Above any model's longest output today (about 128k tokens, some 500k characters), so a real
 * reply is never cut; a server streaming without end is.
 */
export const DEFAULT_MAX_REPLY_CHARS = 500_000;
/** Room for a tool call carrying a whole document (some 50k tokens). */
export const DEFAULT_MAX_TOOL_CALL_CHARS = 200_000;

export const REPLY_SETTING = 'model_options.max_reply_chars';
const TOOL_CALL_SETTING = 'model_options.max_tool_call_chars';

/**
 * The longest stream event, or non-streamed body (in bytes), that a reply within the caps can need:
 * JSON writes a character as up to 6 (`\uXXXX`), arguments — JSON inside a JSON string — up to 7,
 * and an event carries some framing besides. Past it the reply cannot be within its caps.
 */
export function wireLimit(caps: ReplyCaps): number {
  return 8 * (caps.maxReplyChars + caps.maxToolCallChars) + 65_536;
}

/** Counts a reply's events against the caps; `check` throws a `reply-too-large` ModelError at the first one past them. */
export class ReplyMeter {
  readonly #caps: ReplyCaps;
  readonly #context: ErrorContext;
  #text = 0;
  /** Argument characters (and the name, once known) of each streaming tool call, by index. */
  readonly #calls: Array<{ chars: number; name: string }> = [];
  /** All arguments, counted from the pieces and from the whole calls (servers send either or both). */
  #deltaChars = 0;
  #callChars = 0;

  constructor(caps: ReplyCaps, context: ErrorContext) {
    this.#caps = caps;
    this.#context = context;
  }

  check(event: ModelEvent): void {
    if (event.type === 'text-delta') {
      this.#text += event.text.length;
    } else if (event.type === 'tool-call-delta') {
      const call = (this.#calls[event.index] ??= { chars: 0, name: '' });
      if (event.name !== undefined && call.name === '') call.name = event.name;
      call.chars += event.argumentsDelta.length;
      this.#deltaChars += event.argumentsDelta.length;
      if (call.chars > this.#caps.maxToolCallChars) throw this.#tooLarge(call.name);
    } else if (event.type === 'tool-call') {
      if (event.call.arguments.length > this.#caps.maxToolCallChars) throw this.#tooLarge(event.call.name);
      this.#callChars += event.call.arguments.length;
    } else return;
    // The whole reply too: many calls, each within its cap, add up.
    if (this.#text + Math.max(this.#deltaChars, this.#callChars) > this.#caps.maxReplyChars)
      throw this.#tooLarge(undefined);
  }

  #tooLarge(toolName: string | undefined): ModelError {
    return toolName === undefined
      ? replyTooLargeError(this.#context, { kind: 'text' }, this.#caps.maxReplyChars, REPLY_SETTING)
      : replyTooLargeError(
          this.#context,
          { kind: 'tool-call', name: toolName },
          this.#caps.maxToolCallChars,
          TOOL_CALL_SETTING,
        );
  }
}
