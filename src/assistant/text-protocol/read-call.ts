import { isRecord } from '../../schema/schema-node.ts';
import { jsonText } from '../../models/json-text.ts';
import { parseLenient } from './lenient-json.ts';

// Which JSON values in a reply are tool calls, and the call read from each (or what is wrong with it).

/** One call read from a reply; `arguments` is JSON text of an object, like native calls carry. */
export interface TextToolCall {
  name: string;
  arguments: string;
}

/** A part of the reply that tried to call tools: the calls, or why they cannot be used. */
export interface Attempt {
  start: number;
  end: number;
  calls?: TextToolCall[];
  error?: string;
}

/** Keys a call object may carry; a `name`-keyed object with other keys is data, not a call. */
const NAME_KEYS = ['tool', 'tool_name', 'function', 'name'] as const;
const ARGUMENT_KEYS = ['arguments', 'params', 'parameters', 'args', 'input'] as const;
const CALL_KEYS = new Set<string>([...NAME_KEYS, ...ARGUMENT_KEYS, 'id', 'type', 'call_id']);
/** Keys that make an object a call attempt whatever else it holds. */
const OUTRIGHT_KEYS = new Set(['tool', 'tool_name', 'function', 'tool_calls']);

/** Tool-ish keys in text that may not parse: the reply was trying to call a tool. */
const QUOTED_KEY = (keys: string): RegExp => new RegExp(`["'“‘](?:${keys})["'”’]\\s*[:：]`);
export const STRONG_KEY = QUOTED_KEY('tool|tool_name|tool_calls|function|arguments');
export const NAME_KEY = QUOTED_KEY('name');
export const WEAK_ARGUMENT_KEY = QUOTED_KEY('params|parameters|args|input');

export function looksLikeCall(text: string): boolean {
  return STRONG_KEY.test(text) || (NAME_KEY.test(text) && WEAK_ARGUMENT_KEY.test(text));
}

export const EXPECTED = 'Expected {"tool": "<tool name>", "arguments": {...}} or an array of such objects.';

/** Decides whether a parsed value is a call attempt, and reads it if so. */
export function classify(value: unknown, alone: boolean, start: number, end: number): Attempt | undefined {
  let items: unknown[];
  if (Array.isArray(value)) {
    if (!value.some((item) => isCallShaped(item, alone))) return undefined;
    items = value;
  } else if (isRecord(value) && Array.isArray(value.tool_calls)) {
    items = value.tool_calls;
    if (items.length === 0) return undefined;
  } else if (isCallShaped(value, alone)) {
    items = [value];
  } else {
    return undefined;
  }
  const calls: TextToolCall[] = [];
  for (const [index, item] of items.entries()) {
    const call = readCall(item);
    if (typeof call === 'string') {
      const error = items.length > 1 ? `Call ${index + 1} of ${items.length}: ${call}` : call;
      return { start, end, error: error.charAt(0).toUpperCase() + error.slice(1) };
    }
    calls.push(call);
  }
  return { start, end, calls };
}

/**
 * Whether an object is meant as a call. `tool`/`function` keys say so outright; `name` needs an
 * arguments key too, or to be the only key of a reply that is nothing but this JSON, because
 * `{"name": "Alice", "age": 30}` is ordinary data.
 */
function isCallShaped(value: unknown, alone: boolean): boolean {
  if (!isRecord(value)) return false;
  const keys = Object.keys(value);
  if (keys.some((key) => OUTRIGHT_KEYS.has(key))) return true;
  const onlyCallKeys = keys.every((key) => CALL_KEYS.has(key));
  if ('name' in value) {
    if ('arguments' in value) return true;
    if (onlyCallKeys && ARGUMENT_KEYS.some((key) => key in value)) return true;
    return alone && keys.length === 1;
  }
  // Arguments without a name: a call that forgot its name.
  return 'arguments' in value && onlyCallKeys;
}

/** One call from one object, or a sentence saying what is wrong with it. */
function readCall(item: unknown): TextToolCall | string {
  if (!isRecord(item))
    return `expected a call object like {"tool": "<tool name>", "arguments": {...}}, got ${describe(item)}.`;
  // OpenAI-like `{"function": {"name", "arguments"}}`; the name and arguments live in the inner object.
  const inner = isRecord(item.function) ? item.function : isRecord(item.tool) ? item.tool : undefined;
  const holder = inner ?? item;
  const nameKey = inner !== undefined ? 'name' : NAME_KEYS.find((key) => key in item);
  const name = nameKey === undefined ? undefined : holder[nameKey];
  if (name === undefined || name === null)
    return 'the call has no tool name: expected {"tool": "<tool name>", "arguments": {...}}.';
  if (typeof name !== 'string' || name.trim() === '')
    return `the tool name must be a non-empty string, got ${describe(name)}.`;
  const toolName = name.trim();
  const argumentsKey = ARGUMENT_KEYS.find((key) => key in holder) ?? ARGUMENT_KEYS.find((key) => key in item);
  const raw =
    argumentsKey === undefined ? undefined : argumentsKey in holder ? holder[argumentsKey] : item[argumentsKey];
  const args = readArguments(raw, toolName);
  if (typeof args !== 'string') return args.error;
  return { name: toolName, arguments: args };
}

function readArguments(raw: unknown, tool: string): string | { error: string } {
  const expected = 'they must be a JSON object mapping parameter names to values, e.g. {"city": "Paris"}.';
  if (raw === undefined || raw === null) return '{}';
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return '{}';
    const parsed = parseLenient(raw.trim());
    if (!('value' in parsed))
      return { error: `the arguments of "${tool}" are a string that is not valid JSON (${parsed.error}); ${expected}` };
    value = parsed.value;
  }
  if (!isRecord(value)) return { error: `the arguments of "${tool}" are ${describe(value)}; ${expected}` };
  return jsonText(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  }
  if (typeof value === 'object') return 'an object';
  return `the ${typeof value} ${String(value)}`;
}
