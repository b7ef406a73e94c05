import { hasProperties, typesOf, type SchemaNode } from './schema-node.ts';

/**
 * How a value of a (normalized) schema node travels in a dialect:
 * - `plain`: as itself;
 * - `json-text`: as a string of JSON, where the dialect cannot describe the value: a free-form
 *   object (OpenAI strict and Gemini need every property declared), a value of any type, or a
 *   union of types (Gemini has none; strict gets them too, to keep one rule);
 * - `enum-text`: Gemini takes enums of strings only, so 2 travels as "2".
 * The compilers write it and normalizeArguments reads it back, so both ask the dialect (DialectRules.encoding).
 */
export type ValueEncoding = 'plain' | 'json-text' | 'enum-text';

/**
 * The encoding in a dialect that can only declare fixed shapes (OpenAI strict, Gemini): a value it
 * cannot describe travels as JSON text.
 */
export function declaredEncoding(node: SchemaNode): ValueEncoding {
  if (node.enum?.some((value) => value !== null)) return 'plain';
  if (node.anyOf !== undefined) return 'json-text';
  const types = typesOf(node).filter((type) => type !== 'null');
  if (types.length !== 1) return 'json-text';
  if (types[0] === 'object' && !hasProperties(node) && node.additionalProperties !== false) return 'json-text';
  return 'plain';
}

/** The note a JSON-text field's description gets, so that the model writes JSON into the string. */
export function jsonTextHint(node: SchemaNode): string {
  const types = typesOf(node).filter((type) => type !== 'null');
  if (node.anyOf === undefined && types.length === 1 && types[0] === 'object') return 'a JSON object, written as text';
  if (node.anyOf === undefined && types.length > 1) return `JSON text: ${types.join(' or ')}`;
  return 'any JSON value, written as JSON text';
}
