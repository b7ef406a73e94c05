/**
 * How deep a call's arguments may nest. Far beyond any real parameter (a spec nests a few levels);
 * far below what breaks the validator, the copy into a worker or JSON.stringify (thousands of levels
 * there fail as a stack overflow that looks like a timeout or a crash).
 */
export const MAX_ARGUMENT_DEPTH = 64;
/** How large a call's arguments may be, in characters of JSON: about 250,000 tokens of text. */
export const MAX_ARGUMENT_CHARS = 1_000_000;

/**
 * What is wrong with the shape of a call's arguments — nesting depth, size, a cycle, a value JSON
 * cannot carry — or undefined when nothing is. Checked before anything else walks them (the
 * validator, the copy into a worker); stops after MAX_ARGUMENT_CHARS worth, so cheap on any input.
 */
export function argumentShapeProblem(input: unknown): string | undefined {
  const ancestors = new Set<object>();
  let chars = 0;
  const visit = (value: unknown, path: string, depth: number): string | undefined => {
    const at = path === '' ? 'the arguments' : `"${path}"`;
    switch (typeof value) {
      case 'string':
        chars += value.length + 2;
        break;
      case 'function':
      case 'symbol':
      case 'bigint':
        return `${at} is a ${typeof value}, which JSON cannot carry; send JSON data (strings, numbers, booleans, null, arrays, objects)`;
      case 'object': {
        if (value === null) break;
        if (ancestors.has(value)) return `${at} contains itself (a cycle); send tree-shaped JSON data`;
        if (depth > MAX_ARGUMENT_DEPTH) return `the arguments are nested more than ${MAX_ARGUMENT_DEPTH} levels deep (at "${path.split('.').slice(0, 4).join('.')}…"); send flatter data`;
        ancestors.add(value);
        chars += 2;
        const keys = Array.isArray(value) ? undefined : Object.keys(value);
        const count = keys?.length ?? (value as unknown[]).length;
        for (let index = 0; index < count && chars <= MAX_ARGUMENT_CHARS; index++) {
          const key = keys?.[index] ?? String(index);
          chars += key.length + 4;
          const found = visit((value as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`, depth + 1);
          if (found !== undefined) return found;
        }
        ancestors.delete(value);
        break;
      }
      default:
        chars += 8;
    }
    if (chars > MAX_ARGUMENT_CHARS) return `the arguments are larger than ${MAX_ARGUMENT_CHARS.toLocaleString('en')} characters of JSON; send less (a path or an id instead of the content, say)`;
    return undefined;
  };
  try {
    return visit(input, '', 0);
  } catch (error) {
    // A getter or Proxy of an API caller's object.
    return `the arguments could not be read (${error instanceof Error ? error.message : String(error)}); send plain JSON data`;
  }
}
