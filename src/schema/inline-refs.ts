import { isRecord } from './schema-node.ts';

// A full JSON Schema (a manifest's inputSchema, an MCP server's) refers to its own parts with
// `$ref`: `#/$defs/address`, `#addressDef` (an `$anchor`), `#`. Providers take few of those
// (OpenAI strict and Gemini none), so the dialects are compiled from the schema with each local
// reference replaced by what it points at. A reference back into itself (a tree) is cut there to
// "any value"; a reference elsewhere (another document) is left to mean any value too. The schema
// as given is what arguments are checked against (decision 027).

/** Deeper than any real parameters; past it, what a reference leads to is any value. */
const MAX_DEPTH = 24;

/** `schema` with its local `$ref`s inlined and `$defs`/`definitions` gone; the same object when it has none. */
export function inlineRefs(schema: unknown): unknown {
  if (!isRecord(schema) || !hasRef(schema, 0)) return schema;
  const anchors = new Map<string, Record<string, unknown>>();
  collectAnchors(schema, anchors, 0);
  const resolve = (ref: string): unknown => {
    if (ref === '#') return schema;
    if (ref.startsWith('#/')) {
      let node: unknown = schema;
      for (const token of ref.slice(2).split('/')) {
        const key = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
        node = isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
      }
      return node;
    }
    return ref.startsWith('#') ? anchors.get(ref.slice(1)) : undefined;
  };
  const walk = (node: unknown, stack: readonly string[], depth: number): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, stack, depth + 1));
    if (!isRecord(node)) return node;
    if (depth > MAX_DEPTH) return {};
    const { $ref: ref, $defs: _defs, definitions: _definitions, ...rest } = node;
    let base: Record<string, unknown> = {};
    if (typeof ref === 'string') {
      const target = stack.includes(ref) ? undefined : resolve(ref);
      if (isRecord(target)) {
        const inlined = walk(target, [...stack, ref], depth + 1) as Record<string, unknown>;
        base = inlined;
      }
    }
    const out: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(rest)) {
      // Names of properties are data, not schemas: their keys are copied as they are.
      out[key] =
        key === 'properties' || key === 'patternProperties'
          ? isRecord(value)
            ? Object.fromEntries(Object.entries(value).map(([name, child]) => [name, walk(child, stack, depth + 1)]))
            : value
          : key === 'enum' || key === 'const' || key === 'default' || key === 'examples' || key === 'required'
            ? value
            : walk(value, stack, depth + 1);
    }
    return out;
  };
  return walk(schema, [], 0);
}

function hasRef(node: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(node)) return node.some((item) => hasRef(item, depth + 1));
  if (!isRecord(node)) return false;
  return typeof node.$ref === 'string' || Object.values(node).some((value) => hasRef(value, depth + 1));
}

function collectAnchors(node: unknown, anchors: Map<string, Record<string, unknown>>, depth: number): void {
  if (depth > MAX_DEPTH || !isRecord(node)) return;
  if (typeof node.$anchor === 'string' && !anchors.has(node.$anchor)) anchors.set(node.$anchor, node);
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const item of value) collectAnchors(item, anchors, depth + 1);
    else collectAnchors(value, anchors, depth + 1);
  }
}
