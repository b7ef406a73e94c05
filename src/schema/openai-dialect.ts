import { hasProperties, typesOf, type SchemaNode } from './schema-node.ts';

/**
 * OpenAI function parameters without `strict`: standard JSON Schema, with every object that
 * declares its properties closed (`additionalProperties: false`, unless the source said otherwise)
 * and `items` on every array (OpenAI answers 400 "array schema missing items" without it).
 */
export function openaiSchema(node: SchemaNode): SchemaNode {
  const out: SchemaNode = { ...node };
  if (node.properties !== undefined) out.properties = mapValues(node.properties, openaiSchema);
  if (node.patternProperties !== undefined) out.patternProperties = mapValues(node.patternProperties, openaiSchema);
  if (typeof node.additionalProperties === 'object') out.additionalProperties = openaiSchema(node.additionalProperties);
  else if (hasProperties(node) && node.additionalProperties === undefined) out.additionalProperties = false;
  if (node.items !== undefined) out.items = openaiSchema(node.items);
  else if (typesOf(node).includes('array')) out.items = {};
  if (node.anyOf !== undefined) out.anyOf = node.anyOf.map(openaiSchema);
  return out;
}

export function mapValues<T, U>(record: Record<string, T>, map: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}
