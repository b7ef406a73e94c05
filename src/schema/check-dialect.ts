import type { NodeFacts, SchemaTotals } from './dialect-rules.ts';
import { dialectRules, type Dialect } from './dialect.ts';
import { isRecord, JSON_TYPES } from './schema-node.ts';

/**
 * The rules of `dialect` that `schema` (a compiled top-level schema) breaks, each with its path;
 * empty when none. What every dialect asks is checked here; what one dialect adds, by its own rules.
 */
export function checkDialect(schema: unknown, dialect: Dialect): string[] {
  const problems: string[] = [];
  if (!isRecord(schema)) return ['the schema is not an object'];
  const rules = dialectRules(dialect).check;
  if (schema.type !== 'object') problems.push('the top must be type "object"');
  rules.top?.(schema, problems);
  const totals: SchemaTotals = { properties: 0, enumValues: 0, stringChars: 0, depth: 0 };
  walk(schema, '', 0, dialect, problems, totals);
  rules.totals?.(totals, problems);
  return problems;
}

function walk(
  node: Record<string, unknown>,
  path: string,
  depth: number,
  dialect: Dialect,
  problems: string[],
  totals: SchemaTotals,
): void {
  const rules = dialectRules(dialect).check;
  const at = path === '' ? 'top' : path;
  for (const key of Object.keys(node)) if (!rules.keywords.has(key)) problems.push(`${at}: "${key}" is not allowed`);
  const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
  for (const type of types)
    if (!(JSON_TYPES as readonly unknown[]).includes(type))
      problems.push(`${at}: unknown type ${JSON.stringify(type)}`);
  if (node.enum !== undefined && (!Array.isArray(node.enum) || node.enum.length === 0))
    problems.push(`${at}: enum must be a non-empty array`);
  if (typeof node.pattern === 'string' && !compiles(node.pattern)) problems.push(`${at}: pattern does not compile`);
  const properties = isRecord(node.properties) ? node.properties : undefined;
  const names = Object.keys(properties ?? {});
  const required = Array.isArray(node.required) ? node.required : [];
  for (const name of required) if (!names.includes(name)) problems.push(`${at}: required "${name}" is not a property`);
  if (types.includes('object')) totals.depth = Math.max(totals.depth, depth + 1);
  const facts: NodeFacts = { at, types, names, required };
  rules.node?.(node, facts, problems);
  count(node, names, totals);

  const children: [string, unknown][] = [
    ...Object.entries(properties ?? {}).map(([name, child]): [string, unknown] => [
      `${path}.${name}`.replace(/^\./, ''),
      child,
    ]),
    [`${path}[]`, node.items],
    ...(isRecord(node.additionalProperties) ? [[`${path}{}`, node.additionalProperties] as [string, unknown]] : []),
    ...Object.entries(isRecord(node.patternProperties) ? node.patternProperties : {}).map(
      ([key, child]): [string, unknown] => [`${path}{${key}}`, child],
    ),
    ...['anyOf', 'oneOf', 'allOf'].flatMap((key) =>
      Array.isArray(node[key])
        ? (node[key] as unknown[]).map((child, index): [string, unknown] => [`${path}<${key}${index}>`, child])
        : [],
    ),
  ];
  for (const [childPath, child] of children) {
    if (child === undefined) continue;
    if (!isRecord(child)) problems.push(`${childPath}: not a schema object`);
    else walk(child, childPath, types.includes('object') ? depth + 1 : depth, dialect, problems, totals);
  }
}

function count(node: Record<string, unknown>, names: string[], totals: SchemaTotals): void {
  totals.properties += names.length;
  totals.stringChars += names.reduce((sum, name) => sum + name.length, 0);
  if (Array.isArray(node.enum)) {
    totals.enumValues += node.enum.length;
    totals.stringChars += node.enum.reduce((sum: number, value) => sum + String(value).length, 0);
  }
  if (node.const !== undefined) totals.stringChars += String(node.const).length;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
