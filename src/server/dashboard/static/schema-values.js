// @ts-check
// What a form field of a tool's parameter reads, checked against the parameter's JSON Schema
// before anything is sent. Errors are message keys (messages.js) with their placeholders. No DOM
// here: the tests run it in Node.

/** @import { MessageKey } from './messages.js' */
/** @import { MessageVars } from './i18n.js' */
/**
 * A tool's parameters as /api/tools gives them: JSON Schema, the parts the form reads. The checks
 * below still look at each value's type: a schema is the tool author's, sent as it is.
 * @typedef {object} JsonSchema
 * @property {string | string[]} [type]
 * @property {unknown[]} [enum]
 * @property {string[]} [enumNames] labels of `enum` (MCP's older form)
 * @property {JsonSchema[]} [oneOf] choices as `{ const, title }` (MCP's titled choices)
 * @property {JsonSchema[]} [anyOf] the same, for the items of a list of choices
 * @property {unknown} [const]
 * @property {string} [title]
 * @property {unknown} [default]
 * @property {string} [description]
 * @property {Record<string, JsonSchema | undefined>} [properties]
 * @property {JsonSchema} [items]
 * @property {number} [minItems]
 * @property {number} [maxItems]
 * @property {string[]} [required]
 * @property {number} [minimum]
 * @property {number} [maximum]
 * @property {number} [exclusiveMinimum]
 * @property {number} [exclusiveMaximum]
 * @property {number} [minLength]
 * @property {number} [maxLength]
 * @property {string} [pattern]
 */
/**
 * What a field reads: its value, nothing (left out), or what is wrong.
 * @typedef {{ value: unknown } | { omit: true } | FieldError} FieldResult
 */
/** @typedef {{ error: MessageKey, vars?: MessageVars }} FieldError */
/** @typedef {'enum' | 'enum-array' | 'boolean' | 'integer' | 'number' | 'string' | 'json'} FieldKind */

/**
 * The input a parameter gets: a choice, a checkbox per choice (a list of choices), a checkbox, a
 * number, a line of text, or JSON text.
 * @param {JsonSchema | undefined} schema
 * @returns {FieldKind}
 */
export function fieldKind(schema) {
  if (choiceList(schema) !== undefined) return 'enum';
  const type = mainType(schema);
  if (type === 'array' && choiceList(schema?.items) !== undefined) return 'enum-array';
  if (type === 'boolean' || type === 'integer' || type === 'number' || type === 'string') return type;
  return 'json';
}

/**
 * A schema's choices and their labels: `enum` (labelled by `enumNames`), or `oneOf`/`anyOf` whose
 * every entry is a `const` (labelled by its `title`); undefined when it offers none.
 * @param {JsonSchema | undefined} schema
 * @returns {{ values: unknown[], labels: string[] } | undefined}
 */
export function choiceList(schema) {
  const text = (/** @type {unknown} */ value) => (typeof value === 'string' ? value : JSON.stringify(value));
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return { values: schema.enum, labels: schema.enum.map((value, index) => names[index] ?? text(value)) };
  }
  const options = Array.isArray(schema?.oneOf) ? schema.oneOf : Array.isArray(schema?.anyOf) ? schema.anyOf : [];
  if (
    options.length === 0 ||
    !options.every((option) => option !== null && typeof option === 'object' && 'const' in option)
  )
    return undefined;
  return {
    values: options.map((option) => option.const),
    labels: options.map((option) => (typeof option.title === 'string' ? option.title : text(option.const))),
  };
}

/**
 * The schema's type, leaving out `null` (`["string", "null"]` is a string that may be left out).
 * @param {JsonSchema | undefined} schema
 */
export function mainType(schema) {
  const type = schema?.type;
  if (Array.isArray(type)) return type.find((item) => item !== 'null');
  return typeof type === 'string' ? type : undefined;
}

/**
 * The value of one field: `{ value }`, `{ omit: true }` for an optional field left empty, or
 * `{ error, vars }`. `raw` is the input's text, the chosen option's index for an enum, the
 * indexes of the checked choices for a list of choices, or a boolean for a checkbox.
 * @param {JsonSchema} schema
 * @param {unknown} raw
 * @param {boolean} required
 * @returns {FieldResult}
 * @public dashboard-static.test.ts reads it by the file's path
 */
export function readField(schema, raw, required) {
  const kind = fieldKind(schema);
  if (kind === 'boolean') {
    if (raw === true) return { value: true };
    return required || schema.default === true ? { value: false } : { omit: true };
  }
  if (kind === 'enum-array') return readChoices(schema, raw, required);
  const text = typeof raw === 'string' ? raw : '';
  if (text.trim() === '' && !(kind === 'string' && text !== ''))
    return required ? { error: 'fieldRequired' } : { omit: true };
  switch (kind) {
    case 'enum': {
      const index = Number(text);
      const choices = choiceList(schema)?.values ?? []; // fieldKind saw them
      if (!Number.isInteger(index) || index < 0 || index >= choices.length) return { error: 'fieldChoose' };
      return { value: choices[index] };
    }
    case 'integer':
    case 'number':
      return readNumber(schema, text.trim(), kind);
    case 'string':
      return readString(schema, text);
    default:
      return readJson(schema, text);
  }
}

/**
 * Reads every property of an object schema: `{ params }` or `{ errors: { name: {error, vars} } }`.
 * @param {JsonSchema} schema
 * @param {Record<string, unknown>} raws
 * @returns {{ params: Record<string, unknown>, errors?: undefined }
 *   | { errors: Record<string, FieldError>, params?: undefined }}
 */
export function readParams(schema, raws) {
  const properties = schema?.properties ?? {};
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  /** @type {Record<string, unknown>} */
  const params = {};
  /** @type {Record<string, FieldError>} */
  const errors = {};
  for (const [name, property] of Object.entries(properties)) {
    const result = readField(property ?? {}, raws[name], required.has(name));
    if ('error' in result) errors[name] = result;
    else if (!('omit' in result)) params[name] = result.value;
  }
  return Object.keys(errors).length > 0 ? { errors } : { params };
}

/**
 * The checked choices of a list, in the schema's order; none checked leaves an optional list out.
 * @param {JsonSchema} schema
 * @param {unknown} raw
 * @param {boolean} required
 * @returns {FieldResult}
 */
function readChoices(schema, raw, required) {
  const choices = choiceList(schema.items)?.values ?? []; // fieldKind saw them
  const picked = (Array.isArray(raw) ? raw : [])
    .filter((index) => Number.isInteger(index) && index >= 0 && index < choices.length)
    .sort((a, b) => a - b);
  if (picked.length === 0 && !required && schema.default === undefined) return { omit: true };
  if (typeof schema.minItems === 'number' && picked.length < schema.minItems)
    return { error: picked.length === 0 ? 'fieldRequired' : 'fieldChooseAtLeast', vars: { min: schema.minItems } };
  if (typeof schema.maxItems === 'number' && picked.length > schema.maxItems)
    return { error: 'fieldChooseAtMost', vars: { max: schema.maxItems } };
  return { value: picked.map((index) => choices[index]) };
}

/**
 * @param {JsonSchema} schema
 * @param {string} text
 * @param {'integer' | 'number'} kind
 * @returns {FieldResult}
 */
function readNumber(schema, text, kind) {
  const value = Number(text);
  if (!Number.isFinite(value)) return { error: 'fieldNotNumber' };
  if (kind === 'integer' && !Number.isInteger(value)) return { error: 'fieldNotInteger' };
  if (typeof schema.minimum === 'number' && value < schema.minimum)
    return { error: 'fieldTooSmall', vars: { min: schema.minimum } };
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
    return { error: 'fieldAbove', vars: { min: schema.exclusiveMinimum } };
  if (typeof schema.maximum === 'number' && value > schema.maximum)
    return { error: 'fieldTooLarge', vars: { max: schema.maximum } };
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum)
    return { error: 'fieldBelow', vars: { max: schema.exclusiveMaximum } };
  return { value };
}

/**
 * @param {JsonSchema} schema
 * @param {string} text
 * @returns {FieldResult}
 */
function readString(schema, text) {
  const length = [...text].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength)
    return { error: 'fieldTooShort', vars: { min: schema.minLength } };
  if (typeof schema.maxLength === 'number' && length > schema.maxLength)
    return { error: 'fieldTooLong', vars: { max: schema.maxLength } };
  if (typeof schema.pattern === 'string') {
    let pattern;
    try {
      pattern = new RegExp(schema.pattern, 'u');
    } catch {
      pattern = undefined; // a pattern JavaScript cannot read is left to the server's check
    }
    if (pattern !== undefined && !pattern.test(text))
      return { error: 'fieldPattern', vars: { pattern: schema.pattern } };
  }
  return { value: text };
}

/**
 * @param {JsonSchema} schema
 * @param {string} text
 * @returns {FieldResult}
 */
function readJson(schema, text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: 'fieldNotJson', vars: { reason: error instanceof Error ? error.message : String(error) } };
  }
  const type = mainType(schema);
  if (type !== undefined && !hasType(value, type)) return { error: 'fieldWrongType', vars: { type } };
  return { value };
}

/**
 * @param {unknown} value
 * @param {string} type
 */
function hasType(value, type) {
  switch (type) {
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}
