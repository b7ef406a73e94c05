/*
 * The kinds of value riverse.yaml holds, each with its check and the message that says what was
 * expected. A table of these (riverse-config.ts) is typed against the settings types the code
 * reads, so that a key cannot be read without being checked, or checked as another type.
 */

export type ConfigPath = (string | number)[];
export type ReportProblem = (path: ConfigPath, message: string) => void;

/** One setting's check. `T` is the type a valid value has; it ties the table to the settings types. */
export interface Field<T> {
  /** Reports what is wrong with `value` (never undefined: an absent setting is not checked). */
  check(value: unknown, path: ConfigPath, problem: ReportProblem): void;
  /** Never set: it only carries `T`. */
  readonly valueType?: T;
}

/** The keys of T without its index signature (tool sections, or the free keys of AppConfig). */
type DeclaredKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/** A field for every declared key of T, of that key's type; a key missing or extra is a type error. */
export type Fields<T> = { [K in DeclaredKeys<T>]-?: Field<Exclude<T[K], undefined | null>> };

/** setTimeout's ceiling: a longer timer fires at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export function text(): Field<string> {
  return { check: (value, path, problem) => (typeof value !== 'string' || value === '') && problem(path, `expected text, got ${describe(value)}`) };
}

export function flag(): Field<boolean> {
  return { check: (value, path, problem) => typeof value !== 'boolean' && problem(path, `expected true or false, got ${describe(value)}`) };
}

export function choice<const V extends string>(values: readonly V[]): Field<V> {
  const expected = values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;
  return { check: (value, path, problem) => !(values as readonly unknown[]).includes(value) && problem(path, `expected ${expected}, got ${describe(value)}`) };
}

export function whole(min: number, unit?: string): Field<number> {
  const expected = unit === undefined ? `a whole number of at least ${min}` : `a whole number of ${unit}, at least ${min}`;
  return { check: (value, path, problem) => !(Number.isInteger(value) && (value as number) >= min) && problem(path, `expected ${expected}, got ${describe(value)}`) };
}

/** Milliseconds a timer waits: at least 1, and no longer than setTimeout can. */
export function timeout(): Field<number> {
  const base = whole(1);
  return {
    check(value, path, problem) {
      base.check(value, path, problem);
      if (typeof value === 'number' && value > MAX_TIMEOUT_MS) problem(path, `at most ${MAX_TIMEOUT_MS} ms (about 24 days)`);
    },
  };
}

/** A TCP port; 0 lets the system pick a free one. */
export function port(): Field<number> {
  return { check: (value, path, problem) => !(Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65535) && problem(path, `expected a port number from 0 to 65535, got ${describe(value)}`) };
}

/** A list of non-empty texts; `what` names one item in the message. */
export function texts(what: string): Field<string[]> {
  return {
    check: (value, path, problem) => !(Array.isArray(value) && value.every((item) => typeof item === 'string' && item !== '')) && problem(path, `expected a list of ${what}, got ${describe(value)}`),
  };
}

/** Web origins, each `scheme://host[:port]` with no path, as a browser sends them in `Origin`. */
export function origins(): Field<string[]> {
  const list = texts('origins (such as "https://app.example")');
  return {
    check(value, path, problem) {
      list.check(value, path, problem);
      if (!Array.isArray(value)) return;
      value.forEach((item, index) => {
        if (typeof item === 'string' && item !== '' && originOf(item) !== item) problem([...path, index], `expected an origin such as "https://app.example" (scheme, host and port, no path or trailing slash), got ${describe(item)}`);
      });
    },
  };
}

function originOf(text: string): string | undefined {
  try {
    return new URL(text).origin;
  } catch {
    return undefined;
  }
}

export function folders(): Field<string[]> {
  return {
    check: (value, path, problem) =>
      !(Array.isArray(value) && value.every((item) => typeof item === 'string' && item !== '')) && problem(path, `expected a list of folder paths, got ${describe(value)}`),
  };
}

/**
 * A mapping whose declared keys are checked by `fields`; other keys pass (a tool reads its own, and
 * a setting a newer Riverse knows is no error for this one). Empty (null) is no section.
 * `what` describes it in the message; by default its keys.
 */
export function section<T>(fields: Fields<T>, what = `a mapping (${Object.keys(fields).join(', ')})`): Field<T> {
  return {
    check(value, path, problem) {
      if (value === null) return;
      if (!isMapping(value)) return problem(path, `expected ${what}, got ${describe(value)}`);
      checkFields(value, fields as Record<string, Field<unknown>>, path, problem);
    },
  };
}

/** Each declared key of `value` that is set, checked by its field. */
export function checkFields(value: Record<string, unknown>, fields: Record<string, Field<unknown>>, path: ConfigPath, problem: ReportProblem): void {
  for (const [key, field] of Object.entries(fields)) if (value[key] !== undefined) field.check(value[key], [...path, key], problem);
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as the messages name it: `string "yes"`, `a list`, `nothing`. */
export function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'nothing';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}
