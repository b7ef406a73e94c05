import type { DialectRules } from './dialect-rules.ts';
import { GEMINI_DIALECT } from './gemini-dialect.ts';
import { JSON_DIALECT } from './json-dialect.ts';
import { OPENAI_DIALECT } from './openai-dialect.ts';
import { OPENAI_STRICT_DIALECT } from './openai-strict-dialect.ts';
import type { SchemaNode } from './schema-node.ts';
import type { ValueEncoding } from './value-encoding.ts';

/**
 * The schema dialects providers are given, by name: each takes a different subset of JSON Schema,
 * and its file says which. Anthropic takes standard JSON Schema as it is.
 */
const DIALECT_RULES = {
  json: JSON_DIALECT,
  openai: OPENAI_DIALECT,
  'openai-strict': OPENAI_STRICT_DIALECT,
  anthropic: JSON_DIALECT,
  gemini: GEMINI_DIALECT,
} as const satisfies Record<string, DialectRules>;

export type Dialect = keyof typeof DIALECT_RULES;
export const DIALECTS = Object.keys(DIALECT_RULES) as readonly Dialect[];

export function dialectRules(dialect: Dialect): DialectRules {
  return DIALECT_RULES[dialect];
}

/** How a value of a normalized node travels in `dialect`. */
export function valueEncoding(node: SchemaNode, dialect: Dialect): ValueEncoding {
  return DIALECT_RULES[dialect].encoding(node);
}
