import { TOOLS_SETTINGS } from '../tools/app-config.ts';

export interface ConfigProblem {
  path: (string | number)[];
  message: string;
}

/** Checks the keys Riverse itself reads; tool sections may hold anything else their tool reads. */
export function validateConfig(config: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const problem = (path: (string | number)[], message: string) => problems.push({ path, message });
  if (!isObject(config)) {
    problem([], `the file must hold a mapping of settings (key: value), got ${describe(config)}`);
    return problems;
  }
  if (config.tools === undefined || config.tools === null) return problems;
  const tools = config.tools;
  if (!isObject(tools)) {
    problem(['tools'], `expected a mapping (enabled, dirs, and one section per tool), got ${describe(tools)}`);
    return problems;
  }
  if (tools.enabled !== undefined && typeof tools.enabled !== 'boolean') problem(['tools', 'enabled'], `expected true or false, got ${describe(tools.enabled)}`);
  if (tools.dirs !== undefined && !(Array.isArray(tools.dirs) && tools.dirs.every((dir) => typeof dir === 'string' && dir !== ''))) {
    problem(['tools', 'dirs'], `expected a list of folder paths, got ${describe(tools.dirs)}`);
  }
  for (const key of ['timeout_ms', 'max_result_chars'] as const) {
    const value = tools[key];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) > 0)) problem(['tools', key], `expected a positive whole number, got ${describe(value)}`);
  }
  for (const [name, section] of Object.entries(tools)) {
    if ((TOOLS_SETTINGS as readonly string[]).includes(name) || section === null) continue;
    if (!isObject(section)) {
      problem(['tools', name], `expected the tool's section (a mapping such as "enabled: false"), got ${describe(section)}`);
      continue;
    }
    if (section.enabled !== undefined && typeof section.enabled !== 'boolean') problem(['tools', name, 'enabled'], `expected true or false, got ${describe(section.enabled)}`);
  }
  return problems;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'nothing';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}
