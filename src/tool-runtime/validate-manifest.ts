import { TOOLS_SETTINGS } from '../tools/app-config.ts';
import { approvalSettingProblem } from '../tools/approval-policy.ts';
import { closestWord } from '../core/closest-word.ts';
import { defaultMisfit } from './default-fit.ts';
import { schemaCompileProblem } from './check-output.ts';
import { english, type Phrase } from '../core/phrase.ts';
import { phrase } from './runtime-phrases.ts';
import { ANNOTATION_HINTS, PARAMETER_TYPES, type ParameterSpec, type ParameterType } from '../tools/tool-manifest.ts';
import { isLanguage, LANGUAGES } from '../core/language.ts';
import { checkQuestion } from '../tools/tool-context.ts';

export interface ManifestProblem {
  severity: 'error' | 'warning';
  /** Where in the manifest, e.g. `parameters.city.type`. */
  path: string;
  /** In English; `text` is the same as a phrase, for other languages. */
  message: string;
  text?: Phrase;
}

const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
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
export const MANIFEST_KEYS = [
  'name',
  'description',
  'parameters',
  'examples',
  'timeoutMs',
  'exclusive',
  'approval',
  'offByDefault',
  'annotations',
  'inputSchema',
  'input_schema',
  'output',
  'long_running',
  'asks_first',
];
const SPEC_KEYS = ['description', 'type', 'required', 'enum', 'default', 'items', 'properties'];

/**
 * The most a manifest may hold, as JSON: it goes to the model with every request (a rich tool with
 * localized descriptions, a dozen parameters and examples in three languages is 3–6 thousand).
 */
const MAX_MANIFEST_CHARS = 32_000;

/** Its length as JSON; 0 when it cannot be written as JSON (other checks say why). */
function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

/** Checks a value returned by `manifest()`. Errors keep the tool out of the registry; warnings do not. */
export function validateManifest(manifest: unknown): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const error = (path: string, text: Phrase) =>
    problems.push({ severity: 'error', path, message: english(text), text });
  const warn = (path: string, text: Phrase) =>
    problems.push({ severity: 'warning', path, message: english(text), text });

  if (!isPlainObject(manifest)) {
    error('', phrase('manifest.not-object', { got: typeof manifest === 'object' ? 'null-or-array' : typeof manifest }));
    return problems;
  }
  for (const key of Object.keys(manifest)) {
    if (!MANIFEST_KEYS.includes(key))
      warn(key, phrase('manifest.unknown-field', { key, near: closestWord(key, MANIFEST_KEYS) }));
  }
  const chars = jsonLength(manifest);
  if (chars > MAX_MANIFEST_CHARS) error('', phrase('manifest.too-large', { chars, max: MAX_MANIFEST_CHARS }));

  const { name, description, parameters, examples, timeoutMs, exclusive, approval, offByDefault, annotations } =
    manifest;
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    error('name', phrase('manifest.name-invalid', { name: String(JSON.stringify(name)) }));
  } else if ((TOOLS_SETTINGS as readonly string[]).includes(name)) {
    error('name', phrase('manifest.name-is-setting', { name }));
  } else if (OBJECT_INTERNALS.has(name)) {
    error('name', phrase('manifest.name-internal', { name, instead: name.replace(/^_+|_+$/g, '') }));
  } else if (!PORTABLE_TOOL_NAME_PATTERN.test(name)) {
    warn('name', phrase('manifest.name-not-portable', { name, first: name[0]! }));
  }
  checkText(description, 'description', error);
  if (parameters !== undefined) {
    if (!isPlainObject(parameters)) error('parameters', phrase('manifest.parameters-not-object'));
    else checkParameters(parameters, 'parameters', error);
  }
  checkSchemas(manifest, error);
  checkExamples(examples, error, warn);
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    error('timeoutMs', phrase('manifest.timeout-invalid', { got: String(JSON.stringify(timeoutMs)) }));
  }
  if (exclusive !== undefined && typeof exclusive !== 'boolean')
    error('exclusive', phrase('manifest.exclusive-invalid', { got: String(JSON.stringify(exclusive)) }));
  if (offByDefault !== undefined && typeof offByDefault !== 'boolean')
    error(
      'offByDefault',
      phrase('manifest.exclusive-invalid', { got: String(JSON.stringify(offByDefault)), key: 'offByDefault' }),
    );
  const longRunning = manifest.long_running;
  if (longRunning !== undefined && longRunning !== 'optional' && longRunning !== 'required')
    error('long_running', phrase('manifest.long-running-invalid', { got: String(JSON.stringify(longRunning)) }));
  if (manifest.asks_first !== undefined) checkAsksFirst(manifest.asks_first, longRunning !== undefined, error);
  if (approval !== undefined) checkApproval(approval, isPlainObject(parameters) ? parameters : {}, error, warn);
  if (annotations !== undefined) checkAnnotations(annotations, error);
  return problems;
}

type Report = (path: string, text: Phrase) => void;

/** The most questions a call may ask before it becomes a task. */
const MAX_ASKS_FIRST = 10;

/** `asks_first`: questions as `context.ask` takes them, each with a key of its own, for a long_running tool. */
function checkAsksFirst(asks: unknown, longRunning: boolean, error: Report): void {
  if (!longRunning) error('asks_first', phrase('manifest.asks-first-needs-task'));
  if (!Array.isArray(asks) || asks.length === 0 || asks.length > MAX_ASKS_FIRST) {
    error('asks_first', phrase('manifest.asks-first-invalid', { at: 'asks_first', why: 'not a list of 1 to 10' }));
    return;
  }
  const keys = new Set<string>();
  asks.forEach((ask: unknown, index) => {
    const at = `asks_first[${index}]`;
    if (!isPlainObject(ask) || typeof ask.key !== 'string') {
      error(at, phrase('manifest.asks-first-invalid', { at, why: 'each needs a key and a question' }));
      return;
    }
    const { question, ...options } = ask;
    const checked = checkQuestion(question, options);
    if (typeof checked === 'string') error(at, phrase('manifest.asks-first-invalid', { at, why: checked }));
    else if (keys.has(ask.key))
      error(at, phrase('manifest.asks-first-invalid', { at, why: `the key ${ask.key} is taken by an earlier one` }));
    keys.add(ask.key);
  });
}

/** `inputSchema` (or `input_schema`) and `output`: JSON Schema objects the validator compiles, the parameters given one way only. */
function checkSchemas(manifest: Record<string, unknown>, error: Report): void {
  const given = ['parameters', 'inputSchema', 'input_schema'].filter((key) => manifest[key] !== undefined);
  if (given.length > 1) error(given[1]!, phrase('manifest.schema-twice', { keys: given.join(', ') }));
  for (const key of ['inputSchema', 'input_schema', 'output']) {
    const schema = manifest[key];
    if (schema === undefined) continue;
    if (!isPlainObject(schema)) {
      error(key, phrase('manifest.schema-not-object', { key }));
      continue;
    }
    if (key !== 'output' && schema.type !== 'object')
      error(`${key}.type`, phrase('manifest.schema-top', { key, got: String(JSON.stringify(schema.type)) }));
    const why = schemaCompileProblem(schema);
    if (why !== undefined) error(key, phrase('manifest.schema-invalid', { key, why }));
  }
}

function checkApproval(approval: unknown, parameters: Record<string, unknown>, error: Report, warn: Report): void {
  const problem = approvalSettingProblem(approval, 'approval');
  if (problem !== undefined) {
    if (problem.regexError !== undefined)
      error(problem.at, phrase('manifest.approval-regex', { at: problem.at, error: problem.regexError }));
    else error(problem.at, phrase('manifest.approval-invalid', { at: problem.at, got: problem.got }));
    return;
  }
  if (typeof approval !== 'object' || approval === null) return;
  const when = (approval as { when: unknown }).when;
  for (const condition of (Array.isArray(when) ? when : [when]) as Array<{ param: string }>) {
    // A rule on a parameter the tool does not have never holds: the call would run unasked.
    if (!Object.hasOwn(parameters, condition.param))
      warn(
        'approval',
        phrase('manifest.approval-unknown-param', {
          param: condition.param,
          near: closestWord(condition.param, Object.keys(parameters)),
        }),
      );
  }
}

function checkAnnotations(annotations: unknown, error: Report): void {
  const keys = ['title', ...ANNOTATION_HINTS];
  if (!isPlainObject(annotations)) {
    error('annotations', phrase('manifest.annotations-invalid', { keys: keys.join(', ') }));
    return;
  }
  for (const [key, value] of Object.entries(annotations)) {
    const path = `annotations.${key}`;
    if (!keys.includes(key))
      error(path, phrase('manifest.annotations-invalid', { keys: keys.join(', '), near: closestWord(key, keys) }));
    else if (key === 'title' ? typeof value !== 'string' || value.trim() === '' : typeof value !== 'boolean') {
      error(
        path,
        key === 'title'
          ? phrase('manifest.text-not-string', { path })
          : phrase('manifest.exclusive-invalid', { got: String(JSON.stringify(value)), key: path }),
      );
    }
  }
}

function checkText(value: unknown, path: string, error: Report, required = true): void {
  if (typeof value === 'string') {
    if (required && value.trim() === '') error(path, phrase('manifest.text-empty', { path }));
    return;
  }
  if (value === undefined && !required) return;
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    for (const [language, text] of entries) {
      if (!isLanguage(language))
        error(
          `${path}.${language}`,
          phrase('manifest.unknown-language', { language, languages: LANGUAGES.join(', ') }),
        );
      else if (typeof text !== 'string')
        error(`${path}.${language}`, phrase('manifest.text-not-string', { path: `${path}.${language}` }));
    }
    if (required && !entries.some(([, text]) => typeof text === 'string' && text.trim() !== ''))
      error(path, phrase('manifest.text-no-language', { path }));
    return;
  }
  error(path, phrase('manifest.text-wrong-type', value === undefined ? { path } : { path, got: typeof value }));
}

function checkExamples(examples: unknown, error: Report, warn: Report): void {
  const lists = Array.isArray(examples)
    ? [['examples', examples] as const]
    : isPlainObject(examples)
      ? Object.entries(examples).map(([language, list]) => [`examples.${language}`, list] as const)
      : [];
  if (examples !== undefined && lists.length === 0 && !isPlainObject(examples)) {
    error('examples', phrase('manifest.examples-wrong-type'));
    return;
  }
  for (const [path, list] of lists) {
    const language = path.split('.')[1];
    if (language !== undefined && !isLanguage(language))
      error(path, phrase('manifest.unknown-language', { language, languages: LANGUAGES.join(', ') }));
    else if (!Array.isArray(list) || list.some((example) => typeof example !== 'string' || example.trim() === ''))
      error(path, phrase('manifest.examples-not-strings', { path }));
  }
  const count = Math.max(0, ...lists.map(([, list]) => (Array.isArray(list) ? list.length : 0)));
  if (count < 2) warn('examples', phrase('manifest.examples-few', { count }));
}

function checkParameters(parameters: Record<string, unknown>, path: string, error: Report): void {
  for (const [name, spec] of Object.entries(parameters)) {
    const at = `${path}.${name}`;
    if (!PARAMETER_NAME_PATTERN.test(name)) error(at, phrase('manifest.parameter-name-invalid', { name }));
    else if (OBJECT_INTERNALS.has(name)) {
      error(at, phrase('manifest.parameter-name-internal', { name, instead: name.replace(/^_+|_+$/g, '') }));
    }
    if (typeof spec === 'string') continue;
    if (!isPlainObject(spec)) {
      error(at, phrase('manifest.spec-wrong-type', { at, got: spec === null ? 'null' : typeof spec }));
      continue;
    }
    checkSpec(spec, at, error);
  }
}

function checkSpec(spec: Record<string, unknown>, at: string, report: Report): void {
  let clean = true;
  const error: Report = (path, text) => {
    clean = false;
    report(path, text);
  };
  for (const key of Object.keys(spec)) {
    if (!SPEC_KEYS.includes(key))
      error(
        `${at}.${key}`,
        phrase('manifest.spec-unknown-field', {
          key,
          near: closestWord(key, SPEC_KEYS),
          at,
          keys: SPEC_KEYS.join(', '),
        }),
      );
  }
  checkText(spec.description, `${at}.description`, error, false);
  // A wrong type is reported, and the rest of the spec is still checked (so that one run of
  // `tools check` lists every problem); only the checks that need the type are skipped.
  const given = spec.type ?? 'string';
  const type = (PARAMETER_TYPES as readonly unknown[]).includes(given) ? (given as ParameterType) : undefined;
  if (type === undefined)
    error(
      `${at}.type`,
      phrase('manifest.type-invalid', {
        given: String(JSON.stringify(given)),
        types: PARAMETER_TYPES.join(', '),
        near: typeof given === 'string' ? closestWord(given, PARAMETER_TYPES) : undefined,
      }),
    );
  if (spec.required !== undefined && typeof spec.required !== 'boolean')
    error(`${at}.required`, phrase('manifest.required-invalid', { got: String(JSON.stringify(spec.required)) }));
  if (spec.enum !== undefined) {
    if (!Array.isArray(spec.enum) || spec.enum.length === 0) error(`${at}.enum`, phrase('manifest.enum-empty'));
    else if (type !== undefined) {
      const wrong = spec.enum.find((value) => !matchesType(value, type));
      if (wrong !== undefined)
        error(`${at}.enum`, phrase('manifest.enum-wrong-type', { value: String(JSON.stringify(wrong)), type }));
    }
  }
  if (spec.default !== undefined && type !== undefined) {
    if (!matchesType(spec.default, type))
      error(
        `${at}.default`,
        phrase('manifest.default-wrong-type', { value: String(JSON.stringify(spec.default)), type }),
      );
    else if (Array.isArray(spec.enum) && !spec.enum.includes(spec.default))
      error(`${at}.default`, phrase('manifest.default-not-in-enum', { value: String(JSON.stringify(spec.default)) }));
  }
  if (spec.items !== undefined) {
    if (type !== 'array' && type !== undefined) error(`${at}.items`, phrase('manifest.items-not-array', { at, type }));
    else if (isPlainObject(spec.items)) checkSpec(spec.items, `${at}.items`, error);
    else if (typeof spec.items !== 'string') error(`${at}.items`, phrase('manifest.items-invalid'));
  }
  if (spec.properties !== undefined) {
    if (type !== 'object' && type !== undefined)
      error(`${at}.properties`, phrase('manifest.properties-not-object', { at, type }));
    else if (!isPlainObject(spec.properties)) error(`${at}.properties`, phrase('manifest.properties-invalid'));
    else checkParameters(spec.properties, `${at}.properties`, error);
  }
  // Only a spec that is right otherwise can say whether its list or object default fits it.
  if (clean && (type === 'array' || type === 'object') && spec.default !== undefined) {
    const misfit = defaultMisfit(spec as ParameterSpec);
    if (misfit !== undefined)
      report(
        `${at}.default`,
        phrase('manifest.default-misfit', { value: String(JSON.stringify(spec.default)), at, why: misfit }),
      );
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
