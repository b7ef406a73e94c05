import { checkArrayItems, STANDARD_KEYWORDS, type DialectRules } from './dialect-rules.ts';
import { hasProperties, typesOf, type SchemaNode } from './schema-node.ts';

/** OpenAI function calling without `strict` (see openaiSchema). */
export const OPENAI_DIALECT: DialectRules = {
  compile: (root) => openaiSchema(root),
  encoding: () => 'plain',
  nullMeansOmitted: false,
  check: {
    keywords: STANDARD_KEYWORDS,
    node(node, facts, problems) {
      if (facts.names.length > 0 && node.additionalProperties === undefined)
        problems.push(`${facts.at}: an object with properties needs additionalProperties`);
      checkArrayItems(node, facts, problems);
    },
  },
};

/**
 * OpenAI function parameters without `strict`: standard JSON Schema, with every object that
 * declares its properties closed (`additionalProperties: false`, unless the source said otherwise)
 * and `items` on every array (OpenAI answers 400 "array schema missing items" without it).
 */
function openaiSchema(node: SchemaNode): SchemaNode {
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

function mapValues<T, U>(record: Record<string, T>, map: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}
