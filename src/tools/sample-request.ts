// `context.sample` and `context.roots`: a tool asks a model for a completion, or for the folders
// it works in. The shapes are MCP's (`sampling/createMessage`, `roots/list`) word for word, so that
// over MCP they cross to the client unchanged, and inside Riverse's own turn they map to its model
// and its folders (decision 040).

/** A part of a sampling message: text, or a picture as base64 with its type. */
export type SamplingContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

export interface SamplingMessage {
  role: 'user' | 'assistant';
  /** One part, or several (MCP 2025-11-25 takes either). */
  content: SamplingContent | SamplingContent[];
}

/** MCP's model preferences: hints by name (`claude`, `gpt-4.1`), and priorities from 0 to 1. */
export interface ModelPreferences {
  hints?: Array<{ name?: string }>;
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** What `context.sample` takes: MCP's `sampling/createMessage` parameters. */
export interface SampleRequest {
  messages: SamplingMessage[];
  /** The most tokens the reply may have (Riverse's own model caps it further: 040). */
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: ModelPreferences;
  /** The request's name where a client answers by name (MCP's input-required rounds); Riverse names it otherwise. */
  key?: string;
  /** How long to wait for the reply (default: a minute; at most ten). */
  timeoutMs?: number;
}

/** What `context.sample` answers: MCP's `CreateMessageResult`. */
export interface SampleResult {
  role: 'assistant';
  content: SamplingContent;
  /** The model that wrote it, as whoever answered names it. */
  model: string;
  /** `endTurn`, `stopSequence`, `maxTokens`, or another the client gave. */
  stopReason?: string;
}

/** What `context.sample` or `context.roots` throws where it cannot be answered (no model; a client that offers neither), saying why. */
export class ContextUnavailable extends Error {
  override name = 'ContextUnavailable';
}

const MAX_MESSAGES = 100;
const MAX_TEXT_CHARS = 100_000;
/** A picture of at most about 15 MB (as base64). */
const MAX_IMAGE_CHARS = 20_000_000;
const MAX_TOKENS = 100_000;
const MAX_TIMEOUT_MS = 600_000;
const KNOWN = new Set([
  'messages',
  'maxTokens',
  'systemPrompt',
  'temperature',
  'stopSequences',
  'modelPreferences',
  'key',
  'timeoutMs',
]);

/** A request as it may be sent, or what is wrong with it (it crosses from tool code, isolated or not). */
export function checkSampleRequest(request: unknown): SampleRequest | string {
  const where = 'context.sample()';
  if (typeof request !== 'object' || request === null || Array.isArray(request))
    return `${where} takes { messages, maxTokens, systemPrompt?, temperature?, stopSequences?, modelPreferences?, key?, timeoutMs? }`;
  const given = request as Record<string, unknown>;
  const unknown = Object.keys(given).find((name) => !KNOWN.has(name) && given[name] !== undefined);
  if (unknown !== undefined) return `${where} does not take "${unknown}"`;
  const { messages, maxTokens, systemPrompt, temperature, stopSequences, modelPreferences, key, timeoutMs } = given;
  if (!Array.isArray(messages) || messages.length === 0 || messages.length > MAX_MESSAGES)
    return `${where} messages must be 1 to ${MAX_MESSAGES} messages { role: 'user' | 'assistant', content }`;
  const checked: SamplingMessage[] = [];
  for (const [index, message] of messages.entries()) {
    const one = checkMessage(message, `${where} messages[${index}]`);
    if (typeof one === 'string') return one;
    checked.push(one);
  }
  if (!(Number.isInteger(maxTokens) && (maxTokens as number) > 0 && (maxTokens as number) <= MAX_TOKENS))
    return `${where} maxTokens must be a whole number from 1 to ${MAX_TOKENS}`;
  if (systemPrompt !== undefined && !(typeof systemPrompt === 'string' && systemPrompt.length <= MAX_TEXT_CHARS))
    return `${where} systemPrompt must be text of at most ${MAX_TEXT_CHARS} characters`;
  if (
    temperature !== undefined &&
    !(typeof temperature === 'number' && Number.isFinite(temperature) && temperature >= 0 && temperature <= 2)
  )
    return `${where} temperature must be a number from 0 to 2`;
  if (
    stopSequences !== undefined &&
    !(
      Array.isArray(stopSequences) &&
      stopSequences.length <= 4 &&
      stopSequences.every((stop) => typeof stop === 'string' && stop !== '' && stop.length <= 200)
    )
  )
    return `${where} stopSequences must be at most 4 non-empty texts of at most 200 characters`;
  const preferences = modelPreferences === undefined ? undefined : checkPreferences(modelPreferences);
  if (typeof preferences === 'string') return `${where} modelPreferences: ${preferences}`;
  if (key !== undefined && !(typeof key === 'string' && INPUT_KEY.test(key)))
    return `${where} key must be 1 to 64 letters, digits, _, . or -, and not approve, ask-<n>, sample-<n> or roots-<n> (Riverse's own)`;
  if (
    timeoutMs !== undefined &&
    !(Number.isInteger(timeoutMs) && (timeoutMs as number) > 0 && (timeoutMs as number) <= MAX_TIMEOUT_MS)
  )
    return `${where} timeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`;
  return {
    messages: checked,
    maxTokens: maxTokens as number,
    ...(systemPrompt === undefined ? {} : { systemPrompt: systemPrompt as string }),
    ...(temperature === undefined ? {} : { temperature: temperature as number }),
    ...(stopSequences === undefined ? {} : { stopSequences: [...(stopSequences as string[])] }),
    ...(preferences === undefined ? {} : { modelPreferences: preferences }),
    ...(key === undefined ? {} : { key: key as string }),
    ...(timeoutMs === undefined ? {} : { timeoutMs: timeoutMs as number }),
  };
}

/**
 * A key Riverse gives no request of its own (`approve`, `ask-1`, `sample-1`, `roots-1`), so the
 * two never meet in an MCP round.
 */
export const INPUT_KEY = /^(?!approve$|ask-\d+$|sample-\d+$|roots-\d+$)[A-Za-z0-9_.-]{1,64}$/;

function checkMessage(message: unknown, where: string): SamplingMessage | string {
  if (typeof message !== 'object' || message === null) return `${where} must be { role, content }`;
  const { role, content } = message as Record<string, unknown>;
  if (role !== 'user' && role !== 'assistant') return `${where}.role must be 'user' or 'assistant'`;
  const parts = Array.isArray(content) ? content : [content];
  if (parts.length === 0) return `${where}.content must have a part`;
  const checked: SamplingContent[] = [];
  for (const part of parts) {
    const one = checkContent(part, `${where}.content`);
    if (typeof one === 'string') return one;
    checked.push(one);
  }
  return { role, content: Array.isArray(content) ? checked : checked[0]! };
}

/** A part of a message or of a reply, or what is wrong with it. */
function checkContent(part: unknown, where: string): SamplingContent | string {
  if (typeof part !== 'object' || part === null)
    return `${where} must be { type: 'text', text } or { type: 'image', data, mimeType }`;
  const { type, text, data, mimeType } = part as Record<string, unknown>;
  if (type === 'text') {
    if (typeof text !== 'string' || text.length > MAX_TEXT_CHARS)
      return `${where}: a text part's text must be text of at most ${MAX_TEXT_CHARS} characters`;
    return { type, text };
  }
  if (type === 'image') {
    if (typeof data !== 'string' || data === '' || data.length > MAX_IMAGE_CHARS || !/^[A-Za-z0-9+/=\s]*$/.test(data))
      return `${where}: an image part's data must be base64 of at most ${MAX_IMAGE_CHARS} characters`;
    if (typeof mimeType !== 'string' || !/^image\/[\w.+-]+$/.test(mimeType))
      return `${where}: an image part's mimeType must be image/<type> (image/png)`;
    return { type, data, mimeType };
  }
  return `${where}: a part's type must be 'text' or 'image'`;
}

function checkPreferences(value: unknown): ModelPreferences | string {
  if (typeof value !== 'object' || value === null) return 'must be an object { hints?, costPriority?, … }';
  const { hints, costPriority, speedPriority, intelligencePriority } = value as Record<string, unknown>;
  const preferences: ModelPreferences = {};
  if (hints !== undefined) {
    if (
      !Array.isArray(hints) ||
      hints.length > 10 ||
      !hints.every(
        (hint) =>
          typeof hint === 'object' &&
          hint !== null &&
          ((hint as { name?: unknown }).name === undefined || typeof (hint as { name?: unknown }).name === 'string'),
      )
    )
      return 'hints must be at most 10 { name? }';
    preferences.hints = hints.map((hint: { name?: string }) => (hint.name === undefined ? {} : { name: hint.name }));
  }
  for (const [name, priority] of Object.entries({ costPriority, speedPriority, intelligencePriority })) {
    if (priority === undefined) continue;
    if (!(typeof priority === 'number' && priority >= 0 && priority <= 1))
      return `${name} must be a number from 0 to 1`;
    preferences[name as 'costPriority'] = priority;
  }
  return preferences;
}

/** A reply as a client or a model gave it, or what is wrong with it: a tool sees only a reply that fits. */
export function checkSampleResult(result: unknown): SampleResult | string {
  if (typeof result !== 'object' || result === null) return 'a sampling reply must be { role, content, model }';
  const { role, content, model, stopReason } = result as Record<string, unknown>;
  if (role !== 'assistant') return "a sampling reply's role must be 'assistant'";
  // A reply of several parts (2025-11-25) is read as its first text or picture.
  const first = Array.isArray(content)
    ? content.find((part) => part?.type === 'text' || part?.type === 'image')
    : content;
  const part = checkContent(first, "a sampling reply's content");
  if (typeof part === 'string') return part;
  if (typeof model !== 'string' || model === '' || model.length > 200)
    return "a sampling reply's model must be its name, at most 200 characters";
  if (stopReason !== undefined && typeof stopReason !== 'string') return "a sampling reply's stopReason must be text";
  return { role, content: part, model, ...(stopReason === undefined ? {} : { stopReason }) };
}
