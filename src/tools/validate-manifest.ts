import { TOOLS_SETTINGS } from './app-config.ts';
import { closestWord } from './closest-word.ts';
import { defaultMisfit } from './default-fit.ts';
import { LANGUAGES, PARAMETER_TYPES, type ParameterSpec, type ParameterType } from './tool-manifest.ts';

export interface ManifestProblem {
  severity: 'error' | 'warning';
  /** Where in the manifest, e.g. `parameters.city.type`. */
  path: string;
  message: string;
}

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
/** What every provider takes: Gemini also wants a letter or "_" first. New tools are held to it. */
export const PORTABLE_TOOL_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;
/** Property names every provider accepts (Anthropic's rule is the strictest). */
const PARAMETER_NAME_PATTERN = /^[a-zA-Z0-9_.-]{1,64}$/;
/**
 * Names every JavaScript object already has (`constructor`, `toString`, `__proto__`…). A parameter
 * named so is never missing (`params.toString` is the inherited function), so it cannot be left out
 * nor checked; a tool named so reads its config section off the prototype. Taken now, before any
 * tool file's top-level code could add to Object.prototype.
 */
const OBJECT_INTERNALS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));
const MANIFEST_KEYS = ['name', 'description', 'parameters', 'examples', 'timeoutMs', 'exclusive'];
const SPEC_KEYS = ['description', 'type', 'required', 'enum', 'default', 'items', 'properties'];

/** Checks a value returned by `manifest()`. Errors keep the tool out of the registry; warnings do not. */
export function validateManifest(manifest: unknown): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const error = (path: string, message: string) => problems.push({ severity: 'error', path, message });
  const warn = (path: string, message: string) => problems.push({ severity: 'warning', path, message });

  if (!isPlainObject(manifest)) {
    error('', `manifest() returned ${typeof manifest === 'object' ? 'null or an array' : typeof manifest}; expected an object { name, description, parameters, examples }`);
    return problems;
  }
  for (const key of Object.keys(manifest)) {
    if (!MANIFEST_KEYS.includes(key)) warn(key, `unknown field "${key}"${suggest(key, MANIFEST_KEYS)}; it is ignored`);
  }

  const { name, description, parameters, examples, timeoutMs, exclusive } = manifest;
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    error('name', `name ${JSON.stringify(name)} is invalid: use 1–64 letters, digits, "_" or "-" (the strictest model provider's rule), e.g. "my_tool"`);
  } else if ((TOOLS_SETTINGS as readonly string[]).includes(name)) {
    error('name', `name "${name}" is also a setting (tools.${name}), so the tool could have no section of its own in the config and could not be turned off alone: choose another name, e.g. "my_${name}"`);
  } else if (OBJECT_INTERNALS.has(name)) {
    error('name', `name "${name}" is a property every JavaScript object has, so the tool's config section (tools.${name}) cannot be told from it: choose another name, e.g. "my_${name.replace(/^_+|_+$/g, '')}"`);
  } else if (!PORTABLE_TOOL_NAME_PATTERN.test(name)) {
    warn('name', `name "${name}" starts with "${name[0]}": Gemini models reject a tool name that does not start with a letter or "_" (e.g. "_${name}")`);
  }
  checkText(description, 'description', error);
  if (parameters !== undefined) {
    if (!isPlainObject(parameters)) error('parameters', 'parameters must be an object mapping each parameter name to a description string or a spec { type, description, required, … }');
    else checkParameters(parameters, 'parameters', error);
  }
  checkExamples(examples, error, warn);
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    error('timeoutMs', `timeoutMs must be a positive number of milliseconds, got ${JSON.stringify(timeoutMs)}`);
  }
  if (exclusive !== undefined && typeof exclusive !== 'boolean') error('exclusive', `exclusive must be true or false, got ${JSON.stringify(exclusive)}`);
  return problems;
}

type Report = (path: string, message: string) => void;

function checkText(value: unknown, path: string, error: Report, required = true): void {
  if (typeof value === 'string') {
    if (required && value.trim() === '') error(path, `${path} is empty: write one sentence that tells the model when to use this`);
    return;
  }
  if (value === undefined && !required) return;
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    for (const [language, text] of entries) {
      if (!(LANGUAGES as readonly string[]).includes(language)) error(`${path}.${language}`, `unknown language "${language}"; use ${LANGUAGES.join(', ')}`);
      else if (typeof text !== 'string') error(`${path}.${language}`, `${path}.${language} must be a string`);
    }
    if (required && !entries.some(([, text]) => typeof text === 'string' && text.trim() !== '')) error(path, `${path} has no text in any language`);
    return;
  }
  error(path, `${path} must be a string or { en, zh, ja } strings${value === undefined ? ', and is missing' : `, got ${typeof value}`}`);
}

function checkExamples(examples: unknown, error: Report, warn: Report): void {
  const lists = Array.isArray(examples) ? [['examples', examples] as const] : isPlainObject(examples) ? Object.entries(examples).map(([language, list]) => [`examples.${language}`, list] as const) : [];
  if (examples !== undefined && lists.length === 0 && !isPlainObject(examples)) {
    error('examples', 'examples must be a list of strings, or { en, zh, ja } lists');
    return;
  }
  for (const [path, list] of lists) {
    const language = path.split('.')[1];
    if (language !== undefined && !(LANGUAGES as readonly string[]).includes(language)) error(path, `unknown language "${language}"; use ${LANGUAGES.join(', ')}`);
    else if (!Array.isArray(list) || list.some((example) => typeof example !== 'string' || example.trim() === '')) error(path, `${path} must be a list of non-empty strings`);
  }
  const count = Math.max(0, ...lists.map(([, list]) => (Array.isArray(list) ? list.length : 0)));
  if (count < 2) warn('examples', `${count === 0 ? 'no examples' : 'only one example'}: add 2–3 messages a user would send that should trigger this tool; models and routing use them`);
}

function checkParameters(parameters: Record<string, unknown>, path: string, error: Report): void {
  for (const [name, spec] of Object.entries(parameters)) {
    const at = `${path}.${name}`;
    if (!PARAMETER_NAME_PATTERN.test(name)) error(at, `parameter name "${name}" is invalid: use 1–64 letters, digits, "_", "." or "-"`);
    else if (OBJECT_INTERNALS.has(name)) {
      error(at, `parameter name "${name}" is a property every JavaScript object has, so \`params.${name}\` is never missing and the call cannot leave it out: rename it, e.g. "${name.replace(/^_+|_+$/g, '')}_value"`);
    }
    if (typeof spec === 'string') continue;
    if (!isPlainObject(spec)) {
      error(at, `${at} must be a description string or a spec { type, description, required, … }, got ${spec === null ? 'null' : typeof spec}`);
      continue;
    }
    checkSpec(spec, at, error);
  }
}

function checkSpec(spec: Record<string, unknown>, at: string, report: Report): void {
  let clean = true;
  const error: Report = (path, message) => {
    clean = false;
    report(path, message);
  };
  for (const key of Object.keys(spec)) {
    if (!SPEC_KEYS.includes(key)) error(`${at}.${key}`, `unknown field "${key}"${suggest(key, SPEC_KEYS)} in ${at}; a spec has ${SPEC_KEYS.join(', ')}`);
  }
  checkText(spec.description, `${at}.description`, error, false);
  // A wrong type is reported, and the rest of the spec is still checked (so that one run of
  // `tools check` lists every problem); only the checks that need the type are skipped.
  const given = spec.type ?? 'string';
  const type = (PARAMETER_TYPES as readonly unknown[]).includes(given) ? (given as ParameterType) : undefined;
  if (type === undefined) error(`${at}.type`, `type ${JSON.stringify(given)} is not one of ${PARAMETER_TYPES.join(', ')}${typeof given === 'string' ? suggest(given, PARAMETER_TYPES) : ''}`);
  if (spec.required !== undefined && typeof spec.required !== 'boolean') error(`${at}.required`, `required must be true or false, got ${JSON.stringify(spec.required)}`);
  if (spec.enum !== undefined) {
    if (!Array.isArray(spec.enum) || spec.enum.length === 0) error(`${at}.enum`, 'enum must be a non-empty list of allowed values');
    else if (type !== undefined) {
      const wrong = spec.enum.find((value) => !matchesType(value, type));
      if (wrong !== undefined) error(`${at}.enum`, `enum value ${JSON.stringify(wrong)} is not a ${type}`);
    }
  }
  if (spec.default !== undefined && type !== undefined) {
    if (!matchesType(spec.default, type)) error(`${at}.default`, `default ${JSON.stringify(spec.default)} is not a ${type}`);
    else if (Array.isArray(spec.enum) && !spec.enum.includes(spec.default)) error(`${at}.default`, `default ${JSON.stringify(spec.default)} is not one of the enum values`);
  }
  if (spec.items !== undefined) {
    if (type !== 'array' && type !== undefined) error(`${at}.items`, `items only applies to type "array"; ${at} is "${type}"`);
    else if (isPlainObject(spec.items)) checkSpec(spec.items, `${at}.items`, error);
    else if (typeof spec.items !== 'string') error(`${at}.items`, 'items must be a description string or a spec { type, description, … }');
  }
  if (spec.properties !== undefined) {
    if (type !== 'object' && type !== undefined) error(`${at}.properties`, `properties only applies to type "object"; ${at} is "${type}"`);
    else if (!isPlainObject(spec.properties)) error(`${at}.properties`, 'properties must map each field name to a description or a spec');
    else checkParameters(spec.properties, `${at}.properties`, error);
  }
  // Only a spec that is right otherwise can say whether its list or object default fits it.
  if (clean && (type === 'array' || type === 'object') && spec.default !== undefined) {
    const misfit = defaultMisfit(spec as ParameterSpec);
    if (misfit !== undefined) report(`${at}.default`, `default ${JSON.stringify(spec.default)} does not fit ${at} itself (${misfit}), so every call that leaves it out would be rejected; fix the default or the spec`);
  }
}

function matchesType(value: unknown, type: ParameterType): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      return typeof value === type;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `; did you mean "x"?` when a known word is one or two edits away. */
export function suggest(word: string, known: readonly string[]): string {
  const close = closestWord(word, known);
  return close === undefined ? '' : ` (did you mean "${close}"?)`;
}
