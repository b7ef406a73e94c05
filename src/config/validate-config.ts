import type { Phrase } from '../core/phrase.ts';
import { phrase } from './config-phrases.ts';
import { checkFields, describe, isMapping, type ConfigPath, type Field } from './config-fields.ts';
import { CONFIG_FIELDS } from './riverse-config.ts';

export interface ConfigProblem {
  path: ConfigPath;
  text: Phrase;
}

/** Checks the keys Riverse itself reads (CONFIG_FIELDS); tool sections may hold anything else their tool reads. */
export function validateConfig(config: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const problem = (path: ConfigPath, text: Phrase) => problems.push({ path, text });
  if (!isMapping(config)) problem([], phrase('config.not-mapping', { got: describe(config) }));
  else checkFields(config, CONFIG_FIELDS as Record<string, Field<unknown>>, [], problem);
  return problems;
}
