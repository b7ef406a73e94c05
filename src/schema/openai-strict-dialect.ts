import { checkArrayItems, type DialectRules, type NodeFacts, type SchemaTotals } from './dialect-rules.ts';
import { appendHints, hint } from './schema-hints.ts';
import { allowsNull, isRecord, ordered, typesOf, type SchemaNode } from './schema-node.ts';
import { declaredEncoding, jsonTextHint } from './value-encoding.ts';

/** The string formats structured outputs accept; any other becomes a hint in the description. */
const STRICT_FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'];
// Formats that only restate a number's type: dropped without a word.
const NUMBER_FORMATS = ['float', 'double', 'int32', 'int64'];
// Keywords structured outputs do not take, told to the model instead.
const HINTED = [
  'default',
  'examples',
  'minLength',
  'maxLength',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'contentMediaType',
  'contentEncoding',
] as const;

/**
 * OpenAI structured outputs (`strict: true`): every object closed, with every property required;
 * a parameter the source leaves optional is nullable instead (`type: [T, "null"]`, or `anyOf` with
 * `{type: "null"}` for an enum, an object or an array), and its null is dropped again by
 * normalizeArguments. Only the supported keywords stay. What strict cannot declare (a free-form
 * object, a value of any type, a union) travels as JSON text. A top without declared properties
 * becomes a tool without parameters, since the top must be an object with declared properties.
 */
function openaiStrictSchema(root: SchemaNode): SchemaNode {
  return ordered({ type: 'object', title: root.title, description: root.description, ...strictObject(root) });
}

function strictObject(node: SchemaNode): SchemaNode {
  const required = new Set(node.required ?? []);
  const properties = node.properties ?? {};
  return {
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, child]) => [name, strictNode(child, !required.has(name))]),
    ),
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

function strictNode(node: SchemaNode, optional: boolean): SchemaNode {
  const nullable = optional || allowsNull(node);
  if (declaredEncoding(node) === 'json-text') {
    return ordered({
      type: nullable ? ['string', 'null'] : 'string',
      title: node.title,
      description: appendHints(node.description, [jsonTextHint(node)]),
    });
  }
  const hints = HINTED.filter((key) => node[key] !== undefined).map((key) => hint(key, node[key]));
  const types = typesOf(node).filter((name) => name !== 'null');
  const type = types[0];
  const body: SchemaNode = {};
  // An enum of one type keeps it; a mixed one is a bare enum, which strict accepts.
  if (node.enum === undefined || types.length === 1) body.type = type;
  if (node.enum !== undefined) body.enum = node.enum.filter((value) => value !== null);
  else if (type === 'object') Object.assign(body, strictObject(node));
  if (type === 'array')
    Object.assign(body, {
      items: strictNode(node.items ?? {}, false),
      minItems: node.minItems,
      maxItems: node.maxItems,
    });
  if (type === 'string') body.pattern = node.pattern;
  if (type === 'number' || type === 'integer') {
    Object.assign(body, {
      minimum: node.minimum,
      maximum: node.maximum,
      exclusiveMinimum: node.exclusiveMinimum,
      exclusiveMaximum: node.exclusiveMaximum,
      multipleOf: node.multipleOf,
    });
  }
  if (node.format !== undefined) {
    if (type === 'string' && STRICT_FORMATS.includes(node.format)) body.format = node.format;
    else if (!NUMBER_FORMATS.includes(node.format)) hints.push(hint('format', node.format));
  }
  const description = appendHints(node.description, hints);
  if (!nullable) return ordered({ ...body, title: node.title, description });
  if (body.enum !== undefined && body.type === undefined)
    return ordered({ ...body, enum: [...body.enum, null], title: node.title, description });
  if (body.enum === undefined && type !== 'object' && type !== 'array')
    return ordered({ ...body, type: [type!, 'null'], title: node.title, description });
  return ordered({ title: node.title, description, anyOf: [ordered(body), { type: 'null' }] });
}

// Structured outputs' documented subset.
const STRICT_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'title',
  'description',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  '$ref',
  '$defs',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

// Structured outputs' documented size limits.
const STRICT_LIMITS = {
  depth: 10,
  properties: 5000,
  enumValues: 1000,
  stringChars: 120_000,
  largeEnum: 250,
  largeEnumChars: 15_000,
};

/** OpenAI function calling with `strict: true` (see openaiStrictSchema). */
export const OPENAI_STRICT_DIALECT: DialectRules = {
  compile: (root) => openaiStrictSchema(root),
  encoding: declaredEncoding,
  nullMeansOmitted: true,
  check: {
    keywords: STRICT_KEYWORDS,
    top(schema, problems) {
      if (schema.anyOf !== undefined) problems.push('the top must not be anyOf');
    },
    node(node, facts, problems) {
      checkArrayItems(node, facts, problems);
      strictRules(node, facts, problems);
    },
    totals(totals: SchemaTotals, problems) {
      if (totals.depth > STRICT_LIMITS.depth)
        problems.push(`objects nest ${totals.depth} deep, over ${STRICT_LIMITS.depth}`);
      if (totals.properties > STRICT_LIMITS.properties)
        problems.push(`${totals.properties} properties, over ${STRICT_LIMITS.properties}`);
      if (totals.enumValues > STRICT_LIMITS.enumValues)
        problems.push(`${totals.enumValues} enum values, over ${STRICT_LIMITS.enumValues}`);
      if (totals.stringChars > STRICT_LIMITS.stringChars)
        problems.push(`${totals.stringChars} characters of names and values, over ${STRICT_LIMITS.stringChars}`);
    },
  },
};

function strictRules(
  node: Record<string, unknown>,
  { at, types, names, required }: NodeFacts,
  problems: string[],
): void {
  if (types.length === 0 && node.enum === undefined && node.const === undefined && node.anyOf === undefined)
    problems.push(`${at}: needs a type`);
  if (types.filter((type) => type !== 'null').length > 1)
    problems.push(`${at}: a type list may only add "null" to one type`);
  if (types.includes('object')) {
    if (node.additionalProperties !== false) problems.push(`${at}: additionalProperties must be false`);
    if (!isRecord(node.properties)) problems.push(`${at}: an object needs properties`);
    if (names.some((name) => !required.includes(name)) || required.length !== names.length)
      problems.push(`${at}: every property must be required`);
  }
  if (typeof node.format === 'string' && !STRICT_FORMATS.includes(node.format))
    problems.push(`${at}: format "${node.format}" is not supported`);
  if (Array.isArray(node.enum) && node.enum.length > STRICT_LIMITS.largeEnum) {
    const chars = node.enum.reduce((sum: number, value) => sum + String(value).length, 0);
    if (chars > STRICT_LIMITS.largeEnumChars)
      problems.push(
        `${at}: an enum of over ${STRICT_LIMITS.largeEnum} values may hold ${STRICT_LIMITS.largeEnumChars} characters`,
      );
  }
}
