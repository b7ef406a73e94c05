import type { Dialect } from './dialect.ts';
import { geminiSchema } from './gemini-dialect.ts';
import { normalizedSchema } from './normalize-schema.ts';
import { openaiSchema } from './openai-dialect.ts';
import { openaiStrictSchema } from './openai-strict-dialect.ts';
import type { SchemaNode } from './schema-node.ts';

/**
 * One tool's parameters in the dialect a provider takes. `schema` may be any JSON-Schema-like
 * object (a manifest's, or a catalog's with "dict" and "float"): it is normalized first.
 * - json: standard JSON Schema (local models, the text protocol);
 * - anthropic: the same, as `input_schema`;
 * - openai: objects with declared properties closed, arrays with items;
 * - openai-strict: structured outputs' subset, every property required (optional ones nullable);
 * - gemini: the OpenAPI 3.0 subset Gemini takes.
 * Arguments a model sends against the result map back with normalizeArguments. The result may
 * share parts with other results for the same schema object: treat it as read-only.
 */
export function compileSchema(schema: unknown, dialect: Dialect): SchemaNode {
  const node = normalizedSchema(schema);
  switch (dialect) {
    case 'json':
    case 'anthropic':
      return node;
    case 'openai':
      return openaiSchema(node);
    case 'openai-strict':
      return openaiStrictSchema(node);
    case 'gemini':
      return geminiSchema(node);
  }
}
