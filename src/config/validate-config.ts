import { TOOLS_SETTINGS } from '../tools/app-config.ts';

const MIN_MEMORY_MB = 16;

/** setTimeout's ceiling. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

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
  checkRiverseSettings(config, problem);
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
  for (const key of ['timeout_ms', 'max_result_chars', 'load_timeout_ms'] as const) {
    const value = tools[key];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) > 0)) problem(['tools', key], `expected a positive whole number, got ${describe(value)}`);
  }
  checkIsolation(['tools', 'isolation'], tools.isolation, problem);
  checkMemory(['tools', 'memory_mb'], tools.memory_mb, problem);
  for (const key of ['timeout_ms', 'load_timeout_ms'] as const) {
    if (typeof tools[key] === 'number' && tools[key] > MAX_TIMEOUT_MS) problem(['tools', key], `at most ${MAX_TIMEOUT_MS} ms (about 24 days)`);
  }
  for (const [name, section] of Object.entries(tools)) {
    if ((TOOLS_SETTINGS as readonly string[]).includes(name) || section === null) continue;
    if (!isObject(section)) {
      problem(['tools', name], `expected the tool's section (a mapping such as "enabled: false"), got ${describe(section)}`);
      continue;
    }
    for (const flag of ['enabled', 'trusted'] as const) {
      if (section[flag] !== undefined && typeof section[flag] !== 'boolean') problem(['tools', name, flag], `expected true or false, got ${describe(section[flag])}`);
    }
    checkIsolation(['tools', name, 'isolation'], section.isolation, problem);
    checkMemory(['tools', name, 'memory_mb'], section.memory_mb, problem);
  }
  return problems;
}

const LANGUAGE_CHOICES = ['auto', 'en', 'zh', 'ja'];

/** The settings of the assistant itself: model, model_options, language, data_dir, assistant. */
function checkRiverseSettings(config: Record<string, unknown>, problem: (path: (string | number)[], message: string) => void): void {
  const text = (path: string[], value: unknown) => {
    if (value !== undefined && (typeof value !== 'string' || value === '')) problem(path, `expected text, got ${describe(value)}`);
  };
  const whole = (path: string[], value: unknown, min: number) => {
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= min)) problem(path, `expected a whole number of at least ${min}, got ${describe(value)}`);
  };
  // A longer timer would fire at once: setTimeout cannot wait more.
  const timeout = (path: string[], value: unknown) => {
    whole(path, value, 1);
    if (typeof value === 'number' && value > MAX_TIMEOUT_MS) problem(path, `at most ${MAX_TIMEOUT_MS} ms (about 24 days)`);
  };
  text(['model'], config.model);
  text(['data_dir'], config.data_dir);
  if (config.language !== undefined && !LANGUAGE_CHOICES.includes(config.language as string)) {
    problem(['language'], `expected one of ${LANGUAGE_CHOICES.join(', ')}, got ${describe(config.language)}`);
  }
  const options = config.model_options;
  if (options !== undefined && options !== null) {
    if (!isObject(options)) problem(['model_options'], `expected a mapping (base_url, api_key, tool_calling, timeout_ms, max_retries, max_reply_chars, max_tool_call_chars), got ${describe(options)}`);
    else {
      text(['model_options', 'base_url'], options.base_url);
      text(['model_options', 'api_key'], options.api_key);
      if (options.tool_calling !== undefined && options.tool_calling !== 'native' && options.tool_calling !== 'text') {
        problem(['model_options', 'tool_calling'], `expected native or text, got ${describe(options.tool_calling)}`);
      }
      timeout(['model_options', 'timeout_ms'], options.timeout_ms);
      whole(['model_options', 'max_retries'], options.max_retries, 0);
      whole(['model_options', 'max_reply_chars'], options.max_reply_chars, 1);
      whole(['model_options', 'max_tool_call_chars'], options.max_tool_call_chars, 1);
    }
  }
  const assistant = config.assistant;
  if (assistant !== undefined && assistant !== null) {
    if (!isObject(assistant)) problem(['assistant'], `expected a mapping (max_rounds, history_tokens, turn_timeout_ms), got ${describe(assistant)}`);
    else {
      whole(['assistant', 'max_rounds'], assistant.max_rounds, 1);
      whole(['assistant', 'history_tokens'], assistant.history_tokens, 1);
      timeout(['assistant', 'turn_timeout_ms'], assistant.turn_timeout_ms);
    }
  }
}

const ISOLATION_CHOICES = ['process', 'worker', 'none'];

function checkIsolation(path: (string | number)[], value: unknown, problem: (path: (string | number)[], message: string) => void): void {
  if (value !== undefined && !ISOLATION_CHOICES.includes(value as string)) problem(path, `expected ${ISOLATION_CHOICES.join(', ')}, got ${describe(value)}`);
}

/** A worker's heap limit: too small a limit aborts the whole process, not just the worker. */
function checkMemory(path: (string | number)[], value: unknown, problem: (path: (string | number)[], message: string) => void): void {
  if (value !== undefined && !(Number.isInteger(value) && (value as number) >= MIN_MEMORY_MB)) problem(path, `expected a whole number of megabytes, at least ${MIN_MEMORY_MB}, got ${describe(value)}`);
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
