import { findBlocks, readBlock } from './find-blocks.ts';
import { textOutside } from './prose-outside.ts';
import type { Attempt, TextToolCall } from './read-call.ts';
import { scanBare } from './scan-prose.ts';

/**
 * The text protocol: tool calling for models without native function calling. The system prompt
 * lists the tools and asks for a fenced JSON block; the reply is parsed here. A reply that clearly
 * tried to call a tool but got the format wrong is `invalid` (with a specific error for one repair
 * round), never silently "no tools".
 */

export type TextProtocolParse =
  /** A plain answer: no attempt at a call. `text` is the reply, trimmed. */
  | { kind: 'none'; text: string }
  /** `text` is the prose outside the call blocks, trimmed. */
  | { kind: 'calls'; calls: TextToolCall[]; text: string }
  /** The reply tried to call a tool but the call cannot be used; `error` says what and what is expected. */
  | { kind: 'invalid'; error: string; text: string };

/** Reads a model's reply under the text protocol. */
export function parseTextToolCalls(reply: string): TextProtocolParse {
  const blocks = findBlocks(reply);
  const attempts: Attempt[] = [];
  let cursor = 0;
  for (const block of blocks) {
    scanBare(reply, cursor, block.start, attempts);
    cursor = block.end;
    const attempt = readBlock(reply, block);
    if (attempt !== undefined) attempts.push(attempt);
  }
  scanBare(reply, cursor, reply.length, attempts);
  attempts.sort((a, b) => a.start - b.start);

  const text = textOutside(reply, attempts);
  const errors = attempts.flatMap((attempt) => (attempt.error === undefined ? [] : [attempt.error]));
  if (errors.length > 0) return { kind: 'invalid', error: summarize(errors), text };
  const calls = attempts.flatMap((attempt) => attempt.calls ?? []);
  if (calls.length > 0) return { kind: 'calls', calls, text };
  return { kind: 'none', text: reply.trim() };
}

/** At most a few errors: enough to fix the call, short enough to send back. */
function summarize(errors: readonly string[]): string {
  const shown = [...new Set(errors)].slice(0, MAX_ERRORS);
  const more = errors.length - shown.length;
  return shown.join('\n') + (more > 0 ? `\n(and ${more} more like these)` : '');
}

const MAX_ERRORS = 3;
