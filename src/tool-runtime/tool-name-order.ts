// The order tools are listed in: the order `localeCompare` gives tool names ([a-zA-Z0-9_-], the
// manifest check's), without it. Its first call builds an ICU collator, some 20 ms of a start.

/** The primary weight of a tool name's character: `_`, `-`, digits, letters regardless of case (ICU's root order). */
function weight(code: number): number {
  if (code === 0x5f) return 0;
  if (code === 0x2d) return 1;
  if (code >= 0x30 && code <= 0x39) return 2 + code - 0x30;
  if (code >= 0x61 && code <= 0x7a) return 12 + code - 0x61;
  if (code >= 0x41 && code <= 0x5a) return 12 + code - 0x41;
  return 100 + code; // not a tool name's: after them, by code
}

/** `a.localeCompare(b)` for tool names: letters compared without case first, then lower before upper. */
export function compareToolNames(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const difference = weight(a.charCodeAt(index)) - weight(b.charCodeAt(index));
    if (difference !== 0) return difference < 0 ? -1 : 1;
  }
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  for (let index = 0; index < length; index++) {
    const x = a.charCodeAt(index);
    const y = b.charCodeAt(index);
    // Same letter, other case: the lowercase one first.
    if (x !== y) return x > y ? -1 : 1;
  }
  return 0;
}
