import { appendHints, hint } from './schema-hints.ts';
import { allowsNull, hasProperties, ordered, typesOf, type SchemaNode } from './schema-node.ts';
import { jsonTextHint, valueEncoding } from './value-encoding.ts';

/** The formats Gemini accepts, per type; any other becomes a hint in the description. */
export const GEMINI_FORMATS: Record<string, readonly string[]> = { string: ['date-time'], number: ['float', 'double'], integer: ['int32', 'int64'] };
// Everything else Gemini's Schema lacks (or has only in newer API versions) is told, not declared.
const HINTED = [
  'title', 'default', 'examples', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength',
  'pattern', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'contentMediaType', 'contentEncoding',
] as const;

/**
 * Gemini function parameters: the conservative OpenAPI 3.0 subset every Gemini API version takes:
 * `type` (one, lower case), `format` (per type), `description`, `nullable`, `enum` (strings only),
 * `items` (always), `properties` (never empty) and `required`. No unions: null folds into
 * `nullable`, other unions and free-form values travel as JSON text; a non-string enum travels
 * as its values' text. Constraints Gemini cannot take go into the description.
 */
export function geminiSchema(root: SchemaNode): SchemaNode {
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
  const encoding = valueEncoding(node, 'gemini');
  if (encoding === 'json-text') return ordered({ type: 'string', description: appendHints(node.description, [jsonTextHint(node)]), nullable });
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
