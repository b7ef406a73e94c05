import { english, type Phrase } from '../core/phrase.ts';
import type { ContentPart } from './content-part.ts';
import { capParts, cleanParts, contentProblem, partsText } from './result-content.ts';
import { resultPhrase } from './result-text.ts';

/**
 * What a tool returns. `data` goes into the model's context as reference information;
 * `error` says what went wrong when `success` is false. A plain object literal is fine.
 */
export type ToolResult = ToolResultFields & ({ data: string } | { data?: string; content: ContentPart[] });

/** A result as the runtime hands it on (checked): `data` is always there, derived from the text parts when the tool gave only `content`. */
export type CheckedToolResult = ToolResultFields & { data: string };

/** What every result may say, whichever way it gives its text. */
export interface ToolResultFields {
  success: boolean;
  /** The text the model reads. It may be left out when `content` is given: it is then the text parts, joined by lines. */
  data?: string;
  error?: string;
  /** What the result shows beyond its text: images, audio, files (MCP's content blocks). */
  content?: ContentPart[];
  /** The result as data (any JSON value), checked against the manifest's `output` schema when it has one. */
  structured?: unknown;
  /** Set by the runtime on failures it produced itself (the tool never needs to set it). */
  code?: ToolErrorCode;
}

/** Stable codes for the failures the runtime reports, so callers can react without parsing text. */
export type ToolErrorCode =
  | 'unknown-tool'
  | 'unavailable'
  | 'invalid-params'
  | 'timeout'
  | 'aborted'
  | 'threw'
  | 'invalid-result'
  /** The tool's worker stopped: process.exit, a crash, the memory limit, or a hang after cancellation. */
  | 'crashed'
  /** The same call already failed repeatedly in this turn, so it was not run again. */
  | 'repeated'
  /** The call came past the most calls of one reply that a turn runs (256), so it was not run. */
  | 'too-many-calls'
  /** A tool of the catalog that the turn did not offer the model (a routed turn; see find_tools). */
  | 'not-offered'
  /** An MCP server's tool answered with `isError`: the tool itself reports the failure. */
  | 'mcp-tool-error'
  /** An MCP server answered the call with a protocol error, or with a result that is not one. */
  | 'mcp-protocol-error'
  /** The MCP server went away during the call (exited, or its connection closed). */
  | 'mcp-disconnected'
  /** A person said no to this call (their reason is in the error); it did not run. */
  | 'denied'
  /** The call needed a person's approval and none came within `assistant.approval_timeout_ms`; it did not run. */
  | 'approval-timeout'
  /** The call needed a person's approval and this channel has no one to ask (`server.v1_approvals: deny`); it did not run. */
  | 'approval-unavailable';

/** Helpers: `ToolResult.ok(data)` and `ToolResult.fail(error)`. */
export const ToolResult = {
  ok(data: string): ToolResult {
    return { success: true, data };
  },
  fail(error: string, data = ''): ToolResult {
    return { success: false, data, error };
  },
};

/** @internal The error of a failure a tool reported without one: Riverse's words, as a phrase. */
export const NO_ERROR = resultPhrase('result.no-error');
const NO_ERROR_MESSAGE = english(NO_ERROR);

/**
 * Checks a value a tool returned. Returns the result normalized (`data` defaults to "", or to the
 * text of its text parts when only `content` is given; parts keep only their own fields), or a
 * sentence saying why the value is not a ToolResult.
 */
export function checkToolResult(value: unknown): CheckedToolResult | string {
  const problem = resultProblem(value);
  if (problem !== undefined) return english(problem);
  const { success, data, error, content, structured } = value as Record<string, unknown>;
  const parts = content === undefined ? undefined : cleanParts(content as ContentPart[]);
  const rich = {
    ...(parts === undefined ? {} : { content: parts }),
    ...(structured === undefined ? {} : { structured }),
  };
  const text = typeof data === 'string' ? data : parts === undefined ? '' : partsText(parts);
  if (!success)
    return {
      success: false,
      data: text,
      error: typeof error === 'string' && error !== '' ? error : NO_ERROR_MESSAGE,
      ...rich,
    };
  return typeof error === 'string'
    ? { success: true, data: text, error, ...rich }
    : { success: true, data: text, ...rich };
}

/** @internal Why a value is not a ToolResult, as a phrase (shown in the reader's language); undefined when it is one. */
export function resultProblem(value: unknown): Phrase | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return resultPhrase('result.not-object', { got: describeValue(value) });
  const { success, data = '', error, content, structured } = value as Record<string, unknown>;
  if (typeof success !== 'boolean') return resultPhrase('result.success', { got: describeValue(success) });
  if (typeof data !== 'string') return resultPhrase('result.data', { got: describeValue(data) });
  if (error !== undefined && error !== null && typeof error !== 'string')
    return resultPhrase('result.error', { got: describeValue(error) });
  if (content !== undefined) {
    const problem = contentProblem(content);
    if (problem !== undefined) return problem;
  }
  if (structured !== undefined && !isJsonValue(structured, 0, new Set()))
    return resultPhrase('result.structured', { got: describeValue(structured) });
  return undefined;
}

/** Deeper than any real document; past it, a cycle or a mistake. */
const MAX_JSON_DEPTH = 64;

function isJsonValue(value: unknown, depth: number, seen: Set<object>): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || depth > MAX_JSON_DEPTH || seen.has(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return false;
  seen.add(value);
  const ok = Object.values(value).every((item) => isJsonValue(item, depth + 1, seen));
  seen.delete(value);
  return ok;
}

function describeValue(value: unknown): Phrase {
  if (value === undefined || value === null) return resultPhrase('result.value', { kind: String(value) });
  if (Array.isArray(value)) return resultPhrase('result.value', { kind: 'array' });
  if (typeof value === 'string')
    return resultPhrase('result.value', {
      kind: 'string',
      text: JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value),
    });
  return typeof value === 'object'
    ? resultPhrase('result.value', { kind: 'object' })
    : resultPhrase('result.value', { kind: typeof value, text: String(value) });
}

/**
 * @internal Thrown by a runner that knows why its call failed (an MCP server's answer): the call's
 * result is a failure with this code and message. Tools never see it (results they return lose any code).
 */
export class ToolFailure extends Error {
  override name = 'ToolFailure';
  readonly code: ToolErrorCode;
  constructor(code: ToolErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** Thrown by a runner whose tool returned something that is not a ToolResult (the message says why). */
export class InvalidToolResult extends Error {
  override name = 'InvalidToolResult';
  /** The same, as a phrase, when the runner has it (shown to a person in their language). */
  readonly said: Phrase | undefined;
  constructor(message: string, said?: Phrase) {
    super(message);
    this.said = said;
  }
}

/** The most a truncation marker adds. */
export const TRUNCATION_MARKER_CHARS = 120;

/**
 * The most a result's parts (and `structured`) may hold in all, in bytes, unless
 * `tools.max_result_bytes` says otherwise: 6 MiB, so that a whole result fits the 8 MB a tool host's message may be.
 */
export const DEFAULT_MAX_RESULT_BYTES = 6 * 1024 * 1024;

/**
 * The result with `data` and `error` cut to `maxChars` each, and its parts and `structured` to
 * `maxBytes` in all, with a visible marker where cut (a part left out is replaced by a text part
 * saying so; `structured` left out is said in `data`). What fits is kept as is, not copied.
 */
export function truncateResult<Result extends ToolResult & { data: string }>(
  result: Result,
  maxChars: number,
  maxBytes = DEFAULT_MAX_RESULT_BYTES,
): Result {
  let out = result;
  if (result.data.length > maxChars || (result.error !== undefined && result.error.length > maxChars)) {
    const cut = (text: string) =>
      text.length <= maxChars
        ? text
        : `${text.slice(0, maxChars)}\n…[truncated: showing the first ${maxChars.toLocaleString('en')} of ${text.length.toLocaleString('en')} characters]`;
    out = { ...result, data: cut(result.data), ...(result.error === undefined ? {} : { error: cut(result.error) }) };
  }
  let budget = maxBytes;
  if (out.structured !== undefined) {
    const size = JSON.stringify(out.structured).length;
    if (size > budget) {
      const { structured: _dropped, ...rest } = out;
      out = {
        ...rest,
        data: `${out.data}\n…[cut: the structured result of ${size.toLocaleString('en')} characters left out; a result may carry ${maxBytes.toLocaleString('en')} bytes in all (tools.max_result_bytes)]`,
      } as Result;
    } else budget -= size;
  }
  if (out.content !== undefined) {
    const capped = capParts(out.content, Math.max(0, budget));
    if (capped !== out.content) out = { ...out, content: capped };
  }
  return out;
}
