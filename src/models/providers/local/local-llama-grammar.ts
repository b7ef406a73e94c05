// The reply shape a grammar enforces when tools are offered: one JSON object, either a call of one
// of the tools with arguments that fit its schema, or the answer. The grammar makes the JSON valid
// token by token, so even a small model cannot send a malformed call.
import type { ToolChoice, ToolDefinition } from '../../chat-model.ts';
import type { JsonSchema } from '../../../tool-runtime/parameter-schema.ts';

/** A schema in node-llama-cpp's JSON-schema-for-grammars dialect. */
type GrammarSchema = Record<string, unknown>;

/** What a finished constrained reply holds. */
export type GrammarReply = { kind: 'call'; name: string; arguments: string } | { kind: 'answer'; text: string };

/**
 * `{"tool": <name>, "arguments": {…}}` per tool (so arguments match the tool named), or `{"answer": "…"}`.
 * A tool choice narrows it: `required`, a call and no answer; a name, a call of that tool.
 */
export function replySchema(tools: readonly ToolDefinition[], choice?: ToolChoice): GrammarSchema {
  const callable = typeof choice === 'object' ? tools.filter((tool) => tool.name === choice.name) : tools;
  const answer = choice === undefined || choice === 'auto' || choice === 'none';
  return {
    oneOf: [
      ...callable.map((tool) => ({
        type: 'object',
        properties: { tool: { const: tool.name }, arguments: objectSchema(tool.parameters) },
      })),
      ...(answer ? [{ type: 'object', properties: { answer: { type: 'string' } } }] : []),
    ],
  };
}

/** Reads a complete reply; undefined when it is not (the token limit cut it). */
export function readGrammarReply(raw: string, tools: readonly ToolDefinition[]): GrammarReply | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  if (typeof value.answer === 'string') return { kind: 'answer', text: value.answer };
  const tool = tools.find((candidate) => candidate.name === value.tool);
  if (tool === undefined) return undefined;
  return {
    kind: 'call',
    name: tool.name,
    arguments: JSON.stringify(dropNulls(value.arguments ?? {}, tool.parameters)),
  };
}

/**
 * A grammar object requires every property it lists, so optional parameters may be `null` instead,
 * and those nulls are dropped from the call (the tool sees them as not given).
 */
function objectSchema(schema: JsonSchema): GrammarSchema {
  const properties = Object.entries(schema.properties ?? {});
  // No declared fields: any object.
  if (properties.length === 0) return { type: 'object', additionalProperties: schema.additionalProperties !== false };
  const required = new Set(schema.required ?? []);
  const fields: Record<string, GrammarSchema> = {};
  for (const [name, property] of properties) {
    const value = valueSchema(property);
    fields[name] = required.has(name) ? value : { oneOf: [value, { type: 'null' }] };
  }
  // Open objects get no extra keys: for a model, unknown keys are mistakes.
  return { type: 'object', properties: fields };
}

function valueSchema(schema: JsonSchema): GrammarSchema {
  if (schema.enum?.every(isLiteral)) return { enum: schema.enum };
  switch (schema.type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
    case 'null':
      return { type: schema.type };
    case 'array':
      return schema.items === undefined ? { type: 'array' } : { type: 'array', items: valueSchema(schema.items) };
    case 'object':
      return objectSchema(schema);
    default:
      return ANY;
  }
}

/** Any JSON value (an empty schema would mean only `null` to node-llama-cpp). */
const ANY: GrammarSchema = {
  oneOf: [
    { type: ['string', 'number', 'boolean', 'null'] },
    { type: 'array' },
    { type: 'object', additionalProperties: true },
  ],
};

function dropNulls(value: unknown, schema: JsonSchema): unknown {
  if (!isRecord(value) || schema.properties === undefined) return value;
  const required = new Set(schema.required ?? []);
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const property = schema.properties[key];
    if (item === null && property !== undefined && !required.has(key)) continue;
    kept[key] = property === undefined ? item : dropNulls(item, property);
  }
  return kept;
}

function isLiteral(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
