import { checkArrayItems, type DialectRules, type NodeFacts } from './dialect-rules.ts';
import { appendHints, hint } from './schema-hints.ts';
import { allowsNull, hasProperties, ordered, typesOf, type SchemaNode } from './schema-node.ts';
import { declaredEncoding, jsonTextHint, type ValueEncoding } from './value-encoding.ts';

/** The formats Gemini accepts, per type; any other becomes a hint in the description. */
const GEMINI_FORMATS: Record<string, readonly string[]> = {
  string: ['date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};
// Everything else Gemini's Schema lacks (or has only in newer API versions) is told, not declared.
const HINTED = [
  'title',
  'default',
  'examples',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'contentMediaType',
  'contentEncoding',
] as const;

/**
 * Gemini function parameters: the conservative OpenAPI 3.0 subset every Gemini API version takes:
 * `type` (one, lower case), `format` (per type), `description`, `nullable`, `enum` (strings only),
 * `items` (always), `properties` (never empty) and `required`. No unions: null folds into
 * `nullable`, other unions and free-form values travel as JSON text; a non-string enum travels
 * as its values' text. Constraints Gemini cannot take go into the description.
 */
function geminiSchema(root: SchemaNode): SchemaNode {
  return ordered({ type: 'object', description: root.description, ...geminiObject(root) });
}

function geminiObject(node: SchemaNode): SchemaNode {
  // Gemini answers 400 to `properties: {}`: an object without fields is just `{type: object}`.
  if (!hasProperties(node)) return {};
  const properties = node.properties!;
  const required = (node.required ?? []).filter((name) => name in properties);
  return {
    properties: Object.fromEntries(Object.entries(properties).map(([name, child]) => [name, geminiNode(child)])),
    ...(required.length > 0 ? { required } : {}),
  };
}

function geminiNode(node: SchemaNode): SchemaNode {
  const nullable = allowsNull(node) ? true : undefined;
  const encoding = geminiEncoding(node);
  if (encoding === 'json-text')
    return ordered({ type: 'string', description: appendHints(node.description, [jsonTextHint(node)]), nullable });
  const hints = HINTED.filter((key) => node[key] !== undefined).map((key) => hint(key, node[key]));
  const values = node.enum?.filter((value) => value !== null);
  if (encoding === 'enum-text') {
    const texts = values!.map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
    return ordered({ type: 'string', description: appendHints(node.description, hints), enum: texts, nullable });
  }
  const type = typesOf(node).find((name) => name !== 'null')!;
  const body: SchemaNode = { type };
  if (values !== undefined && values.length > 0) body.enum = values;
  if (type === 'object') Object.assign(body, geminiObject(node));
  if (type === 'array') body.items = geminiNode(node.items ?? {});
  if (node.format !== undefined) {
    if (GEMINI_FORMATS[type]?.includes(node.format) === true) body.format = node.format;
    else hints.push(hint('format', node.format));
  }
  return ordered({ ...body, description: appendHints(node.description, hints), nullable });
}

/** Gemini's enums hold strings only: one with other values travels as their text. */
function geminiEncoding(node: SchemaNode): ValueEncoding {
  if (node.enum?.some((value) => value !== null && typeof value !== 'string') === true) return 'enum-text';
  return declaredEncoding(node);
}

const GEMINI_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
]);
const GEMINI_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'];

/** Gemini's function declarations (see geminiSchema). */
export const GEMINI_DIALECT: DialectRules = {
  compile: (root) => geminiSchema(root),
  encoding: geminiEncoding,
  nullMeansOmitted: false,
  check: {
    keywords: GEMINI_KEYWORDS,
    node(node, facts, problems) {
      checkArrayItems(node, facts, problems);
      geminiRules(node, facts, problems);
    },
  },
};

function geminiRules(node: Record<string, unknown>, { at, types, names }: NodeFacts, problems: string[]): void {
  const type = node.type;
  if (typeof type !== 'string' || !GEMINI_TYPES.includes(type))
    problems.push(`${at}: type must be one of ${GEMINI_TYPES.join(', ')}`);
  if (
    node.enum !== undefined &&
    (type !== 'string' || !(node.enum as unknown[]).every((value) => typeof value === 'string'))
  )
    problems.push(`${at}: enum is for strings only`);
  if (node.properties !== undefined && names.length === 0) problems.push(`${at}: properties must not be empty`);
  if ((node.properties !== undefined || node.required !== undefined) && type !== 'object')
    problems.push(`${at}: properties and required are for objects only`);
  if (node.items !== undefined && type !== 'array') problems.push(`${at}: items is for arrays only`);
  if (node.nullable !== undefined && node.nullable !== true) problems.push(`${at}: nullable must be true when given`);
  if (typeof node.format === 'string' && GEMINI_FORMATS[String(type)]?.includes(node.format) !== true)
    problems.push(`${at}: format "${node.format}" is not supported for ${String(type)}`);
  if (types.length > 1) problems.push(`${at}: one type only`);
}
