import type { ToolSection } from './app-config.ts';
import type { Language } from '../core/language.ts';
import type { ReportLog, ReportProgress } from './call-report.ts';
import { checkFields, type AskFields, type FormValues } from './ask-form.ts';
import { INPUT_KEY, ContextUnavailable, type SampleRequest, type SampleResult } from './sample-request.ts';
import type { ListRoots } from './client-roots.ts';
import type { ContentPart } from './content-part.ts';

/** What `execute()` receives besides its parameters. */
export interface ToolContext {
  /** Fires when the call is cancelled or times out; pass it to fetch and other async work. */
  signal: AbortSignal;
  /** The conversation this call belongs to (`"cli"` from `riverse tools run`). */
  sessionId: string;
  /** The user's language, for answers a tool can give in it. */
  language: Language;
  logger: ToolLogger;
  /** This tool's own section of the config (`tools.<name>`), `{}` when there is none. */
  config: ToolSection;
  /**
   * Asks the person in this call's channel (the terminal chat, the dashboard, the API) and waits
   * for the answer, at most `timeoutMs` (default: `assistant.approval_timeout_ms`). Where no one can
   * be asked (`riverse ask`, a /v1 request, `tools run`) it answers `unavailable` at once.
   */
  ask: AskPerson;
  /**
   * Asks a model for a completion, in MCP's `sampling/createMessage` shape:
   * `await context.sample({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 200 })`
   * answers `{ role, content, model, stopReason }`. Over MCP the client's model answers (if the client
   * offers sampling); in Riverse's own turn, the assistant's model, within a time limit and a token cap.
   * Where no model can be asked it throws a `ContextUnavailable` error saying why.
   */
  sample: (request: SampleRequest) => Promise<SampleResult>;
  /**
   * The folders the tool works in, as MCP's `roots/list` gives them: `{ roots: [{ uri, name? }] }`.
   * Over MCP, the client's roots (an error if it offers none); in Riverse's own turn, the project
   * folder and `tools.files.roots`.
   */
  roots: ListRoots;
  /**
   * Says how far the call is, for whoever watches it (the dashboard's bar, `tools run`, an MCP
   * client's progress token): `context.progress(3, 10, 'page 3 of 10')`. `progress` grows; `total`
   * when known. Cheap to call often: past ten a second only the latest is passed on.
   */
  progress: ReportProgress;
  /**
   * A line for whoever watches the call (the tool card, `tools run`, an MCP client's log):
   * `context.log('info', 'fetched 3 pages')`. Levels are MCP's: `debug`, `info`, `notice`,
   * `warning` (or `warn`), `error`, `critical`, `alert`, `emergency`. Past twenty a second, lines are dropped.
   */
  log: ReportLog;
  /**
   * A part of an earlier call's result in this conversation (this turn's calls, then the session's
   * traces, whose bytes are capped): the `index`-th part (from 1) of call `callId`'s result, or its
   * first picture, sound or resource without an index. Undefined when there is no such call or
   * part, or when its bytes were not kept: `await context.resultPart('call_abc', 1)`.
   */
  resultPart: FindResultPart;
}

/** `context.resultPart(callId, index?)`: a part of an earlier call's result, or undefined. */
export type FindResultPart = (callId: string, index?: number) => Promise<ContentPart | undefined>;

/** `context.resultPart` where there is no conversation to look in. */
export const NO_EARLIER_PARTS: FindResultPart = async () => undefined;

/** A call id and part index as `context.resultPart` may be asked (they cross from tool code), or why not. */
export function checkPartReference(callId: unknown, index: unknown): { callId: string; index?: number } | string {
  if (typeof callId !== 'string' || callId === '' || callId.length > 200)
    return 'context.resultPart() takes the id of an earlier call first: non-empty text of at most 200 characters';
  if (index !== undefined && !(typeof index === 'number' && Number.isInteger(index) && index >= 1 && index <= 100))
    return "context.resultPart()'s index is a whole number from 1 (the first part) to 100 when given";
  return index === undefined ? { callId } : { callId, index };
}

export interface AskOptions {
  /** Answers to offer (at most 10, each at most 200 characters); the person may still write another. */
  choices?: readonly string[];
  /**
   * A form instead of one answer in words: its fields by name, each one of MCP's elicitation
   * schemas (`{ type: 'string', default? }`, `{ type: 'integer', minimum? }`, `{ type: 'boolean' }`,
   * `{ type: 'string', enum: [...] }`, …: ask-form.ts). The answer then carries `values`.
   */
  fields?: AskFields;
  /** The fields that must have a value (a default counts). */
  required?: readonly string[];
  /**
   * The question's name where a client asks by name (MCP's input-required rounds: `user_name`);
   * Riverse names it otherwise. Within one call, one key is one question.
   */
  key?: string;
  timeoutMs?: number;
}

export type AskAnswer =
  | { answered: true; text: string; values?: FormValues }
  | { answered: false; reason: 'timeout' | 'unavailable' | 'cancelled' };
export type AskPerson = (question: string, options?: AskOptions) => Promise<AskAnswer>;

/** A question as checkQuestion passes it on, to the channel that asks it. */
export interface AskQuestion {
  question: string;
  choices?: string[];
  fields?: AskFields;
  required?: string[];
  key?: string;
  timeoutMs?: number;
}

const MAX_QUESTION_CHARS = 2_000;
const MAX_CHOICES = 10;
const MAX_CHOICE_CHARS = 200;
/** A key Riverse gives no question of its own (`approve`, `ask-1`, …), so the two never meet. */
const QUESTION_KEY = INPUT_KEY;
/** An hour: a question is a conversation, not a job to leave waiting overnight. */
const MAX_QUESTION_TIMEOUT_MS = 3_600_000;

/** A question as it may be asked, or what is wrong with it (it crosses from tool code, isolated or not). */
export function checkQuestion(question: unknown, options: unknown): AskQuestion | string {
  if (typeof question !== 'string' || question.trim() === '' || question.length > MAX_QUESTION_CHARS)
    return `context.ask() takes a question: non-empty text of at most ${MAX_QUESTION_CHARS} characters`;
  if (options === undefined) return { question };
  if (typeof options !== 'object' || options === null)
    return 'context.ask() options must be an object { choices?, fields?, required?, key?, timeoutMs? }';
  const { choices, fields, required, key, timeoutMs } = options as Record<string, unknown>;
  if (
    choices !== undefined &&
    !(
      Array.isArray(choices) &&
      choices.length <= MAX_CHOICES &&
      choices.every((choice) => typeof choice === 'string' && choice !== '' && choice.length <= MAX_CHOICE_CHARS)
    )
  ) {
    return `context.ask() choices must be at most ${MAX_CHOICES} non-empty texts of at most ${MAX_CHOICE_CHARS} characters`;
  }
  if (choices !== undefined && fields !== undefined)
    return 'context.ask() takes choices (one answer in words) or fields (a form), not both: a form field offers its choices with enum';
  if (required !== undefined && fields === undefined) return 'context.ask() required names fields: give fields too';
  const form = fields === undefined ? undefined : checkFields(fields, required);
  if (typeof form === 'string') return form;
  if (key !== undefined && !(typeof key === 'string' && QUESTION_KEY.test(key)))
    return "context.ask() key must be 1 to 64 letters, digits, _, . or -, and not approve, ask-<n>, sample-<n> or roots-<n> (Riverse's own)";
  if (
    timeoutMs !== undefined &&
    !(
      typeof timeoutMs === 'number' &&
      Number.isInteger(timeoutMs) &&
      timeoutMs > 0 &&
      timeoutMs <= MAX_QUESTION_TIMEOUT_MS
    )
  )
    return `context.ask() timeoutMs must be a whole number of milliseconds from 1 to ${MAX_QUESTION_TIMEOUT_MS}`;
  return {
    question,
    ...(choices === undefined ? {} : { choices: [...(choices as string[])] }),
    ...(form ?? {}),
    ...(key === undefined ? {} : { key: key as string }),
    ...(timeoutMs === undefined ? {} : { timeoutMs: timeoutMs as number }),
  };
}

/** `context.ask` where no one can be asked. */
export const NO_ONE_TO_ASK: AskPerson = async () => ({ answered: false, reason: 'unavailable' });

/** `context.sample` where no model can be asked. */
export const NO_MODEL_TO_SAMPLE: ToolContext['sample'] = async () => {
  throw new ContextUnavailable(
    'no model can be asked here (context.sample): run the tool in a chat with a model, or from an MCP client that offers sampling',
  );
};

/** `context.roots()` where no folders are known. */
export const NO_ROOTS: ListRoots = async () => ({ roots: [], reason: 'no folders are known here' });

export interface ToolLogger {
  debug(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

export type LogLevel = keyof ToolLogger;
const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** A logger that writes `[tool] message` to stderr at `minLevel` and above (RIVERSE_LOG_LEVEL, default info). */
export function createToolLogger(toolName: string, minLevel: LogLevel = defaultLogLevel()): ToolLogger {
  const threshold = LEVELS.indexOf(minLevel);
  const write =
    (level: LogLevel) =>
    (message: string, ...details: unknown[]) => {
      if (LEVELS.indexOf(level) < threshold) return;
      console.error(`[${toolName}] ${level}: ${message}`, ...details);
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

function defaultLogLevel(): LogLevel {
  const level = process.env.RIVERSE_LOG_LEVEL as LogLevel | undefined;
  return level !== undefined && LEVELS.includes(level) ? level : 'info';
}
