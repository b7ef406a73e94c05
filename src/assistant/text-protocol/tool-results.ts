import type { Language } from '../../core/language.ts';
import { WORDING } from './wording.ts';

/**
 * Tool results as one user message for a text-protocol model: numbered like the calls, each marked
 * succeeded or failed, each body fenced so that its content cannot blur into the next.
 */
export function formatToolResultsForText(
  results: ReadonlyArray<{ name: string; content: string; isError?: boolean }>,
  language: Language,
): string {
  const words = WORDING[language];
  const parts = [`[${words.results}]`];
  results.forEach((result, index) => {
    const fence = fenceFor(result.content);
    const status = result.isError === true ? words.failed : words.succeeded;
    parts.push(`${index + 1}. ${result.name} (${status})\n${fence}\n${result.content}\n${fence}`);
  });
  parts.push(words.resultsAfter);
  return parts.join('\n\n');
}

/** A backtick fence longer than any backtick run in the content, as Markdown allows. */
function fenceFor(content: string): string {
  const longest = Math.max(0, ...Array.from(content.matchAll(/`+/g), (match) => match[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}
