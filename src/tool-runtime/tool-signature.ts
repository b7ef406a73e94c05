import { toSpec } from './parameter-schema.ts';
import type { Parameter, ParameterSpec, ToolManifest } from '../tools/tool-manifest.ts';
import { localize, type Language } from '../core/language.ts';

/**
 * A one-line signature a model (or a person) can read, e.g.
 * `weather(city: string, days?: integer = 1, units?: "metric" | "imperial")`.
 */
export function toolSignature(manifest: ToolManifest): string {
  return `${manifest.name}(${fieldList(manifest.parameters ?? {})})`;
}

/** One line per parameter with its description, for error messages that show what is expected. */
export function describeParameters(manifest: ToolManifest, language: Language = 'en'): string {
  const lines = Object.entries(manifest.parameters ?? {}).map(([name, parameter]) => {
    const spec = toSpec(parameter);
    const description = localize(spec.description, language);
    return `  ${name}${spec.required === true ? '' : '?'}: ${typeName(spec)}${description === '' ? '' : ` — ${description}`}`;
  });
  return lines.join('\n');
}

function fieldList(fields: Record<string, Parameter>): string {
  return Object.entries(fields)
    .map(([name, parameter]) => {
      const spec = toSpec(parameter);
      const defaultValue = spec.default === undefined ? '' : ` = ${JSON.stringify(spec.default)}`;
      return `${name}${spec.required === true ? '' : '?'}: ${typeName(spec)}${defaultValue}`;
    })
    .join(', ');
}

function typeName(spec: ParameterSpec): string {
  if (spec.enum !== undefined) return spec.enum.map((value) => JSON.stringify(value)).join(' | ');
  const type = spec.type ?? 'string';
  if (type === 'array') return spec.items === undefined ? 'array' : `${wrap(typeName(toSpec(spec.items)))}[]`;
  if (type === 'object' && spec.properties !== undefined) return `{ ${fieldList(spec.properties)} }`;
  return type;
}

function wrap(type: string): string {
  return type.includes(' | ') ? `(${type})` : type;
}
