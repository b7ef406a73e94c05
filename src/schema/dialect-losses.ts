import { compileSchema } from './compile-schema.ts';
import type { Dialect } from './dialect.ts';
import { isRecord } from './schema-node.ts';

// What a full JSON Schema (a manifest's inputSchema) says that a provider's dialect cannot: the
// keywords the compiled schema no longer has. `riverse tools check` reports them (decision 027);
// the arguments are still checked against the whole schema when a call comes.

/** Keywords that describe or name, not constrain: losing them loses no rule. */
const NOT_RULES = new Set([
  'description',
  'title',
  '$schema',
  '$id',
  '$defs',
  'definitions',
  '$anchor',
  '$dynamicAnchor',
  '$comment',
  '$ref',
  'examples',
  'example',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  // MCP's header mirroring (SEP-2243): for the client's transport, not the model.
  'x-mcp-header',
]);

/** The rule keywords of `schema` that its compilation for `dialect` leaves out, sorted. */
export function dialectLosses(schema: unknown, dialect: Dialect): string[] {
  const given = keywords(schema);
  const kept = keywords(compileSchema(schema, dialect));
  return [...given].filter((key) => !kept.has(key) && !NOT_RULES.has(key)).sort();
}

function keywords(schema: unknown): Set<string> {
  const found = new Set<string>();
  const walk = (node: unknown, depth: number): void => {
    if (depth > 32) return;
    if (Array.isArray(node)) for (const item of node) walk(item, depth + 1);
    if (!isRecord(node)) return;
    for (const [key, value] of Object.entries(node)) {
      found.add(key);
      if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions') {
        if (isRecord(value)) for (const child of Object.values(value)) walk(child, depth + 1);
      } else if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples' && key !== 'required')
        walk(value, depth + 1);
    }
  };
  walk(schema, 0);
  return found;
}
