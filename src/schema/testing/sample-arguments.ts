// Test support: arguments that satisfy a normalized schema, and the same arguments as a model
// would send them against a compiled dialect (the inverse of normalizeArguments).
import { dialectRules, valueEncoding, type Dialect } from '../dialect.ts';
import { isRecord, typesOf, type SchemaNode } from '../schema-node.ts';
import { samplePattern } from './sample-pattern.ts';

const FORMATS: Record<string, string> = {
  date: '2024-05-17',
  'date-time': '2024-05-17T09:30:00Z',
  time: '09:30:00',
  duration: 'PT1H',
  email: 'user@example.com',
  uri: 'https://example.com/a',
  url: 'https://example.com/a',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
};

/**
 * A valid argument object for a normalized top-level schema: the required fields only, or (`full`)
 * every declared field, nested objects and arrays included. Enums give their first value.
 */
export function sampleArguments(root: SchemaNode, full: boolean): Record<string, unknown> {
  // A top without declared properties means no parameters (strict and Gemini cannot say more).
  return sampleObject(root, full, true);
}

function sampleObject(node: SchemaNode, full: boolean, top = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set(node.required ?? []);
  for (const [name, child] of Object.entries(node.properties ?? {}))
    if (full || required.has(name)) out[name] = sample(child, full, 0);
  if (full && !top && Object.keys(node.properties ?? {}).length === 0 && node.additionalProperties !== false) {
    // A free-form object: one field, shaped by what it allows.
    const [pattern, value] = Object.entries(node.patternProperties ?? {})[0] ?? [];
    const key = pattern === undefined ? 'key' : (samplePattern(pattern) ?? 'key');
    const schema = value ?? (isRecord(node.additionalProperties) ? node.additionalProperties : {});
    out[key] = sample(schema, full, 0);
  }
  return out;
}

function sample(node: SchemaNode, full: boolean, variant: number): unknown {
  const values = node.enum?.filter((value) => value !== null);
  if (values !== undefined && values.length > 0) return values[variant % values.length];
  if (node.anyOf !== undefined && node.anyOf.length > 0) return sample(node.anyOf[0]!, full, variant);
  const types = typesOf(node);
  const type = types.find((name) => name !== 'null') ?? (types.length > 0 ? 'null' : undefined);
  switch (type) {
    case undefined:
      return variant === 0 ? 'example' : `example${variant}`;
    case 'null':
      return null;
    case 'boolean':
      return variant % 2 === 0;
    case 'integer':
    case 'number':
      return sampleNumber(node, type === 'integer', variant);
    case 'string':
      return sampleString(node, variant);
    case 'array': {
      const count = Math.min(Math.max(node.minItems ?? 0, 1), node.maxItems ?? Infinity);
      return Array.from({ length: count }, (_, index) => sample(node.items ?? {}, full, index));
    }
    case 'object':
      return sampleObject(node, full);
  }
}

function sampleNumber(node: SchemaNode, integer: boolean, variant: number): number {
  const step = node.multipleOf ?? (integer ? 1 : 0.5);
  const low = node.minimum ?? (node.exclusiveMinimum === undefined ? undefined : node.exclusiveMinimum + step);
  const high = node.maximum ?? (node.exclusiveMaximum === undefined ? undefined : node.exclusiveMaximum - step);
  let value = low ?? (high === undefined ? (integer ? 3 : 2.5) : Math.min(high, integer ? 3 : 2.5));
  value += variant * step;
  if (high !== undefined && value > high) value = low ?? high;
  if (node.multipleOf !== undefined) value = Math.ceil(value / node.multipleOf) * node.multipleOf;
  if (integer) value = Math.ceil(value);
  return value;
}

function sampleString(node: SchemaNode, variant: number): string {
  if (node.pattern !== undefined) return samplePattern(node.pattern) ?? 'unsampleable pattern';
  let text =
    (node.format === undefined ? undefined : FORMATS[node.format]) ?? (variant === 0 ? 'example' : `example${variant}`);
  if (node.minLength !== undefined && text.length < node.minLength) text = text.padEnd(node.minLength, 'x');
  if (node.maxLength !== undefined && [...text].length > node.maxLength)
    text = [...text].slice(0, node.maxLength).join('');
  return text;
}

/**
 * `args` (valid for the normalized `root`) as a model sends them against `dialect`: strict fills
 * every left-out optional field with null; JSON-text fields are strings of JSON; Gemini's
 * non-string enum values are their text.
 */
export function encodeArguments(
  args: Record<string, unknown>,
  root: SchemaNode,
  dialect: Dialect,
): Record<string, unknown> {
  return encodeObject(args, root, dialect);
}

function encodeObject(value: Record<string, unknown>, node: SchemaNode, dialect: Dialect): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = node.properties ?? {};
  for (const [name, child] of Object.entries(properties)) {
    if (name in value) out[name] = encode(value[name], child, dialect);
    else if (dialectRules(dialect).nullMeansOmitted) out[name] = null;
  }
  for (const [name, item] of Object.entries(value)) if (!(name in properties)) out[name] = item;
  return out;
}

function encode(value: unknown, node: SchemaNode, dialect: Dialect): unknown {
  const encoding = valueEncoding(node, dialect);
  if (encoding === 'json-text') return JSON.stringify(value);
  if (encoding === 'enum-text') return typeof value === 'string' ? value : JSON.stringify(value);
  if (Array.isArray(value)) return value.map((item) => encode(item, node.items ?? {}, dialect));
  if (isRecord(value) && node.properties !== undefined) return encodeObject(value, node, dialect);
  return value;
}
