import type { Dialect } from './dialect.ts';
import { GEMINI_FORMATS } from './gemini-dialect.ts';
import { STRICT_FORMATS } from './openai-strict-dialect.ts';
import { isRecord, JSON_TYPES } from './schema-node.ts';

// Draft-07 keywords (the ones Ajv reads by default), for the dialects that take standard JSON Schema.
const STANDARD = new Set([
  '$schema', '$id', '$ref', '$comment', 'definitions', 'type', 'title', 'description', 'default', 'examples', 'readOnly', 'writeOnly',
  'enum', 'const', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'items', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems', 'contains', 'properties', 'required',
  'additionalProperties', 'patternProperties', 'propertyNames', 'dependencies', 'minProperties', 'maxProperties', 'anyOf', 'oneOf',
  'allOf', 'not', 'if', 'then', 'else', 'contentMediaType', 'contentEncoding',
]);
// OpenAI structured outputs' documented subset.
const STRICT = new Set([
  'type', 'title', 'description', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', '$ref', '$defs',
  'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);
const GEMINI = new Set(['type', 'format', 'description', 'nullable', 'enum', 'items', 'properties', 'required']);
const GEMINI_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'];

// Structured outputs' documented size limits.
export const STRICT_LIMITS = { depth: 10, properties: 5000, enumValues: 1000, stringChars: 120_000, largeEnum: 250, largeEnumChars: 15_000 };

/** The rules of `dialect` that `schema` (a compiled top-level schema) breaks, each with its path; empty when none. */
export function checkDialect(schema: unknown, dialect: Dialect): string[] {
  const problems: string[] = [];
  if (!isRecord(schema)) return ['the schema is not an object'];
  if (schema.type !== 'object') problems.push('the top must be type "object"');
  if (dialect === 'openai-strict' && schema.anyOf !== undefined) problems.push('the top must not be anyOf');
  const totals = { properties: 0, enumValues: 0, stringChars: 0, depth: 0 };
  walk(schema, '', 0, dialect, problems, totals);
  if (dialect === 'openai-strict') {
    if (totals.depth > STRICT_LIMITS.depth) problems.push(`objects nest ${totals.depth} deep, over ${STRICT_LIMITS.depth}`);
    if (totals.properties > STRICT_LIMITS.properties) problems.push(`${totals.properties} properties, over ${STRICT_LIMITS.properties}`);
    if (totals.enumValues > STRICT_LIMITS.enumValues) problems.push(`${totals.enumValues} enum values, over ${STRICT_LIMITS.enumValues}`);
    if (totals.stringChars > STRICT_LIMITS.stringChars) problems.push(`${totals.stringChars} characters of names and values, over ${STRICT_LIMITS.stringChars}`);
  }
  return problems;
}

type Totals = { properties: number; enumValues: number; stringChars: number; depth: number };

function walk(node: Record<string, unknown>, path: string, depth: number, dialect: Dialect, problems: string[], totals: Totals): void {
  const at = path === '' ? 'top' : path;
  const allowed = dialect === 'openai-strict' ? STRICT : dialect === 'gemini' ? GEMINI : STANDARD;
  for (const key of Object.keys(node)) if (!allowed.has(key)) problems.push(`${at}: "${key}" is not allowed`);
  const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
  for (const type of types) if (!(JSON_TYPES as readonly unknown[]).includes(type)) problems.push(`${at}: unknown type ${JSON.stringify(type)}`);
  if (node.enum !== undefined && (!Array.isArray(node.enum) || node.enum.length === 0)) problems.push(`${at}: enum must be a non-empty array`);
  if (typeof node.pattern === 'string' && !compiles(node.pattern)) problems.push(`${at}: pattern does not compile`);
  const properties = isRecord(node.properties) ? node.properties : undefined;
  const names = Object.keys(properties ?? {});
  const required = Array.isArray(node.required) ? node.required : [];
  for (const name of required) if (!names.includes(name)) problems.push(`${at}: required "${name}" is not a property`);
  if (types.includes('object')) totals.depth = Math.max(totals.depth, depth + 1);

  if (dialect === 'openai' && names.length > 0 && node.additionalProperties === undefined) problems.push(`${at}: an object with properties needs additionalProperties`);
  if ((dialect === 'openai' || dialect === 'openai-strict' || dialect === 'gemini') && types.includes('array') && node.items === undefined) problems.push(`${at}: an array needs items`);
  if (dialect === 'openai-strict') strictRules(node, at, types, names, required, problems, totals);
  if (dialect === 'gemini') geminiRules(node, at, types, names, problems);

  const children: [string, unknown][] = [
    ...Object.entries(properties ?? {}).map(([name, child]): [string, unknown] => [`${path}.${name}`.replace(/^\./, ''), child]),
    [`${path}[]`, node.items],
    ...(isRecord(node.additionalProperties) ? [[`${path}{}`, node.additionalProperties] as [string, unknown]] : []),
    ...Object.entries(isRecord(node.patternProperties) ? node.patternProperties : {}).map(([key, child]): [string, unknown] => [`${path}{${key}}`, child]),
    ...['anyOf', 'oneOf', 'allOf'].flatMap((key) => (Array.isArray(node[key]) ? (node[key] as unknown[]).map((child, index): [string, unknown] => [`${path}<${key}${index}>`, child]) : [])),
  ];
  for (const [childPath, child] of children) {
    if (child === undefined) continue;
    if (!isRecord(child)) problems.push(`${childPath}: not a schema object`);
    else walk(child, childPath, types.includes('object') ? depth + 1 : depth, dialect, problems, totals);
  }
}

function strictRules(node: Record<string, unknown>, at: string, types: unknown[], names: string[], required: unknown[], problems: string[], totals: Totals): void {
  if (types.length === 0 && node.enum === undefined && node.const === undefined && node.anyOf === undefined) problems.push(`${at}: needs a type`);
  if (types.filter((type) => type !== 'null').length > 1) problems.push(`${at}: a type list may only add "null" to one type`);
  if (types.includes('object')) {
    if (node.additionalProperties !== false) problems.push(`${at}: additionalProperties must be false`);
    if (!isRecord(node.properties)) problems.push(`${at}: an object needs properties`);
    if (names.some((name) => !required.includes(name)) || required.length !== names.length) problems.push(`${at}: every property must be required`);
  }
  if (typeof node.format === 'string' && !STRICT_FORMATS.includes(node.format)) problems.push(`${at}: format "${node.format}" is not supported`);
  totals.properties += names.length;
  totals.stringChars += names.reduce((sum, name) => sum + name.length, 0);
  if (Array.isArray(node.enum)) {
    totals.enumValues += node.enum.length;
    const chars = node.enum.reduce((sum: number, value) => sum + String(value).length, 0);
    totals.stringChars += chars;
    if (node.enum.length > STRICT_LIMITS.largeEnum && chars > STRICT_LIMITS.largeEnumChars) problems.push(`${at}: an enum of over ${STRICT_LIMITS.largeEnum} values may hold ${STRICT_LIMITS.largeEnumChars} characters`);
  }
  if (node.const !== undefined) totals.stringChars += String(node.const).length;
}

function geminiRules(node: Record<string, unknown>, at: string, types: unknown[], names: string[], problems: string[]): void {
  const type = node.type;
  if (typeof type !== 'string' || !GEMINI_TYPES.includes(type)) problems.push(`${at}: type must be one of ${GEMINI_TYPES.join(', ')}`);
  if (node.enum !== undefined && (type !== 'string' || !(node.enum as unknown[]).every((value) => typeof value === 'string'))) problems.push(`${at}: enum is for strings only`);
  if (node.properties !== undefined && names.length === 0) problems.push(`${at}: properties must not be empty`);
  if ((node.properties !== undefined || node.required !== undefined) && type !== 'object') problems.push(`${at}: properties and required are for objects only`);
  if (node.items !== undefined && type !== 'array') problems.push(`${at}: items is for arrays only`);
  if (node.nullable !== undefined && node.nullable !== true) problems.push(`${at}: nullable must be true when given`);
  if (typeof node.format === 'string' && GEMINI_FORMATS[String(type)]?.includes(node.format) !== true) problems.push(`${at}: format "${node.format}" is not supported for ${String(type)}`);
  if (types.length > 1) problems.push(`${at}: one type only`);
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
