import { isRecord, ordered, typesOf, type SchemaNode } from './schema-node.ts';

// Combinators, reduced to what the dialects can carry.

/** `allOf` folded into one node: properties and required joined, the first value of any other keyword kept. */
export function mergeAllOf(raw: Record<string, unknown>): Record<string, unknown> {
  const { allOf, ...rest } = raw;
  const merged: Record<string, unknown> = { ...rest };
  for (const member of (allOf as unknown[]).filter(isRecord)) {
    const flat = Array.isArray(member.allOf) ? mergeAllOf(member) : member;
    for (const [key, value] of Object.entries(flat)) {
      if (key === 'properties' && isRecord(value))
        merged.properties = { ...(isRecord(merged.properties) ? merged.properties : {}), ...value };
      else if (key === 'required' && Array.isArray(value))
        merged.required = [...(Array.isArray(merged.required) ? merged.required : []), ...value];
      else if (!(key in merged)) merged[key] = value;
    }
  }
  return merged;
}

/** Tuple-form `items` (one schema per position) becomes one schema any element matches. */
export function tupleItems(members: SchemaNode[]): SchemaNode | undefined {
  const distinct = uniqueSchemas(members);
  if (distinct.length === 0) return undefined;
  return distinct.length === 1 ? distinct[0] : { anyOf: distinct };
}

function uniqueSchemas(members: SchemaNode[]): SchemaNode[] {
  const seen = new Set<string>();
  return members.filter((member) => {
    const key = JSON.stringify(member);
    return !seen.has(key) && seen.add(key) !== undefined;
  });
}

/** `anyOf: [X, {type: "null"}]` (how generators write an optional X) is X with null added to its type. */
export function collapseNullUnion(node: SchemaNode): SchemaNode {
  if (node.anyOf === undefined || node.type !== undefined) return node;
  const members = node.anyOf.filter(
    (member) =>
      !(member.type === 'null' && Object.keys(member).every((key) => key === 'type' || key === 'description')),
  );
  if (members.length !== 1 || members.length === node.anyOf.length) return node;
  const { anyOf: _anyOf, ...outer } = node;
  const member = members[0]!;
  const types = typesOf(member);
  const merged: SchemaNode = { ...member, ...outer };
  if (types.length > 0 && !types.includes('null')) merged.type = [...types, 'null'];
  if (merged.enum !== undefined && !merged.enum.includes(null)) merged.enum = [...merged.enum, null];
  return ordered(merged);
}
