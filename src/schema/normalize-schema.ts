import { collapseNullUnion, mergeAllOf, tupleItems } from './normalize-combinators.ts';
import { coerceDefault, fits, uniqueValues, valueTypes, withEnum } from './normalize-values.ts';
import { appendHints, hint } from './schema-hints.ts';
import { inlineRefs } from './inline-refs.ts';
import { readTypes } from './type-names.ts';
import { isRecord, matchesType, type JsonType, type SchemaNode } from './schema-node.ts';

// Constraints by the type they apply to; on another type they mean nothing (and Ajv's strict mode rejects them).
const COUNT_KEYS = [
  ['minLength', 'string'],
  ['maxLength', 'string'],
  ['minItems', 'array'],
  ['maxItems', 'array'],
  ['minProperties', 'object'],
  ['maxProperties', 'object'],
] as const;
const NUMBER_KEYS = ['minimum', 'maximum'] as const;
// Non-standard annotations worth keeping for the model: they go into the description.
const HINT_KEYS = [
  ['unit', 'unit'],
  ['example_values', 'examples'],
  ['choices', 'choices'],
] as const;

/**
 * Turns a schema as catalogs write it into standard JSON Schema: known type aliases mapped,
 * OpenAPI `nullable` and per-property `optional`/`required: true` folded into `type` and
 * `required`, `example` into `examples`, an `enum` that contradicts its `type` retyped from its
 * values (or moved to `items` on an array), defaults that do not fit dropped, invalid patterns and
 * unknown keywords removed. The top is always an object. Idempotent.
 */
export function normalizeSchema(raw: unknown): SchemaNode {
  // A tool takes one object of named arguments, whatever the source wrote at the top; what its `$ref`s point at is written in place.
  const inlined = inlineRefs(raw);
  const { nullable: _nullable, enum: _enum, const: _const, ...top } = isRecord(inlined) ? inlined : {};
  const { items: _items, default: _default, anyOf: _anyOf, ...root } = normalizeNode({ ...top, type: 'object' });
  return { ...root, type: 'object', properties: root.properties ?? {} };
}

const normalized = new WeakMap<object, SchemaNode>();

/**
 * normalizeSchema, once per schema object (a loaded tool's schema does not change): the dialect
 * compilers and normalizeArguments, which runs on every call, share it. Treat the result as read-only.
 */
export function normalizedSchema(raw: unknown): SchemaNode {
  if (!isRecord(raw)) return normalizeSchema(raw);
  let node = normalized.get(raw);
  if (node === undefined) normalized.set(raw, (node = normalizeSchema(raw)));
  return node;
}

function normalizeNode(input: unknown): SchemaNode {
  if (!isRecord(input)) return {};
  const raw = Array.isArray(input.allOf) ? mergeAllOf(input) : input;
  const hints: string[] = [];
  const shape = readShape(raw);
  let values = Array.isArray(raw.enum) ? uniqueValues(raw.enum) : 'const' in raw ? [raw.const] : undefined;
  if (values?.length === 0) values = undefined;
  let types = readTypes(raw.type, hints) ?? inferTypes(shape, values);
  if (values !== undefined && types !== undefined) {
    if (types.length === 1 && types[0] === 'array' && !values.some(Array.isArray)) {
      // An enum of scalars on an array lists what its elements may be.
      if (shape.items?.enum === undefined) shape.items = withEnum(shape.items ?? {}, values);
      values = undefined;
    } else if (!values.every((value) => types!.some((type) => matchesType(value, type)))) {
      // The values are what callers actually send ("True", "dontcare" on a boolean): trust them.
      types = valueTypes(values);
    }
  }
  if (isTrue(raw.nullable) && types !== undefined && !types.includes('null')) types.push('null');
  if (values !== undefined && types?.includes('null') === true && !values.includes(null)) values.push(null);
  for (const [key, label] of HINT_KEYS) if (raw[key] !== undefined) hints.push(hint(label, raw[key]));
  const pattern = typeof raw.pattern === 'string' ? raw.pattern : undefined;
  const patternOk = pattern !== undefined && isRegExp(pattern);
  if (pattern !== undefined && !patternOk) hints.push(hint('pattern', pattern));

  // Built in display order: type and description first, structure last.
  const out: SchemaNode = {};
  if (types !== undefined) out.type = types.length === 1 ? types[0] : types;
  if (typeof raw.title === 'string') out.title = raw.title;
  const description = appendHints(typeof raw.description === 'string' ? raw.description : undefined, hints);
  if (description !== undefined) out.description = description;
  if (values !== undefined) out.enum = values;
  if ('default' in raw) {
    const value = coerceDefault(raw.default, types);
    if (fits(value, types, values)) out.default = value;
  }
  const examples = Array.isArray(raw.examples) ? [...raw.examples] : raw.examples === undefined ? [] : [raw.examples];
  if ('example' in raw) examples.push(raw.example);
  if (examples.length > 0) out.examples = examples;
  if (typeof raw.format === 'string' && (applies(types, 'string') || applies(types, 'number'))) out.format = raw.format;
  if (patternOk && applies(types, 'string')) out.pattern = pattern;
  if (typeof raw.contentMediaType === 'string' && applies(types, 'string')) out.contentMediaType = raw.contentMediaType;
  if (typeof raw.contentEncoding === 'string' && applies(types, 'string')) out.contentEncoding = raw.contentEncoding;
  copyConstraints(raw, out, types);
  addShape(out, shape, types);
  return collapseNullUnion(out);
}

interface Shape {
  properties?: Record<string, SchemaNode>;
  required: string[];
  items?: SchemaNode;
  additionalProperties?: boolean | SchemaNode;
  patternProperties?: Record<string, SchemaNode>;
  anyOf?: SchemaNode[];
}

function readShape(raw: Record<string, unknown>): Shape {
  const shape: Shape = { required: [] };
  if (Array.isArray(raw.required))
    for (const name of raw.required)
      if (typeof name === 'string' && !shape.required.includes(name)) shape.required.push(name);
  if (isRecord(raw.properties)) {
    shape.properties = {};
    for (const [name, child] of Object.entries(raw.properties)) {
      shape.properties[name] = normalizeNode(child);
      if (!isRecord(child)) continue;
      if (child.required === true && !shape.required.includes(name)) shape.required.push(name);
      if (isTrue(child.optional)) shape.required = shape.required.filter((other) => other !== name);
    }
  }
  if (Array.isArray(raw.items)) shape.items = tupleItems(raw.items.map(normalizeNode));
  else if (isRecord(raw.items)) shape.items = normalizeNode(raw.items);
  if (typeof raw.additionalProperties === 'boolean') shape.additionalProperties = raw.additionalProperties;
  else if (isRecord(raw.additionalProperties)) shape.additionalProperties = normalizeNode(raw.additionalProperties);
  if (isRecord(raw.patternProperties)) shape.patternProperties = normalizePatternProperties(raw.patternProperties);
  const union = Array.isArray(raw.anyOf) ? raw.anyOf : Array.isArray(raw.oneOf) ? raw.oneOf : undefined;
  if (union !== undefined && union.length > 0) shape.anyOf = union.map(normalizeNode);
  return shape;
}

function inferTypes(shape: Shape, values: unknown[] | undefined): JsonType[] | undefined {
  if (
    shape.properties !== undefined ||
    shape.additionalProperties !== undefined ||
    shape.patternProperties !== undefined
  )
    return ['object'];
  if (shape.items !== undefined) return ['array'];
  return values === undefined ? undefined : valueTypes(values);
}

/** True when a keyword for `type` can apply: the node may be of that type ("number" covers integers). */
function applies(types: JsonType[] | undefined, type: JsonType): boolean {
  return types === undefined || types.includes(type) || (type === 'number' && types.includes('integer'));
}

function copyConstraints(raw: Record<string, unknown>, out: SchemaNode, types: JsonType[] | undefined): void {
  for (const [key, type] of COUNT_KEYS) {
    const value = raw[key];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && applies(types, type)) out[key] = value;
  }
  if (typeof raw.uniqueItems === 'boolean' && applies(types, 'array')) out.uniqueItems = raw.uniqueItems;
  if (!applies(types, 'number')) return;
  for (const key of NUMBER_KEYS) {
    const value = raw[key];
    if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
  }
  for (const [key, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const value = raw[key];
    if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
    else if (value === true && out[bound] !== undefined) {
      // Draft-04's boolean form: the bound itself is excluded.
      out[key] = out[bound];
      delete out[bound];
    }
  }
  if (typeof raw.multipleOf === 'number' && raw.multipleOf > 0) out.multipleOf = raw.multipleOf;
}

/** Properties and the like where the type is (or may be) an object, items where it may be an array. */
function addShape(out: SchemaNode, shape: Shape, types: JsonType[] | undefined): void {
  const { required } = shape;
  const isObject = types === undefined || types.includes('object');
  let { properties, items } = shape;
  if (isObject && (properties !== undefined || (required.length > 0 && types !== undefined))) {
    properties ??= {};
    // A required name the source forgot to declare is still a valid (untyped) property.
    for (const name of required) properties[name] ??= {};
    out.properties = properties;
    if (required.length > 0) out.required = required;
  } else if (
    types?.includes('array') === true &&
    items?.properties !== undefined &&
    items.required === undefined &&
    required.length > 0 &&
    required.every((name) => name in items!.properties!)
  ) {
    // `required` written on an array of objects means the objects' fields.
    items = { ...items, required };
  }
  if (isObject && shape.additionalProperties !== undefined) out.additionalProperties = shape.additionalProperties;
  if (isObject && shape.patternProperties !== undefined) out.patternProperties = shape.patternProperties;
  if ((types === undefined || types.includes('array')) && items !== undefined) out.items = items;
  if (shape.anyOf !== undefined) out.anyOf = shape.anyOf;
}

function normalizePatternProperties(raw: Record<string, unknown>): Record<string, SchemaNode> | undefined {
  const entries = Object.entries(raw).filter(([pattern]) => isRegExp(pattern));
  return entries.length === 0
    ? undefined
    : Object.fromEntries(entries.map(([pattern, child]) => [pattern, normalizeNode(child)]));
}

// Ajv compiles patterns with the `u` flag, which rejects some escapes other engines accept.
function isRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

function isTrue(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
}
