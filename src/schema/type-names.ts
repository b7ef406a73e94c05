import { hint } from './schema-hints.ts';
import type { JsonType } from './schema-node.ts';

// The type names real catalogs use beside the standard ones: BFCL's "dict" and "float", Python's
// "str" and "tuple", OpenAPI's upper case. "any" (like a missing type) puts no constraint.
const TYPE_NAMES: Record<string, JsonType | 'any'> = {
  string: 'string',
  str: 'string',
  text: 'string',
  char: 'string',
  number: 'number',
  float: 'number',
  double: 'number',
  decimal: 'number',
  integer: 'integer',
  int: 'integer',
  long: 'integer',
  boolean: 'boolean',
  bool: 'boolean',
  array: 'array',
  list: 'array',
  tuple: 'array',
  set: 'array',
  object: 'object',
  dict: 'object',
  map: 'object',
  null: 'null',
  none: 'null',
  any: 'any',
};

/** The standard types `type` names; undefined for no constraint (none given, "any", or a name not known, which goes to `hints`). */
export function readTypes(type: unknown, hints: string[]): JsonType[] | undefined {
  const names = typeof type === 'string' ? [type] : Array.isArray(type) ? type : [];
  const types: JsonType[] = [];
  for (const name of names) {
    const known = typeof name === 'string' ? TYPE_NAMES[name.trim().toLowerCase()] : undefined;
    if (known === undefined) hints.push(hint('type', name));
    if (known === undefined || known === 'any') return undefined;
    if (!types.includes(known)) types.push(known);
  }
  return types.length === 0 ? undefined : types;
}
