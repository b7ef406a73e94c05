import { MAX_ARGUMENT_CHARS, readArguments } from './argument-limits.ts';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { allowsNull, setField, type SchemaNode } from '../schema/schema-node.ts';
import type { JsonSchema } from './parameter-schema.ts';
import { toolSignature, describeParameters } from './tool-signature.ts';
import type { ToolManifest } from '../tools/tool-manifest.ts';
import type { Language } from '../core/language.ts';
import { closestWord } from '../core/closest-word.ts';
import { renderPhrase, type Phrase } from '../core/phrase.ts';
import { phrase } from './runtime-phrases.ts';
import { isPlainObject } from './validate-manifest.ts';
import { keptValidator, validatorsKept } from './kept-validators.ts';

/** A refused call: the error a model reads (English), and its problems, to be explained in another language. */
export type ParamsCheck =
  | { ok: true; params: Record<string, unknown> }
  | { ok: false; error: string; problems: Problem[] };
/** A phrase, or text that is not ours to translate (a limit's, Ajv's). */
type Problem = string | Phrase;
export type ParamsChecker = (params: unknown) => ParamsCheck;

type AjvInstance = InstanceType<typeof import('ajv').Ajv>;
const require = createRequire(import.meta.url);
/** Ajv loads on the first check (it takes tens of ms): listing or loading tools does not pay for it. */
function newAjv(options: ConstructorParameters<typeof import('ajv').Ajv>[0]): AjvInstance {
  // Not `new (require('ajv') as …).Ajv()`: tsc 7 drops those parentheses when it emits the package.
  const { Ajv } = require('ajv') as typeof import('ajv');
  // The generated code is kept, for kept-validators.ts to write out.
  return new Ajv({ ...options, code: { source: true } });
}

/** Ajv's standalone code of a validator it compiled: a CommonJS module that exports it. */
function standaloneOf(instance: AjvInstance, validate: ValidateFunction): string {
  const standaloneCode = (require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js'))
    .default;
  return standaloneCode(instance, validate);
}

// One validator for the process: it coerces what models commonly send as strings ("3" → 3,
// "true" → true, "x" → ["x"]) and fills in declared defaults.
let ajv: AjvInstance | undefined;

/**
 * Schemas are checked against the meta-schema only when they come from elsewhere (an MCP server's):
 * compiling the meta-schema cost a process's first call ~28 ms of CPU, for the schemas Riverse makes
 * from manifests it has validated, which the golden tests hold to valid JSON Schema.
 */
const USUAL_OPTIONS = {
  allErrors: true,
  coerceTypes: 'array',
  useDefaults: true,
  strict: false,
  validateSchema: false,
} as const;
function newUsualAjv(): AjvInstance {
  return newAjv(USUAL_OPTIONS);
}

/**
 * Loads the validators and warms their code generation (about 40 ms the first time), so that a
 * turn's first tool call does not pay for it: called while the model thinks.
 */
export function warmParamsCheckers(): void {
  // Validators kept on disk load without Ajv; one compiled for the first time pays for it then.
  if (validatorsKept()) return;
  ajv ??= newUsualAjv();
  shownAjv ??= newShownAjv();
  const schema = { type: 'object', properties: { warm: { type: 'string' } }, required: ['warm'] };
  ajv.compile(schema);
  ajv.removeSchema(schema);
}

const PARAMS_OPTIONS = { allErrors: true, coerceTypes: 'array', useDefaults: true, strict: false } as const;
let ajv2020: AjvInstance | undefined;

/**
 * A schema's validator: a full JSON Schema given by a manifest (`inputSchema`) or an MCP server is
 * compiled as the draft its `$schema` names, 2020-12 ($anchor, $dynamicRef) or the default (draft-07,
 * which also reads $defs and if/then/else); `$schema` itself is left out, so that no draft is refused by name.
 */
function compileParams(schema: JsonSchema, madeHere: boolean): ValidateFunction {
  const { $schema: draft, ...rest } = schema as JsonSchema & { $schema?: unknown };
  if (typeof draft === 'string' && draft.includes('2020-12')) {
    return keptValidator({ draft: '2020-12', ...PARAMS_OPTIONS }, rest, () => {
      if (ajv2020 === undefined) {
        const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
        ajv2020 = new Ajv2020({ ...PARAMS_OPTIONS, code: { source: true } }) as unknown as AjvInstance;
      }
      const validate = ajv2020.compile(rest);
      return { validate, standalone: () => standaloneOf(ajv2020!, validate) };
    });
  }
  const compiled = draft === undefined ? schema : rest;
  // A schema from elsewhere is kept only once it passed the meta-schema check below.
  return keptValidator({ ...USUAL_OPTIONS, madeHere }, compiled, () => {
    ajv ??= newUsualAjv();
    // Throws as Ajv would with `validateSchema` on ("schema is invalid: …").
    if (!madeHere) ajv.validateSchema(compiled, true);
    const validate = ajv.compile(compiled);
    return { validate, standalone: () => standaloneOf(ajv!, validate) };
  });
}

/**
 * Compiles `schema` (the one the model is shown) into a checker that returns the coerced
 * parameters, or an error written so that a model can correct its call.
 */
export function createParamsChecker(
  manifest: ToolManifest,
  schema: JsonSchema,
  options: { madeHere?: boolean } = {},
): ParamsChecker {
  const validate = compileParams(schema, options.madeHere === true);
  const properties = schema.properties ?? {};
  return (given) => {
    const read = readArguments(given ?? {});
    if (!read.ok) return refused(manifest, [read.problem]);
    const input = read.value;
    if (!isPlainObject(input)) return refused(manifest, [phrase('params.not-object', { got: describe(input) })]);
    let params: Record<string, unknown> = {};
    let parsed = false;
    for (const [name, value] of Object.entries(input)) {
      // Models send null for optional parameters they mean to leave out. For a required one, null
      // is a missing value: left in, the validator would coerce it to "", 0 or false and accept it.
      if (value === null) continue;
      const item = parseJsonString(value, Object.hasOwn(properties, name) ? properties[name]!.type : undefined);
      parsed ||= item !== value;
      setField(params, name, item);
    }
    if (parsed) {
      // A short string of JSON text can hold thousands of levels of nesting.
      const again = readArguments(params);
      if (!again.ok) return refused(manifest, [again.problem]);
      params = again.value as Record<string, unknown>;
    }
    if (validate(params)) return { ok: true, params };
    return refused(manifest, describeErrors(validate.errors ?? [], params, Object.keys(properties)));
  };
}

// A second one for the schemas providers are shown (compileSchema's dialects): it coerces alike but
// fills in no defaults, so that it checks exactly what the model saw; the usual check adds them after.
let shownAjv: AjvInstance | undefined;

/**
 * Without the meta-schema: these schemas are made by compileSchema from the tool's own, which the
 * usual validator checks against it, and the golden tests hold every dialect to valid JSON Schema. Compiling the meta-schema again cost each process ~11 ms and ~2 MB.
 */
const SHOWN_OPTIONS = {
  allErrors: true,
  coerceTypes: 'array',
  strict: false,
  validateFormats: false,
  meta: false,
  validateSchema: false,
} as const;
function newShownAjv(): AjvInstance {
  return newAjv(SHOWN_OPTIONS);
}
const shownValidators = new WeakMap<object, ValidateFunction>();

/**
 * Checks arguments against `schema` exactly as a provider showed it to the model (a compiled dialect
 * schema) and returns a coerced copy; the input is left as it was. A null where the schema takes
 * none counts as left out, as above. Compiled once per schema object.
 */
export function checkParamsAgainst(manifest: ToolManifest, schema: SchemaNode, given: unknown): ParamsCheck {
  let validate = shownValidators.get(schema);
  if (validate === undefined) {
    validate = keptValidator(SHOWN_OPTIONS, schema, () => {
      shownAjv ??= newShownAjv();
      const compiled = shownAjv.compile(schema);
      return { validate: compiled, standalone: () => standaloneOf(shownAjv!, compiled) };
    });
    // The WeakMap is the cache: Ajv's own would keep every schema (and reloaded tool) alive.
    shownAjv?.removeSchema(schema);
    shownValidators.set(schema, validate);
  }
  const read = readArguments(given ?? {});
  if (!read.ok) return refused(manifest, [read.problem]);
  const input = read.value;
  if (!isPlainObject(input)) return refused(manifest, [phrase('params.not-object', { got: describe(input) })]);
  const params = copyWithoutNulls(input, schema) as Record<string, unknown>;
  if (validate(params)) return { ok: true, params };
  return refused(manifest, describeErrors(validate.errors ?? [], params, Object.keys(schema.properties ?? {})));
}

/** A deep copy (the validator coerces in place) without the nulls `schema` does not take. */
function copyWithoutNulls(value: unknown, schema: SchemaNode | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => copyWithoutNulls(item, schema?.items));
  if (!isPlainObject(value)) return value;
  // A nullable object in OpenAI strict is `anyOf: [object, null]`.
  const shape =
    schema?.properties !== undefined ? schema : schema?.anyOf?.find((member) => member.properties !== undefined);
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const property =
      shape?.properties !== undefined && Object.hasOwn(shape.properties, name) ? shape.properties[name] : undefined;
    if (item === null && property !== undefined && !allowsNull(property)) continue;
    setField(copy, name, copyWithoutNulls(item, property));
  }
  return copy;
}

/** Arrays and objects often arrive as JSON text (text-protocol models, the command line). */
function parseJsonString(value: unknown, type: string | undefined): unknown {
  // Past the size limit the text is not parsed: the limit check then reports its size.
  if (typeof value !== 'string' || (type !== 'array' && type !== 'object') || value.length > MAX_ARGUMENT_CHARS)
    return value;
  const text = value.trim();
  if (!(text.startsWith('[') || text.startsWith('{'))) return value;
  try {
    return JSON.parse(text);
  } catch {
    return value;
  }
}

function refused(manifest: ToolManifest, problems: Problem[]): ParamsCheck {
  return { ok: false, error: explainInvalidParams(manifest, problems), problems };
}

/**
 * The `invalid-params` error: every problem, then the signature and the parameters, for the model
 * to correct its call — in English for a model, in `language` for a person (`tools run`).
 */
export function explainInvalidParams(
  manifest: ToolManifest,
  problems: readonly Problem[],
  language: Language = 'en',
): string {
  const say = (problem: Problem) => (typeof problem === 'string' ? problem : (renderPhrase(problem, language) ?? ''));
  const unique = [...new Set(problems.map(say))];
  const parameters = describeParameters(manifest, language);
  return [
    say(phrase('params.invalid', { tool: manifest.name })),
    ...unique.map((problem) => `- ${problem}`),
    say(phrase('params.expected', { signature: toolSignature(manifest) })),
    ...(parameters === '' ? [] : [parameters]),
  ].join('\n');
}

function describeErrors(errors: ErrorObject[], params: Record<string, unknown>, known: string[]): Problem[] {
  return errors.map((error) => {
    const path = error.instancePath.slice(1).replaceAll('/', '.');
    switch (error.keyword) {
      case 'required': {
        const name = String(error.params.missingProperty);
        return path === '' ? phrase('params.missing', { name }) : phrase('params.missing-field', { name, path });
      }
      case 'additionalProperties': {
        const name = String(error.params.additionalProperty);
        return path === ''
          ? phrase('params.unknown', { name, near: closestWord(name, known) })
          : phrase('params.unknown-field', { name, path });
      }
      case 'type':
        return phrase('params.wrong-type', {
          path,
          type: String(error.params.type),
          got: describe(valueAt(params, error.instancePath)),
        });
      case 'enum':
        return phrase('params.not-in-enum', {
          path,
          values: (error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', '),
          got: describe(valueAt(params, error.instancePath)),
        });
      default:
        return `"${path}" ${error.message ?? 'is invalid'}`;
    }
  });
}

function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const key of pointer.split('/').slice(1))
    value = (value as Record<string, unknown> | undefined)?.[key.replaceAll('~1', '/').replaceAll('~0', '~')];
  return value;
}

function describe(value: unknown): Phrase {
  if (Array.isArray(value)) return phrase('params.value', { kind: 'array' });
  if (value === null) return phrase('params.value', { kind: 'null' });
  if (typeof value === 'object') return phrase('params.value', { kind: 'object' });
  return phrase('params.value', { kind: typeof value, json: String(JSON.stringify(value)) });
}
