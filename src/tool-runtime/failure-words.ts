import type { Language } from '../core/language.ts';
import { english, renderPhrase, type Phrase } from '../core/phrase.ts';
import type { CheckedToolResult, ToolErrorCode, ToolResult } from '../tools/tool-result.ts';

// A failure Riverse words itself keeps its words as a phrase beside the result, not in it: the
// result's `error` stays the English a model reads, and a person (`tools run`) reads it in theirs.
const WORDS = new WeakMap<ToolResult, Phrase>();

/** A failed result whose error is the phrase in English, the phrase kept for other languages. */
export function saidFailure(code: ToolErrorCode, said: Phrase): CheckedToolResult {
  return withWords({ success: false, data: '', error: english(said), code }, said);
}

/** The same result, its error (English, as it was) kept as the phrase too. */
export function withWords<Result extends ToolResult>(result: Result, said: Phrase): Result {
  WORDS.set(result, said);
  return result;
}

/** The result's error in `language` when Riverse worded it; undefined for a tool's own error. */
export function failureIn(result: ToolResult, language: Language): string | undefined {
  const said = WORDS.get(result);
  return said === undefined ? undefined : renderPhrase(said, language);
}
