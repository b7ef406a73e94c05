import type { ToolDefinition } from '../../models/chat-model.ts';
import type { JsonSchema } from '../../tool-runtime/parameter-schema.ts';
import type { Language } from '../../core/language.ts';
import { CALL_EXAMPLE, WORDING } from './wording.ts';

// What a model without native function calling is told about the tools, in its system prompt.

/**
 * The section appended to the system prompt: how to call tools, then each tool with its parameters
 * as compact JSON Schema. Empty when there are no tools.
 */
export function textProtocolInstructions(tools: readonly ToolDefinition[], language: Language): string {
  if (tools.length === 0) return '';
  const words = WORDING[language];
  const lines = [words.heading, words.howTo, '```json', CALL_EXAMPLE[language], '```', words.after, ''];
  for (const tool of tools) {
    const description = tool.description.trim().replace(/\n/g, '\n  ');
    lines.push(`- ${tool.name}${description === '' ? '' : `: ${description}`}`);
    lines.push(`  ${words.parameters}: ${compactSchema(tool.parameters)}`);
  }
  return lines.join('\n');
}

/**
 * The schema as one line, without `additionalProperties: false` and empty `required` lists: they
 * cost tokens with many tools, and the instructions already say to use only listed parameters.
 */
export function compactSchema(schema: JsonSchema): string {
  return JSON.stringify(schema, (key, value: unknown) => {
    if (key === 'additionalProperties' && value === false) return undefined;
    if (key === 'required' && Array.isArray(value) && value.length === 0) return undefined;
    return value;
  });
}
