/** The JSON types of standard JSON Schema (draft-07, as Ajv reads it). */
export const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'] as const;
export type JsonType = (typeof JSON_TYPES)[number];

/**
 * One node of a schema as the dialect compilers read and write it: standard JSON Schema keywords,
 * plus `nullable`, which only the Gemini dialect writes (OpenAPI 3.0).
 */
export interface SchemaNode {
  type?: JsonType | JsonType[];
  title?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  patternProperties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  contentMediaType?: string;
  contentEncoding?: string;
  nullable?: boolean;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `object[key] = value`, except that a key "__proto__" (JSON.parse makes it an own field) stays a
 * field: assigned, it would set the copy's prototype, and its fields would pass for parameters.
 */
export function setField(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

/** The node's types as a list; empty when it puts no constraint on the type. */
export function typesOf(node: SchemaNode): JsonType[] {
  return node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
}

/** The JSON type of a value, `integer` for whole numbers. */
export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  return 'object';
}

export function matchesType(value: unknown, type: JsonType): boolean {
  const actual = jsonTypeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/** True when null is a valid value for the node. */
export function allowsNull(node: SchemaNode): boolean {
  if (node.anyOf !== undefined) return node.anyOf.some(allowsNull);
  if (node.nullable === true) return node.enum === undefined || node.enum.includes(null);
  if (node.enum !== undefined) return node.enum.includes(null);
  const types = typesOf(node);
  return types.length === 0 || types.includes('null');
}

/** True when the node declares named properties (an object with a fixed shape). */
export function hasProperties(node: SchemaNode): boolean {
  return node.properties !== undefined && Object.keys(node.properties).length > 0;
}

const ORDER = ['type', 'title', 'description', 'enum', 'const', 'default', 'examples', 'format', 'pattern', 'nullable'];

/** The node with its keys in a fixed, readable order (type and description first, structure last) and no undefined values. */
export function ordered<T extends object>(node: T): T {
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ORDER) if (source[key] !== undefined) out[key] = source[key];
  for (const [key, value] of Object.entries(source)) if (!(key in out) && value !== undefined) out[key] = value;
  return out as T;
}
