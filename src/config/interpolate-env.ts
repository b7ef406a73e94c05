import type { Phrase } from '../core/phrase.ts';
import { phrase } from './config-phrases.ts';

type Problem = (keyPath: (string | number)[], text: Phrase) => void;

const REFERENCE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${NAME}` (and `${NAME:-default}`) in every string with the environment variable, so
 * secrets stay out of the file. `$$` is a literal `$`. An unset variable without a default is a problem.
 */
export function interpolateEnv(
  value: unknown,
  env: NodeJS.ProcessEnv,
  problem: Problem,
  keyPath: (string | number)[] = [],
): unknown {
  if (typeof value === 'string') {
    // A value that is one whole reference takes the variable's type: `enabled: ${FLAG}` can be true.
    const whole = /^\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}$/.test(value);
    const text = value.replace(REFERENCE, (match, name: string | undefined, fallback: string | undefined) => {
      if (name === undefined) return '$';
      const found = env[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      problem(keyPath, phrase('config.env-unset', { name }));
      return match;
    });
    return whole ? scalar(text) : text;
  }
  if (Array.isArray(value)) return value.map((item, index) => interpolateEnv(item, env, problem, [...keyPath, index]));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, interpolateEnv(item, env, problem, [...keyPath, key])]),
    );
  }
  return value;
}

/** `true`/`false` and plain numbers as their types; anything else stays text. */
function scalar(text: string): unknown {
  if (text === 'true' || text === 'false') return text === 'true';
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}
