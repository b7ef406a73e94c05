import type { Parameter, ToolManifest } from '../tools/tool-manifest.ts';
import type { LocalizedList, LocalizedText } from '../core/language.ts';

/** What the router reads of a tool: its texts by field, every language's together. */
export interface RouteDoc {
  name: string;
  description: string[];
  /** Parameter descriptions and enum values (nested ones too); and their names, unless `parameterNames` has them. */
  parameters: string[];
  /** Parameter names (nested ones too), scored as a field of their own. */
  parameterNames?: string[];
  /** Requests that should reach the tool. */
  examples: string[];
}

/** A manifest's texts, in every language it has: a request in any of them should find the tool. */
export function routeDocOf(manifest: Pick<ToolManifest, 'name' | 'description' | 'parameters' | 'examples'>): RouteDoc {
  const parameters: string[] = [];
  const parameterNames: string[] = [];
  for (const [name, parameter] of Object.entries(manifest.parameters ?? {}))
    addParameter(name, parameter, parameters, parameterNames, 0);
  return {
    name: manifest.name,
    description: texts(manifest.description),
    parameters,
    parameterNames,
    examples: lists(manifest.examples),
  };
}

function texts(text: LocalizedText | undefined): string[] {
  if (text === undefined) return [];
  if (typeof text === 'string') return [text];
  return Object.values(text).filter((value): value is string => typeof value === 'string');
}

function lists(list: LocalizedList | undefined): string[] {
  if (list === undefined) return [];
  if (Array.isArray(list)) return list.filter((value) => typeof value === 'string');
  return Object.values(list).flatMap((values) =>
    Array.isArray(values) ? values.filter((value) => typeof value === 'string') : [],
  );
}

// Deep enough for any real manifest; a pathological one stops here rather than walking forever.
const MAX_DEPTH = 4;

function addParameter(name: string, parameter: Parameter, into: string[], names: string[], depth: number): void {
  if (name !== '') names.push(name);
  if (typeof parameter === 'string') {
    into.push(parameter);
    return;
  }
  into.push(...texts(parameter.description));
  for (const value of parameter.enum ?? []) if (typeof value === 'string') into.push(value);
  if (depth >= MAX_DEPTH) return;
  if (parameter.items !== undefined) addParameter('', parameter.items, into, names, depth + 1);
  for (const [key, field] of Object.entries(parameter.properties ?? {}))
    addParameter(key, field, into, names, depth + 1);
}

/**
 * The texts of a JSON Schema's properties (as MCP tools and the benchmark's catalogs carry them):
 * descriptions and enum values into `into`, property names into `names`.
 */
export function schemaTexts(schema: unknown, into: string[] = [], names: string[] = into, depth = 0): string[] {
  if (typeof schema !== 'object' || schema === null || depth > MAX_DEPTH) return into;
  const node = schema as { description?: unknown; enum?: unknown; properties?: unknown; items?: unknown };
  if (typeof node.description === 'string' && depth > 0) into.push(node.description);
  if (Array.isArray(node.enum)) for (const value of node.enum) if (typeof value === 'string') into.push(value);
  if (typeof node.properties === 'object' && node.properties !== null) {
    for (const [key, field] of Object.entries(node.properties)) {
      names.push(key);
      schemaTexts(field, into, names, depth + 1);
    }
  }
  if (node.items !== undefined) schemaTexts(node.items, into, names, depth + 1);
  return into;
}
