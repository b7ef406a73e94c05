/** The value at `a.b.0.c` (or `a.b[0].c`) in parsed JSON; undefined when the path leads nowhere. */
export function atPath(value: unknown, path: string): unknown {
  let current = value;
  for (const step of path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((part) => part !== '')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, step)) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}
