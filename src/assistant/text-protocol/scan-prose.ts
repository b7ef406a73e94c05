import { classify, EXPECTED, NAME_KEY, STRONG_KEY, WEAK_ARGUMENT_KEY, type Attempt } from './read-call.ts';
import { hints, matchEnd, parseLenient, skipSpace } from './lenient-json.ts';

// Calls written as bare JSON in the prose between blocks.

/**
 * Finds JSON values in prose outside blocks. Pushes only attempts: values that are calls, or spans
 * that fail to parse yet have tool-ish keys and hold no attempt inside (`[see {...}]` yields the
 * inner call). Iterative, with bracket ends shared between scans and keys found once up front, so
 * deep or unclosed brackets cost neither stack nor quadratic time.
 */
export function scanBare(text: string, from: number, to: number, out: Attempt[]): void {
  const region = text.slice(from, to);
  const first = from + (region.length - region.trimStart().length);
  const last = from + region.trimEnd().length;
  const regionAlone = text.slice(0, from).trim() === '' && text.slice(to).trim() === '';
  const alone = (start: number, end: number): boolean => regionAlone && start <= first && end >= last;
  const strong = spanTest(text, from, to, STRONG_KEY);
  const named = spanTest(text, from, to, NAME_KEY);
  const weak = spanTest(text, from, to, WEAK_ARGUMENT_KEY);
  const trailingComma = spanTest(text, from, to, /,\s*[}\]]/);
  const ends = new Map<number, number>();
  // Spans that failed to parse, innermost last; each is settled once the scan has passed it.
  const failed: Array<{ start: number; end: number; attemptsBefore: number; error: () => string }> = [];
  // Nested spans that all fail would each be parsed whole: bound the work to a few passes over the text.
  let budget = 8 * (to - from) + 100_000;
  const settle = (position: number): void => {
    for (let span = failed.at(-1); span !== undefined && span.end <= position; span = failed.at(-1)) {
      failed.pop();
      const { start, end } = span;
      const tried = strong(start, end) || (named(start, end) && weak(start, end));
      if (out.length === span.attemptsBefore && tried) out.push({ start, end, error: span.error() });
    }
  };
  let i = from;
  while (i < to) {
    settle(i);
    const char = text[i];
    // A call is an object; an array of calls starts with one.
    if (char !== '{' && !(char === '[' && text[skipSpace(text, i + 1)] === '{')) {
      i++;
      continue;
    }
    const end = matchEnd(text, i, to, ends);
    const spanEnd = end === -1 ? to : end;
    if (!strong(i, spanEnd) && !named(i, spanEnd)) {
      // Nothing inside can be a call either.
      if (end === -1) break;
      i = end;
      continue;
    }
    if (end === -1) {
      // Never closed: maybe a call cut off, maybe a stray bracket before a real call.
      const error = (): string => `The tool call JSON is incomplete: a ${char} is never closed. ${EXPECTED}`;
      failed.push({ start: i, end: to, attemptsBefore: out.length, error });
      i++;
      continue;
    }
    budget -= end - i;
    if (budget < 0) break;
    const span = text.slice(i, end);
    const parsed = parseLenient(span, trailingComma(i, end));
    if ('value' in parsed) {
      const attempt = classify(parsed.value, alone(i, end), i, end);
      if (attempt !== undefined) out.push(attempt);
      i = end;
      continue;
    }
    const error = (): string => `The tool call is not valid JSON: ${parsed.error}${hints(span)} ${EXPECTED}`;
    failed.push({ start: i, end, attemptsBefore: out.length, error });
    i++;
  }
  settle(Infinity);
}

/** Finds a pattern's matches in `text[from, to)` once; the test says whether a span holds one. */
function spanTest(text: string, from: number, to: number, pattern: RegExp): (start: number, end: number) => boolean {
  const starts: number[] = [];
  const ends: number[] = [];
  for (const match of text.slice(from, to).matchAll(new RegExp(pattern.source, 'g'))) {
    starts.push(from + match.index);
    ends.push(from + match.index + match[0].length);
  }
  return (start, end) => {
    // The first match starting at or after `start` (matches do not overlap, so ends are sorted too).
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((starts[middle] ?? 0) < start) low = middle + 1;
      else high = middle;
    }
    return low < ends.length && (ends[low] ?? Infinity) <= end;
  };
}
