import { dialectRules, type Dialect } from './dialect.ts';
import { normalizedSchema } from './normalize-schema.ts';
import type { SchemaNode } from './schema-node.ts';

/**
 * One tool's parameters in the dialect a provider takes (each dialect's file says what it does).
 * `schema` may be any JSON-Schema-like object (a manifest's, or a catalog's with "dict" and
 * "float"): it is normalized first. Arguments a model sends against the result map back with
 * normalizeArguments. The result may share parts with other results for the same schema object:
 * treat it as read-only.
 */
export function compileSchema(schema: unknown, dialect: Dialect): SchemaNode {
  return dialectRules(dialect).compile(normalizedSchema(schema));
}
