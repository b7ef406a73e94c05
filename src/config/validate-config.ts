import { checkFields, describe, isMapping, type ConfigPath, type Field } from './config-fields.ts';
import { CONFIG_FIELDS } from './riverse-config.ts';

export interface ConfigProblem {
  path: ConfigPath;
  message: string;
}

/** Checks the keys Riverse itself reads (CONFIG_FIELDS); tool sections may hold anything else their tool reads. */
export function validateConfig(config: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const problem = (path: ConfigPath, message: string) => problems.push({ path, message });
  if (!isMapping(config)) problem([], `the file must hold a mapping of settings (key: value), got ${describe(config)}`);
  else checkFields(config, CONFIG_FIELDS as Record<string, Field<unknown>>, [], problem);
  return problems;
}

