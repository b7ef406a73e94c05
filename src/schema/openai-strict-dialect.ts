import { appendHints, hint } from './schema-hints.ts';
import { allowsNull, ordered, typesOf, type SchemaNode } from './schema-node.ts';
import { jsonTextHint, valueEncoding } from './value-encoding.ts';

/** The string formats structured outputs accept; any other becomes a hint in the description. */
export const STRICT_FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'];
// Formats that only restate a number's type: dropped without a word.
const NUMBER_FORMATS = ['float', 'double', 'int32', 'int64'];
// Keywords structured outputs do not take, told to the model instead.
const HINTED = ['default', 'examples', 'minLength', 'maxLength', 'uniqueItems', 'minProperties', 'maxProperties', 'contentMediaType', 'contentEncoding'] as const;

/**
 * OpenAI structured outputs (`strict: true`): every object closed, with every property required;
 * a parameter the source leaves optional is nullable instead (`type: [T, "null"]`, or `anyOf` with
 * `{type: "null"}` for an enum, an object or an array), and its null is dropped again by
 * normalizeArguments. Only the supported keywords stay. What strict cannot declare (a free-form
 * object, a value of any type, a union) travels as JSON text. A top without declared properties
 * becomes a tool without parameters, since the top must be an object with declared properties.
 */
export function openaiStrictSchema(root: SchemaNode): SchemaNode {
  return ordered({ type: 'object', title: root.title, description: root.description, ...strictObject(root) });
}

function strictObject(node: SchemaNode): SchemaNode {
  const required = new Set(node.required ?? []);
  const properties = node.properties ?? {};
  return {
    properties: Object.fromEntries(Object.entries(properties).map(([name, child]) => [name, strictNode(child, !required.has(name))])),
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

function strictNode(node: SchemaNode, optional: boolean): SchemaNode {
  const nullable = optional || allowsNull(node);
  if (valueEncoding(node, 'openai-strict') === 'json-text') {
    return ordered({ type: nullable ? ['string', 'null'] : 'string', title: node.title, description: appendHints(node.description, [jsonTextHint(node)]) });
  }
  const hints = HINTED.filter((key) => node[key] !== undefined).map((key) => hint(key, node[key]));
  const types = typesOf(node).filter((name) => name !== 'null');
  const type = types[0];
  const body: SchemaNode = {};
  // An enum of one type keeps it; a mixed one is a bare enum, which strict accepts.
  if (node.enum === undefined || types.length === 1) body.type = type;
  if (node.enum !== undefined) body.enum = node.enum.filter((value) => value !== null);
  else if (type === 'object') Object.assign(body, strictObject(node));
  if (type === 'array') Object.assign(body, { items: strictNode(node.items ?? {}, false), minItems: node.minItems, maxItems: node.maxItems });
  if (type === 'string') body.pattern = node.pattern;
  if (type === 'number' || type === 'integer') {
    Object.assign(body, { minimum: node.minimum, maximum: node.maximum, exclusiveMinimum: node.exclusiveMinimum, exclusiveMaximum: node.exclusiveMaximum, multipleOf: node.multipleOf });
  }
  if (node.format !== undefined) {
    if (type === 'string' && STRICT_FORMATS.includes(node.format)) body.format = node.format;
    else if (!NUMBER_FORMATS.includes(node.format)) hints.push(hint('format', node.format));
  }
  const description = appendHints(node.description, hints);
  if (!nullable) return ordered({ ...body, title: node.title, description });
  if (body.enum !== undefined && body.type === undefined) return ordered({ ...body, enum: [...body.enum, null], title: node.title, description });
  if (body.enum === undefined && type !== 'object' && type !== 'array') return ordered({ ...body, type: [type!, 'null'], title: node.title, description });
  return ordered({ title: node.title, description, anyOf: [ordered(body), { type: 'null' }] });
}
