/*
 * The kinds of value riverse.yaml holds, each with its check and the message that says what was
 * expected. A table of these (riverse-config.ts) is typed against the settings types the code
 * reads, so that a key cannot be read without being checked, or checked as another type.
 */

import type { Phrase } from '../core/phrase.ts';
import { phrase } from './config-phrases.ts';

export type ConfigPath = (string | number)[];
export type ReportProblem = (path: ConfigPath, text: Phrase) => void;

/** "expected …, got …": what a setting must be, and a description of what it is (`describe`). */
export const expected = (kind: Phrase, value: unknown): Phrase =>
  phrase('config.expected', { expected: kind, got: describe(value) });

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
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export function text(): Field<string> {
  return {
    check: (value, path, problem) =>
      (typeof value !== 'string' || value === '') && problem(path, expected(phrase('config.kind.text'), value)),
  };
}

export function flag(): Field<boolean> {
  return {
    check: (value, path, problem) =>
      typeof value !== 'boolean' && problem(path, expected(phrase('config.kind.flag'), value)),
  };
}

export function choice<const V extends string>(values: readonly V[]): Field<V> {
  const kind =
    values.length === 2
      ? phrase('config.kind.either', { first: values[0]!, second: values[1]! })
      : phrase('config.kind.one-of', { values: values.join(', ') });
  return {
    check: (value, path, problem) =>
      !(values as readonly unknown[]).includes(value) && problem(path, expected(kind, value)),
  };
}

export function whole(min: number, unit?: Phrase): Field<number> {
  const kind =
    unit === undefined ? phrase('config.kind.whole', { min }) : phrase('config.kind.whole-of', { unit, min });
  return {
    check: (value, path, problem) =>
      !(Number.isInteger(value) && (value as number) >= min) && problem(path, expected(kind, value)),
  };
}

/** Milliseconds a timer waits: at least 1, and no longer than setTimeout can. */
export function timeout(): Field<number> {
  const base = whole(1);
  return {
    check(value, path, problem) {
      base.check(value, path, problem);
      if (typeof value === 'number' && value > MAX_TIMEOUT_MS)
        problem(path, phrase('config.at-most-ms', { max: MAX_TIMEOUT_MS }));
    },
  };
}

/** A TCP port; 0 lets the system pick a free one. */
export function port(): Field<number> {
  return {
    check: (value, path, problem) =>
      !(Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65535) &&
      problem(path, expected(phrase('config.kind.port'), value)),
  };
}

/** A list of non-empty texts; `what` names one item in the message. */
export function texts(what: Phrase): Field<string[]> {
  return {
    check: (value, path, problem) =>
      !(Array.isArray(value) && value.every((item) => typeof item === 'string' && item !== '')) &&
      problem(path, expected(phrase('config.kind.list', { what }), value)),
  };
}

/** Web origins, each `scheme://host[:port]` with no path, as a browser sends them in `Origin`. */
export function origins(): Field<string[]> {
  const list = texts(phrase('config.what.origins'));
  return {
    check(value, path, problem) {
      list.check(value, path, problem);
      if (!Array.isArray(value)) return;
      value.forEach((item, index) => {
        if (typeof item === 'string' && item !== '' && originOf(item) !== item)
          problem([...path, index], expected(phrase('config.kind.origin'), item));
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
  return texts(phrase('config.what.folders'));
}

/**
 * A mapping whose declared keys are checked by `fields`; other keys pass (a tool reads its own, and
 * a setting a newer Riverse knows is no error for this one). Empty (null) is no section.
 * `what` describes it in the message; by default its keys.
 */
export function section<T>(
  fields: Fields<T>,
  what: Phrase = phrase('config.kind.mapping', { keys: Object.keys(fields).join(', ') }),
): Field<T> {
  return {
    check(value, path, problem) {
      if (value === null) return;
      if (!isMapping(value)) return problem(path, expected(what, value));
      checkFields(value, fields as Record<string, Field<unknown>>, path, problem);
    },
  };
}

/** Each declared key of `value` that is set, checked by its field. */
export function checkFields(
  value: Record<string, unknown>,
  fields: Record<string, Field<unknown>>,
  path: ConfigPath,
  problem: ReportProblem,
): void {
  for (const [key, field] of Object.entries(fields))
    if (value[key] !== undefined) field.check(value[key], [...path, key], problem);
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as the messages name it: `string "yes"`, `a list`, `nothing`. */
export function describe(value: unknown): Phrase {
  if (Array.isArray(value)) return phrase('config.got.list');
  if (value === null) return phrase('config.got.nothing');
  if (typeof value === 'object') return phrase('config.got.mapping');
  return phrase('config.got.value', { type: typeof value, value: String(JSON.stringify(value)) });
}
