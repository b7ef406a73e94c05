// JSON as models write it into prose: brackets matched by hand, trailing commas forgiven, pointers for the usual slips.

/**
 * The index just past the `}` or `]` that closes the bracket at `start`, or -1 when it is not
 * closed before `limit`. Brackets inside double-quoted strings (with escapes) do not count. The
 * ends of brackets met on the way go into `ends`: a scan from one of them would run the same.
 */
export function matchEnd(text: string, start: number, limit: number, ends = new Map<number, number>()): number {
  const known = ends.get(start);
  if (known !== undefined) return known;
  const open: number[] = [];
  let inString = false;
  for (let i = start; i < limit; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') open.push(i);
    else if (char === '}' || char === ']') {
      ends.set(open.pop() ?? start, i + 1);
      if (open.length === 0) return i + 1;
    }
  }
  for (const opener of open) ends.set(opener, -1);
  return -1;
}

/** Strict JSON, then once more without trailing commas; the error is always the strict one. */
export function parseLenient(text: string, mayHaveTrailingComma = true): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const withoutCommas = mayHaveTrailingComma ? stripTrailingCommas(text) : text;
    if (withoutCommas !== text) {
      try {
        return { value: JSON.parse(withoutCommas) as unknown };
      } catch {
        // Report the original error: it points at the text the model wrote.
      }
    }
    return { error: message };
  }
}

function stripTrailingCommas(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') {
        out += char + (text[i + 1] ?? '');
        i++;
        continue;
      }
      if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === ',') {
      const next = text[skipSpace(text, i + 1)];
      if (next === '}' || next === ']') continue;
    }
    out += char;
  }
  return out;
}

/** Two or more JSON values separated only by whitespace or commas, or undefined. */
export function parseSequence(text: string): unknown[] | undefined {
  const values: unknown[] = [];
  let i = 0;
  while (true) {
    while (i < text.length && /[\s,]/.test(text[i] ?? '')) i++;
    if (i >= text.length) break;
    if (text[i] !== '{' && text[i] !== '[') return undefined;
    const end = matchEnd(text, i, text.length);
    if (end === -1) return undefined;
    const parsed = parseLenient(text.slice(i, end));
    if (!('value' in parsed)) return undefined;
    values.push(parsed.value);
    i = end;
  }
  return values.length >= 2 ? values : undefined;
}

/** Pointers for the mistakes that JSON.parse messages do not name. */
export function hints(text: string): string {
  const found: string[] = [];
  if (/[“”‘’]/.test(text)) found.push('it uses curly quotes; JSON needs straight double quotes (")');
  else if (/[{,]\s*'[^']*'\s*:/.test(text)) found.push('it uses single quotes; JSON needs double quotes (")');
  if (/[：，]/.test(text)) found.push('it uses full-width punctuation (： ，); JSON needs ASCII : and ,');
  return found.length === 0 ? '.' : ` — ${found.join('; ')}.`;
}

export function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i] ?? '')) i++;
  return i;
}
