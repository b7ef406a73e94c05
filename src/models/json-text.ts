/**
 * `JSON.stringify` for values of any depth. V8's `JSON.parse` reads nesting of any depth, but its
 * `JSON.stringify` recurses and throws a RangeError at a few thousand levels: arguments a model
 * nested that deep must still become text (and reach the tool's parameter check, which refuses
 * them by name) instead of failing the whole reply. The iterative path runs only after that throw.
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error; // a cycle or a BigInt stays an error
    return deepJsonText(value);
  }
}

/** The same text as `JSON.stringify` (no toJSON, replacer or indent: parsed JSON has none), without recursion. */
function deepJsonText(root: unknown): string {
  const out: string[] = [];
  // Each frame is a container being written and the index of its next member.
  const stack: Array<{ value: unknown[] | Record<string, unknown>; keys: string[] | undefined; next: number }> = [];
  const open = (value: unknown): void => {
    if (value === null || typeof value !== 'object') {
      out.push(JSON.stringify(value) ?? 'null');
      return;
    }
    const keys = Array.isArray(value)
      ? undefined
      : Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined);
    out.push(keys === undefined ? '[' : '{');
    stack.push({ value: value as unknown[] | Record<string, unknown>, keys, next: 0 });
  };
  open(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const size = frame.keys === undefined ? (frame.value as unknown[]).length : frame.keys.length;
    if (frame.next >= size) {
      out.push(frame.keys === undefined ? ']' : '}');
      stack.pop();
      continue;
    }
    if (frame.next > 0) out.push(',');
    const index = frame.next++;
    if (frame.keys === undefined) open((frame.value as unknown[])[index] ?? null);
    else {
      const key = frame.keys[index]!;
      out.push(`${JSON.stringify(key)}:`);
      open((frame.value as Record<string, unknown>)[key]);
    }
  }
  return out.join('');
}

/** Arguments as JSON text: some servers send an object, and a call without arguments sends nothing. */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value === '' ? '{}' : value;
  return value === undefined || value === null ? '{}' : jsonText(value);
}
