import type { ToolDefinition } from '../models/chat-model.ts';
import { jsonText } from '../models/json-text.ts';
import type { JsonSchema } from '../tools/parameter-schema.ts';
import type { Language } from '../tools/tool-manifest.ts';

/**
 * The text protocol: tool calling for models without native function calling. The system prompt
 * lists the tools and asks for a fenced JSON block; the reply is parsed here. A reply that clearly
 * tried to call a tool but got the format wrong is `invalid` (with a specific error for one repair
 * round), never silently "no tools".
 */

/** One call read from a reply; `arguments` is JSON text of an object, like native calls carry. */
export interface TextToolCall {
  name: string;
  arguments: string;
}

export type TextProtocolParse =
  /** A plain answer: no attempt at a call. `text` is the reply, trimmed. */
  | { kind: 'none'; text: string }
  /** `text` is the prose outside the call blocks, trimmed. */
  | { kind: 'calls'; calls: TextToolCall[]; text: string }
  /** The reply tried to call a tool but the call cannot be used; `error` says what and what is expected. */
  | { kind: 'invalid'; error: string; text: string };

interface Wording {
  heading: string;
  howTo: string;
  after: string;
  parameters: string;
  repairLead: string;
  repairFormat: string;
  results: string;
  succeeded: string;
  failed: string;
  resultsAfter: string;
}

const CALL_EXAMPLE = {
  en: '{"tool": "<tool name>", "arguments": {"<parameter>": <value>}}',
  zh: '{"tool": "<工具名>", "arguments": {"<参数名>": <值>}}',
  ja: '{"tool": "<ツール名>", "arguments": {"<パラメータ名>": <値>}}',
} as const;

const WORDING: Record<Language, Wording> = {
  en: {
    heading: '## Tools',
    howTo:
      'To call a tool, reply with ONLY a fenced JSON block and nothing else. To call several tools at once, put an array of such objects in the one block.',
    after:
      'Tool results come back as a message; then answer the user normally, without a block (or call another tool if you still need one). Use only the tools and parameters listed below; never invent tool names. If no tool is needed, just answer.',
    parameters: 'parameters',
    repairLead: 'Your tool call could not be used:',
    repairFormat:
      'To call a tool, reply with only a ```json block holding {"tool": "<tool name>", "arguments": {...}} (or an array of them). To answer without a tool, reply in plain text with no block.',
    results: 'Tool results',
    succeeded: 'succeeded',
    failed: 'FAILED',
    resultsAfter:
      'Answer the user with these results, in plain text without a block — or call another tool if you still need one.',
  },
  zh: {
    heading: '## 工具',
    howTo: '需要调用工具时，只回复一个 JSON 代码块，不要写任何其他内容。要同时调用多个工具，就在这一个代码块里放这些对象组成的数组。',
    after:
      '工具结果会以消息的形式返回；之后请用正常的文字回答用户，不要再写代码块（如果还需要别的工具，可以继续调用）。只能使用下面列出的工具和参数，不要编造工具名。不需要工具时直接回答即可。',
    parameters: '参数',
    repairLead: '你的工具调用无法使用：',
    repairFormat:
      '调用工具时，只回复一个 ```json 代码块，内容为 {"tool": "<工具名>", "arguments": {...}}（或由这样的对象组成的数组）。不用工具回答时，直接用文字回复，不要写代码块。',
    results: '工具结果',
    succeeded: '成功',
    failed: '失败',
    resultsAfter: '请根据这些结果用文字回答用户，不要写代码块；如果还需要别的工具，也可以继续调用。',
  },
  ja: {
    heading: '## ツール',
    howTo:
      'ツールを呼び出すときは、JSON のコードブロックだけを返信し、ほかには何も書かないでください。複数のツールを同時に呼び出すときは、それらのオブジェクトの配列を一つのブロックに入れてください。',
    after:
      'ツールの結果はメッセージとして届きます。その後はブロックを付けずに、普通の文章でユーザーに回答してください（まだ別のツールが必要なら、続けて呼び出してもかまいません）。下に挙げたツールとパラメータだけを使い、ツール名を作り出さないでください。ツールが不要なら、そのまま回答してください。',
    parameters: 'パラメータ',
    repairLead: 'ツール呼び出しを使用できませんでした：',
    repairFormat:
      'ツールを呼び出すときは、{"tool": "<ツール名>", "arguments": {...}}（またはその配列）を入れた ```json ブロックだけを返信してください。ツールを使わずに回答するときは、ブロックなしの普通の文章で返信してください。',
    results: 'ツールの結果',
    succeeded: '成功',
    failed: '失敗',
    resultsAfter:
      'これらの結果をもとに、ブロックを付けずに文章でユーザーに回答してください。まだ別のツールが必要なら、続けて呼び出してもかまいません。',
  },
};

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

/** The user message for the one repair round after an `invalid` parse. */
export function textProtocolRepair(error: string, language: Language): string {
  const words = WORDING[language];
  return `${words.repairLead}\n${error}\n\n${words.repairFormat}`;
}

/**
 * Tool results as one user message for a text-protocol model: numbered like the calls, each marked
 * succeeded or failed, each body fenced so that its content cannot blur into the next.
 */
export function formatToolResultsForText(
  results: ReadonlyArray<{ name: string; content: string; isError?: boolean }>,
  language: Language,
): string {
  const words = WORDING[language];
  const parts = [`[${words.results}]`];
  results.forEach((result, index) => {
    const fence = fenceFor(result.content);
    const status = result.isError === true ? words.failed : words.succeeded;
    parts.push(`${index + 1}. ${result.name} (${status})\n${fence}\n${result.content}\n${fence}`);
  });
  parts.push(words.resultsAfter);
  return parts.join('\n\n');
}

/** A backtick fence longer than any backtick run in the content, as Markdown allows. */
function fenceFor(content: string): string {
  const longest = Math.max(0, ...Array.from(content.matchAll(/`+/g), (match) => match[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

// ---------------------------------------------------------------------------------------------
// Parsing

/** Keys a call object may carry; a `name`-keyed object with other keys is data, not a call. */
const NAME_KEYS = ['tool', 'tool_name', 'function', 'name'] as const;
const ARGUMENT_KEYS = ['arguments', 'params', 'parameters', 'args', 'input'] as const;
const CALL_KEYS = new Set<string>([...NAME_KEYS, ...ARGUMENT_KEYS, 'id', 'type', 'call_id']);
/** Keys that make an object a call attempt whatever else it holds. */
const OUTRIGHT_KEYS = new Set(['tool', 'tool_name', 'function', 'tool_calls']);

/** Tool-ish keys in text that may not parse: the reply was trying to call a tool. */
const QUOTED_KEY = (keys: string): RegExp => new RegExp(`["'“‘](?:${keys})["'”’]\\s*[:：]`);
const STRONG_KEY = QUOTED_KEY('tool|tool_name|tool_calls|function|arguments');
const NAME_KEY = QUOTED_KEY('name');
const WEAK_ARGUMENT_KEY = QUOTED_KEY('params|parameters|args|input');

function looksLikeCall(text: string): boolean {
  return STRONG_KEY.test(text) || (NAME_KEY.test(text) && WEAK_ARGUMENT_KEY.test(text));
}

/** Fence info strings that mark a call block outright, and those that may hold one. */
const CALL_TAGS = new Set(['tool_call', 'tool_calls', 'tool-call', 'tool', 'function_call']);
const JSON_TAGS = new Set(['json', 'jsonc', 'json5', 'jsonl']);

type BlockKind = 'call' | 'json' | 'untagged' | 'other';

interface Block {
  start: number;
  end: number;
  body: string;
  kind: BlockKind;
  /** How errors name it: "```json block". */
  label: string;
}

/** A part of the reply that tried to call tools: the calls, or why they cannot be used. */
interface Attempt {
  start: number;
  end: number;
  calls?: TextToolCall[];
  error?: string;
}

/** Reads a model's reply under the text protocol. */
export function parseTextToolCalls(reply: string): TextProtocolParse {
  const blocks = findBlocks(reply);
  const attempts: Attempt[] = [];
  let cursor = 0;
  for (const block of blocks) {
    scanBare(reply, cursor, block.start, attempts);
    cursor = block.end;
    const attempt = readBlock(reply, block);
    if (attempt !== undefined) attempts.push(attempt);
  }
  scanBare(reply, cursor, reply.length, attempts);
  attempts.sort((a, b) => a.start - b.start);

  const text = textOutside(reply, attempts);
  const errors = attempts.flatMap((attempt) => (attempt.error === undefined ? [] : [attempt.error]));
  if (errors.length > 0) return { kind: 'invalid', error: summarize(errors), text };
  const calls = attempts.flatMap((attempt) => attempt.calls ?? []);
  if (calls.length > 0) return { kind: 'calls', calls, text };
  return { kind: 'none', text: reply.trim() };
}

/** At most a few errors: enough to fix the call, short enough to send back. */
function summarize(errors: readonly string[]): string {
  const shown = [...new Set(errors)].slice(0, MAX_ERRORS);
  const more = errors.length - shown.length;
  return shown.join('\n') + (more > 0 ? `\n(and ${more} more like these)` : '');
}

const MAX_ERRORS = 3;

/** Fenced blocks (``` with any info string, inline or not) and `<tool_call>` tags, in order. */
function findBlocks(reply: string): Block[] {
  const blocks: Block[] = [];
  // Every close search scans to the end of the reply, so bracket ends found once hold for all.
  const ends = new Map<number, number>();
  const opener = /(`{3,})[ \t]*([\w.+-]*)|<tool_call>/g;
  let match: RegExpExecArray | null;
  while ((match = opener.exec(reply)) !== null) {
    const start = match.index;
    const ticks = match[1];
    const bodyStart = start + match[0].length;
    let close: string;
    let kind: BlockKind;
    let label: string;
    if (ticks === undefined) {
      close = '</tool_call>';
      kind = 'call';
      label = '<tool_call> block';
    } else {
      const tag = (match[2] ?? '').toLowerCase();
      close = ticks;
      kind = CALL_TAGS.has(tag) ? 'call' : JSON_TAGS.has(tag) ? 'json' : tag === '' ? 'untagged' : 'other';
      label = `${ticks}${tag} block`;
    }
    const closeAt = findClose(reply, bodyStart, close, kind !== 'other', ends);
    const end = closeAt === -1 ? reply.length : closeAt + close.length;
    blocks.push({ start, end, body: reply.slice(bodyStart, closeAt === -1 ? reply.length : closeAt), kind, label });
    opener.lastIndex = end;
  }
  return blocks;
}

/**
 * Where a block closes. For JSON the balanced end of the value is tried first, so a fence inside a
 * string argument (code with ``` in it) does not end the block early.
 */
function findClose(reply: string, bodyStart: number, close: string, json: boolean, ends: Map<number, number>): number {
  if (json) {
    const valueStart = skipSpace(reply, bodyStart);
    if (reply[valueStart] === '{' || reply[valueStart] === '[') {
      const valueEnd = matchEnd(reply, valueStart, reply.length, ends);
      if (valueEnd !== -1) {
        const after = skipSpace(reply, valueEnd);
        if (reply.startsWith(close, after)) return after;
      }
    }
  }
  return reply.indexOf(close, bodyStart);
}

function readBlock(reply: string, block: Block): Attempt | undefined {
  if (block.kind === 'other') return undefined;
  const body = block.body.trim();
  if (block.kind === 'untagged' && !/^[{[]/.test(body)) return undefined;
  const { start, end } = block;
  const alone = reply.slice(0, start).trim() === '' && reply.slice(end).trim() === '';
  const parsed = parseLenient(body);
  if ('value' in parsed) return classify(parsed.value, alone, start, end);
  // Several objects one after another (one per line) is a common way to write several calls.
  const values = parseSequence(body);
  if (values !== undefined) {
    const attempt = classify(values, alone, start, end);
    if (attempt !== undefined) return attempt;
  }
  const tried = block.kind === 'call' || looksLikeCall(body) || (block.kind === 'json' && alone);
  if (!tried) return undefined;
  if (body === '') return { start, end, error: `The ${block.label} is empty. ${EXPECTED}` };
  return { start, end, error: `The ${block.label} is not valid JSON: ${parsed.error}${hints(body)} ${EXPECTED}` };
}

const EXPECTED = 'Expected {"tool": "<tool name>", "arguments": {...}} or an array of such objects.';

/**
 * Finds JSON values in prose outside blocks. Pushes only attempts: values that are calls, or spans
 * that fail to parse yet have tool-ish keys and hold no attempt inside (`[see {...}]` yields the
 * inner call). Iterative, with bracket ends shared between scans and keys found once up front, so
 * deep or unclosed brackets cost neither stack nor quadratic time.
 */
function scanBare(text: string, from: number, to: number, out: Attempt[]): void {
  const region = text.slice(from, to);
  const first = from + (region.length - region.trimStart().length);
  const last = from + region.trimEnd().length;
  const regionAlone = text.slice(0, from).trim() === '' && text.slice(to).trim() === '';
  const alone = (start: number, end: number): boolean => regionAlone && start <= first && end >= last;
  const strong = spanTest(text, from, to, STRONG_KEY);
  const named = spanTest(text, from, to, NAME_KEY);
  const weak = spanTest(text, from, to, WEAK_ARGUMENT_KEY);
  const trailingComma = spanTest(text, from, to, /,\s*[}\]]/);
  const ends = new Map<number, number>();
  // Spans that failed to parse, innermost last; each is settled once the scan has passed it.
  const failed: Array<{ start: number; end: number; attemptsBefore: number; error: () => string }> = [];
  // Nested spans that all fail would each be parsed whole: bound the work to a few passes over the text.
  let budget = 8 * (to - from) + 100_000;
  const settle = (position: number): void => {
    for (let span = failed.at(-1); span !== undefined && span.end <= position; span = failed.at(-1)) {
      failed.pop();
      const { start, end } = span;
      const tried = strong(start, end) || (named(start, end) && weak(start, end));
      if (out.length === span.attemptsBefore && tried) out.push({ start, end, error: span.error() });
    }
  };
  let i = from;
  while (i < to) {
    settle(i);
    const char = text[i];
    // A call is an object; an array of calls starts with one.
    if (char !== '{' && !(char === '[' && text[skipSpace(text, i + 1)] === '{')) {
      i++;
      continue;
    }
    const end = matchEnd(text, i, to, ends);
    const spanEnd = end === -1 ? to : end;
    if (!strong(i, spanEnd) && !named(i, spanEnd)) {
      // Nothing inside can be a call either.
      if (end === -1) break;
      i = end;
      continue;
    }
    if (end === -1) {
      // Never closed: maybe a call cut off, maybe a stray bracket before a real call.
      const error = (): string => `The tool call JSON is incomplete: a ${char} is never closed. ${EXPECTED}`;
      failed.push({ start: i, end: to, attemptsBefore: out.length, error });
      i++;
      continue;
    }
    budget -= end - i;
    if (budget < 0) break;
    const span = text.slice(i, end);
    const parsed = parseLenient(span, trailingComma(i, end));
    if ('value' in parsed) {
      const attempt = classify(parsed.value, alone(i, end), i, end);
      if (attempt !== undefined) out.push(attempt);
      i = end;
      continue;
    }
    const error = (): string => `The tool call is not valid JSON: ${parsed.error}${hints(span)} ${EXPECTED}`;
    failed.push({ start: i, end, attemptsBefore: out.length, error });
    i++;
  }
  settle(Infinity);
}

/** Finds a pattern's matches in `text[from, to)` once; the test says whether a span holds one. */
function spanTest(text: string, from: number, to: number, pattern: RegExp): (start: number, end: number) => boolean {
  const starts: number[] = [];
  const ends: number[] = [];
  for (const match of text.slice(from, to).matchAll(new RegExp(pattern.source, 'g'))) {
    starts.push(from + match.index);
    ends.push(from + match.index + match[0].length);
  }
  return (start, end) => {
    // The first match starting at or after `start` (matches do not overlap, so ends are sorted too).
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((starts[middle] ?? 0) < start) low = middle + 1;
      else high = middle;
    }
    return low < ends.length && (ends[low] ?? Infinity) <= end;
  };
}

/** Decides whether a parsed value is a call attempt, and reads it if so. */
function classify(value: unknown, alone: boolean, start: number, end: number): Attempt | undefined {
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

// ---------------------------------------------------------------------------------------------
// JSON helpers

/**
 * The index just past the `}` or `]` that closes the bracket at `start`, or -1 when it is not
 * closed before `limit`. Brackets inside double-quoted strings (with escapes) do not count. The
 * ends of brackets met on the way go into `ends`: a scan from one of them would run the same.
 */
function matchEnd(text: string, start: number, limit: number, ends = new Map<number, number>()): number {
  const known = ends.get(start);
  if (known !== undefined) return known;
  const open: number[] = [];
  let inString = false;
  for (let i = start; i < limit; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') open.push(i);
    else if (char === '}' || char === ']') {
      ends.set(open.pop() ?? start, i + 1);
      if (open.length === 0) return i + 1;
    }
  }
  for (const opener of open) ends.set(opener, -1);
  return -1;
}

/** Strict JSON, then once more without trailing commas; the error is always the strict one. */
function parseLenient(text: string, mayHaveTrailingComma = true): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const withoutCommas = mayHaveTrailingComma ? stripTrailingCommas(text) : text;
    if (withoutCommas !== text) {
      try {
        return { value: JSON.parse(withoutCommas) as unknown };
      } catch {
        // Report the original error: it points at the text the model wrote.
      }
    }
    return { error: message };
  }
}

function stripTrailingCommas(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') {
        out += char + (text[i + 1] ?? '');
        i++;
        continue;
      }
      if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === ',') {
      const next = text[skipSpace(text, i + 1)];
      if (next === '}' || next === ']') continue;
    }
    out += char;
  }
  return out;
}

/** Two or more JSON values separated only by whitespace or commas, or undefined. */
function parseSequence(text: string): unknown[] | undefined {
  const values: unknown[] = [];
  let i = 0;
  while (true) {
    while (i < text.length && /[\s,]/.test(text[i] ?? '')) i++;
    if (i >= text.length) break;
    if (text[i] !== '{' && text[i] !== '[') return undefined;
    const end = matchEnd(text, i, text.length);
    if (end === -1) return undefined;
    const parsed = parseLenient(text.slice(i, end));
    if (!('value' in parsed)) return undefined;
    values.push(parsed.value);
    i = end;
  }
  return values.length >= 2 ? values : undefined;
}

/** Pointers for the mistakes that JSON.parse messages do not name. */
function hints(text: string): string {
  const found: string[] = [];
  if (/[“”‘’]/.test(text)) found.push('it uses curly quotes; JSON needs straight double quotes (")');
  else if (/[{,]\s*'[^']*'\s*:/.test(text)) found.push('it uses single quotes; JSON needs double quotes (")');
  if (/[：，]/.test(text)) found.push('it uses full-width punctuation (： ，); JSON needs ASCII : and ,');
  return found.length === 0 ? '.' : ` — ${found.join('; ')}.`;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i] ?? '')) i++;
  return i;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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

/**
 * The reply without the call spans (and the backticks of inline code around a bare call). Where a
 * span was cut out, the prose on each side is joined by a blank line, or a space within a line.
 */
function textOutside(reply: string, attempts: readonly Attempt[]): string {
  const pieces: string[] = [];
  let cursor = 0;
  for (const { start, end } of attempts) {
    if (start < cursor) continue;
    let from = start;
    let to = end;
    if (reply[from - 1] === '`' && reply[to] === '`' && reply[from - 2] !== '`') {
      from--;
      to++;
    }
    pieces.push(reply.slice(cursor, from));
    cursor = to;
  }
  pieces.push(reply.slice(cursor));
  return pieces.reduce(joinAtCut).trim();
}

function joinAtCut(left: string, right: string): string {
  const before = left.replace(/\s+$/, '');
  const after = right.replace(/^\s+/, '');
  if (before === '' || after === '') return before + after;
  const newline =
    left.slice(before.length).includes('\n') || right.slice(0, right.length - after.length).includes('\n');
  return before + (newline ? '\n\n' : ' ') + after;
}
