import { setField } from '../schema/schema-node.ts';

/**
 * How deep a call's arguments may nest. Far beyond any real parameter (a spec nests a few levels);
 * far below what breaks the validator, the copy into a worker or JSON.stringify (a few thousand
 * levels there fail as a stack overflow that looks like a timeout or a crash).
 */
export const MAX_ARGUMENT_DEPTH = 64;
/** How large a call's arguments may be, in characters of JSON: about 250,000 tokens of text. */
export const MAX_ARGUMENT_CHARS = 1_000_000;

export type ArgumentsRead = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * A call's arguments read once into plain JSON-like data, before anything else walks them (the
 * validator, the copy into a worker): or what is wrong with their shape — nested too deep, too
 * large, a cycle, a value JSON cannot carry, a getter or Proxy that throws. The copy has own
 * fields only ("__proto__" stays a field), so no prototype, getter or Proxy of a caller's object
 * reaches the check or the tool, and the caller's object is never coerced in place. Stops after
 * MAX_ARGUMENT_CHARS worth, so cheap on any input.
 */
export function readArguments(input: unknown): ArgumentsRead {
  const ancestors = new Set<object>();
  let chars = 0;
  let problem: string | undefined;
  const fail = (message: string): undefined => {
    problem ??= message;
    return undefined;
  };
  const count = (more: number) => {
    chars += more;
    if (chars > MAX_ARGUMENT_CHARS)
      fail(
        `the arguments are larger than ${MAX_ARGUMENT_CHARS.toLocaleString('en')} characters of JSON; send less (a path or an id instead of the content, say)`,
      );
  };

  const copy = (value: unknown, path: string, depth: number): unknown => {
    const at = path === '' ? 'the arguments' : `"${path}"`;
    switch (typeof value) {
      case 'string':
        count(value.length + 2);
        return value;
      case 'function':
      case 'symbol':
      case 'bigint':
        return fail(
          `${at} is a ${typeof value}, which JSON cannot carry; send JSON data (strings, numbers, booleans, null, arrays, objects)`,
        );
      case 'object': {
        if (value === null) return value;
        if (ancestors.has(value)) return fail(`${at} contains itself (a cycle); send tree-shaped JSON data`);
        if (depth > MAX_ARGUMENT_DEPTH)
          return fail(
            `the arguments are nested more than ${MAX_ARGUMENT_DEPTH} levels deep (at "${path.split('.').slice(0, 4).join('.')}…"); send flatter data`,
          );
        ancestors.add(value);
        count(2);
        const list = Array.isArray(value);
        const keys = list ? undefined : Object.keys(value);
        const length = keys?.length ?? (value as unknown[]).length;
        const out: unknown[] | Record<string, unknown> = list ? [] : {};
        for (let index = 0; index < length && problem === undefined; index++) {
          const key = keys?.[index] ?? String(index);
          count(key.length + 4);
          const item = copy((value as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`, depth + 1);
          if (Array.isArray(out)) out.push(item);
          else setField(out, key, item);
        }
        ancestors.delete(value);
        return out;
      }
      default:
        count(8);
        return value;
    }
  };

  try {
    const value = copy(input, '', 0);
    return problem === undefined ? { ok: true, value } : { ok: false, problem };
  } catch (error) {
    // A getter or Proxy of an API caller's object.
    return {
      ok: false,
      problem: `the arguments could not be read (${error instanceof Error ? error.message : String(error)}); send plain JSON data`,
    };
  }
}
