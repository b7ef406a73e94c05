import { jsonTypeOf, matchesType, ordered, type JsonType, type SchemaNode } from './schema-node.ts';

// Enum and default values, reconciled with the type a catalog declared for them.

/** `node` restricted to `values`, retyped from them if its type does not fit them. */
export function withEnum(node: SchemaNode, values: unknown[]): SchemaNode {
  const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
  const fitsType = types.length > 0 && values.every((value) => types.some((type) => matchesType(value, type)));
  const valueTypeList = valueTypes(values);
  const type = fitsType ? node.type : valueTypeList.length === 1 ? valueTypeList[0] : valueTypeList;
  return ordered({ ...node, type, enum: values });
}

/** The JSON types of `values` (integers folded into number when both occur). */
export function valueTypes(values: unknown[]): JsonType[] {
  const types = [...new Set(values.map(jsonTypeOf))];
  return types.includes('number') ? types.filter((type) => type !== 'integer') : types;
}

/** A default written as text for a boolean or number ("false", "5") as the value it means. */
export function coerceDefault(value: unknown, types: JsonType[] | undefined): unknown {
  if (typeof value !== 'string' || types === undefined || types.includes('string')) return value;
  const text = value.trim().toLowerCase();
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if ((types.includes('number') || types.includes('integer')) && text !== '' && Number.isFinite(Number(text)))
    return Number(text);
  return value;
}

/** True when a default is a value the node accepts. */
export function fits(value: unknown, types: JsonType[] | undefined, values: unknown[] | undefined): boolean {
  if (value === undefined) return false;
  if (types !== undefined && !types.some((type) => matchesType(value, type))) return false;
  return values === undefined || values.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value));
}

export function uniqueValues(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = JSON.stringify(value);
    return !seen.has(key) && seen.add(key) !== undefined;
  });
}
