import { compileSchema } from './compile-schema.ts';
import type { Dialect } from './dialect.ts';
import { hasProperties } from './schema-node.ts';

export interface ToolDescription {
  name: string;
  description: string;
  /** The parameters' schema, in any JSON-Schema-like form compileSchema takes. */
  parameters: unknown;
}

/** A tool as a provider is given it, in that provider's own wrapper. */
export function toolDefinition(tool: ToolDescription, dialect: Dialect): Record<string, unknown> {
  const parameters = compileSchema(tool.parameters, dialect);
  const { name, description } = tool;
  switch (dialect) {
    case 'openai':
      return { type: 'function', function: { name, description, parameters } };
    case 'openai-strict':
      return { type: 'function', function: { name, description, parameters, strict: true } };
    case 'anthropic':
      return { name, description, input_schema: parameters };
    case 'gemini':
      // Gemini rejects an object without properties: a tool without parameters declares none.
      return hasProperties(parameters) ? { name, description, parameters } : { name, description };
    case 'json':
      return { name, description, parameters };
  }
}
