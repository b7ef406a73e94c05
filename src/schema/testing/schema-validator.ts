// Test support: a small interpreting JSON Schema validator for the keywords the dialect compilers
// write, so that the golden test can check every benchmark schema in every dialect in seconds
// (compiling each with Ajv takes milliseconds apiece). The golden test checks that it agrees with
// Ajv on a sample. Throws on a keyword it does not know rather than pass what it did not check.
import { isRecord, matchesType, type JsonType, type SchemaNode } from '../schema-node.ts';

const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  'format',
  'contentMediaType',
  'contentEncoding',
  '$schema',
]);
const KNOWN = new Set([
  'type',
  'nullable',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'anyOf',
]);
const patterns = new Map<string, RegExp>();

/** The reasons `value` does not satisfy `schema` (JSON pointers first); empty when it does. */
export function validate(value: unknown, schema: SchemaNode, path = ''): string[] {
  const errors: string[] = [];
  check(value, schema as Record<string, unknown>, path, errors);
  return errors;
}

function check(value: unknown, node: Record<string, unknown>, path: string, errors: string[]): void {
  for (const key of Object.keys(node))
    if (!KNOWN.has(key) && !ANNOTATIONS.has(key))
      throw new Error(`schema-validator: unknown keyword "${key}" at ${path || '/'}`);
  const fail = (why: string): void => void errors.push(`${path || '/'} ${why}`);
  if (node.type !== undefined) {
    const types = (Array.isArray(node.type) ? node.type : [node.type]) as JsonType[];
    const ok =
      types.some((type) => (type === 'null' ? value === null : matchesType(value, type))) ||
      (node.nullable === true && value === null);
    if (!ok) {
      fail(`must be ${types.join(' or ')}`);
      return;
    }
  }
  if (Array.isArray(node.enum) && !node.enum.some((allowed) => equal(allowed, value))) fail('must be one of the enum');
  if ('const' in node && !equal(node.const, value)) fail('must be the const');
  if (
    Array.isArray(node.anyOf) &&
    !node.anyOf.some((member) => validate(value, member as SchemaNode, path).length === 0)
  )
    fail('must match a schema in anyOf');
  if (typeof value === 'string') checkString(value, node, fail);
  if (typeof value === 'number') checkNumber(value, node, fail);
  if (Array.isArray(value)) {
    if (typeof node.minItems === 'number' && value.length < node.minItems) fail('has too few items');
    if (typeof node.maxItems === 'number' && value.length > node.maxItems) fail('has too many items');
    if (
      node.uniqueItems === true &&
      value.some((item, index) => value.findIndex((other) => equal(other, item)) !== index)
    )
      fail('has duplicate items');
    if (isRecord(node.items)) {
      for (const [index, item] of value.entries())
        check(item, node.items as Record<string, unknown>, `${path}/${index}`, errors);
    }
  }
  if (isRecord(value)) checkObject(value, node, path, errors, fail);
}

function checkString(value: string, node: Record<string, unknown>, fail: (why: string) => void): void {
  const length = [...value].length;
  if (typeof node.minLength === 'number' && length < node.minLength) fail('is too short');
  if (typeof node.maxLength === 'number' && length > node.maxLength) fail('is too long');
  if (typeof node.pattern === 'string' && !regExp(node.pattern).test(value)) fail(`must match ${node.pattern}`);
}

function checkNumber(value: number, node: Record<string, unknown>, fail: (why: string) => void): void {
  if (typeof node.minimum === 'number' && value < node.minimum) fail('is below the minimum');
  if (typeof node.maximum === 'number' && value > node.maximum) fail('is above the maximum');
  if (typeof node.exclusiveMinimum === 'number' && value <= node.exclusiveMinimum)
    fail('is not above the exclusive minimum');
  if (typeof node.exclusiveMaximum === 'number' && value >= node.exclusiveMaximum)
    fail('is not below the exclusive maximum');
  // Ajv's test, float error included.
  if (typeof node.multipleOf === 'number' && (value / node.multipleOf) % 1 !== 0) fail('is not a multiple');
}

function checkObject(
  value: Record<string, unknown>,
  node: Record<string, unknown>,
  path: string,
  errors: string[],
  fail: (why: string) => void,
): void {
  const properties = isRecord(node.properties) ? node.properties : {};
  const patternProperties = isRecord(node.patternProperties) ? node.patternProperties : {};
  for (const name of Array.isArray(node.required) ? node.required : [])
    if (!(name in value)) fail(`must have "${name}"`);
  const count = Object.keys(value).length;
  if (typeof node.minProperties === 'number' && count < node.minProperties) fail('has too few properties');
  if (typeof node.maxProperties === 'number' && count > node.maxProperties) fail('has too many properties');
  for (const [name, item] of Object.entries(value)) {
    const child = `${path}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    let declared = false;
    if (isRecord(properties[name])) {
      declared = true;
      check(item, properties[name] as Record<string, unknown>, child, errors);
    }
    for (const [pattern, schema] of Object.entries(patternProperties)) {
      if (!regExp(pattern).test(name)) continue;
      declared = true;
      check(item, schema as Record<string, unknown>, child, errors);
    }
    if (declared) continue;
    if (node.additionalProperties === false) fail(`must not have "${name}"`);
    else if (isRecord(node.additionalProperties)) check(item, node.additionalProperties, child, errors);
  }
}

function regExp(pattern: string): RegExp {
  let compiled = patterns.get(pattern);
  if (compiled === undefined) patterns.set(pattern, (compiled = new RegExp(pattern, 'u')));
  return compiled;
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return (
    keysA.length === keysB.length &&
    keysA.every((key) => equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
  );
}
