import type { Parameter, ParameterSpec, ToolManifest } from '../tools/tool-manifest.ts';
import { localize, type Language } from '../core/language.ts';

/** The JSON Schema subset the parameters compile to. */
export interface JsonSchema {
  type?: string;
  description?: string;
  enum?: readonly unknown[];
  default?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
}

/** The long form of any parameter: a bare string is an optional string with that description. */
export function toSpec(parameter: Parameter): ParameterSpec {
  return typeof parameter === 'string' ? { description: parameter } : parameter;
}

/**
 * The parameters as one JSON Schema object — what models are given and what arguments are
 * validated against. Unknown parameters are rejected (`additionalProperties: false`).
 */
export function parametersSchema(manifest: ToolManifest, language: Language = 'en'): JsonSchema {
  const given = givenSchema(manifest);
  if (given !== undefined) return given;
  return objectSchema(manifest.parameters ?? {}, language, true);
}

/**
 * The manifest's full JSON Schema (`inputSchema`, or `input_schema`), as its author wrote it: what
 * MCP clients are given ($schema, $defs, $ref, allOf, if/then/else kept); each provider's dialect
 * is compiled from it. Undefined for a manifest with `parameters`.
 */
export function givenSchema(manifest: ToolManifest): JsonSchema | undefined {
  return (manifest.inputSchema ?? manifest.input_schema) as JsonSchema | undefined;
}

function objectSchema(fields: Record<string, Parameter>, language: Language, closed: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, parameter] of Object.entries(fields)) {
    const spec = toSpec(parameter);
    properties[name] = specSchema(spec, language);
    if (spec.required === true) required.push(name);
  }
  return { type: 'object', properties, required, ...(closed ? { additionalProperties: false } : {}) };
}

/** One parameter's schema, as it appears inside the parameters' schema. */
export function specSchema(spec: ParameterSpec, language: Language = 'en'): JsonSchema {
  const type = spec.type ?? 'string';
  const description = localize(spec.description, language);
  // A nested object without declared fields is free-form; with them, it is closed like the top level.
  const base: JsonSchema =
    type === 'object' && spec.properties !== undefined ? objectSchema(spec.properties, language, true) : { type };
  if (description !== '') base.description = description;
  if (spec.enum !== undefined) base.enum = spec.enum;
  if (spec.default !== undefined) base.default = spec.default;
  if (type === 'array' && spec.items !== undefined) base.items = specSchema(toSpec(spec.items), language);
  return base;
}
