import { toolSection, type AppConfig } from '../tools/app-config.ts';
import { checkParamsAgainst } from './check-params.ts';
import type { Dialect } from '../schema/dialect.ts';
import { normalizeArguments } from '../schema/normalize-arguments.ts';
import { ToolCrash } from './isolation/tool-crash.ts';
import type { RegisteredTool } from './registered-tool.ts';
import { toolErrorOrigin, toolErrorParts } from './tool-error-origin.ts';
import { saidFailure, withWords } from './failure-words.ts';
import { phrase } from './runtime-phrases.ts';
import {
  checkQuestion,
  NO_ONE_TO_ASK,
  type AskAnswer,
  type AskPerson,
  type ToolContext,
  type ToolLogger,
} from '../tools/tool-context.ts';
import type { Language } from '../core/language.ts';
import { english, type Phrase } from '../core/phrase.ts';
import {
  checkToolResult,
  InvalidToolResult,
  NO_ERROR,
  resultProblem,
  ToolFailure,
  TRUNCATION_MARKER_CHARS,
  truncateResult,
  type ToolErrorCode,
  type ToolResult,
} from '../tools/tool-result.ts';

export interface ExecuteOptions {
  /** Cancels the call: the tool's own signal fires and a failed result comes back at once. */
  signal?: AbortSignal;
  sessionId?: string;
  language?: Language;
  /** Overrides the manifest's `timeoutMs` and the registry default. */
  timeoutMs?: number;
  logger?: ToolLogger;
  /**
   * The dialect the model was shown the parameters in (see compileSchema). The arguments are then
   * checked against exactly that schema and mapped back (nulls for left-out parameters dropped,
   * JSON text parsed) before the usual check. Without it, they are checked as they come.
   */
  dialect?: Dialect;
  /**
   * Asked once the arguments are checked, before the call starts (its time limit too): the
   * parameters are exactly those the tool would get. `{ run: false, result }` stops the call with
   * that result (a denial); `finished` is told when an allowed call is over.
   */
  approve?: (tool: RegisteredTool, params: Record<string, unknown>) => Promise<ApprovalGateAnswer>;
  /** Puts a tool's `context.ask` question to the person (checked already); without it, `ask` answers `unavailable`. */
  ask?: (
    question: { question: string; choices?: string[]; timeoutMs?: number },
    signal: AbortSignal,
  ) => Promise<AskAnswer>;
}

export type ApprovalGateAnswer = { run: false; result: ToolResult } | { run: true; finished?: () => void };

export interface ExecutionLimits {
  defaultTimeoutMs: number;
  maxResultChars: number;
}

/** setTimeout's ceiling (about 24.8 days); a longer delay would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export const DEFAULT_LIMITS: ExecutionLimits = { defaultTimeoutMs: 30_000, maxResultChars: 20_000 };

/** The limits set in the config (`tools.timeout_ms`, `tools.max_result_chars`), else the defaults. */
export function executionLimits(config: AppConfig): ExecutionLimits {
  return {
    defaultTimeoutMs: config.tools?.timeout_ms ?? DEFAULT_LIMITS.defaultTimeoutMs,
    maxResultChars: config.tools?.max_result_chars ?? DEFAULT_LIMITS.maxResultChars,
  };
}

/**
 * Runs one call. Never throws and never waits past the time limit or a cancellation: every fault
 * comes back as a failed ToolResult with a `code` and an error a model can act on.
 */
export async function executeTool(
  entry: RegisteredTool,
  params: unknown,
  options: ExecuteOptions = {},
  limits = DEFAULT_LIMITS,
): Promise<ToolResult> {
  let input = params;
  if (options.dialect !== undefined) {
    const shown = checkParamsAgainst(entry.manifest, entry.schemaFor(options.dialect), params);
    if (!shown.ok) return failure('invalid-params', shown.error);
    input = normalizeArguments(shown.params, entry.schema, options.dialect);
  }
  const checked = entry.checkParams(input);
  if (!checked.ok) return failure('invalid-params', checked.error);
  if (options.signal?.aborted) return saidFailure('aborted', phrase('call.cancelled-before', { tool: entry.name }));
  if (options.approve === undefined) return runChecked(entry, checked.params, options, limits);
  const gate = await options.approve(entry, checked.params);
  if (!gate.run) return gate.result;
  try {
    return await runChecked(entry, checked.params, options, limits);
  } finally {
    gate.finished?.();
  }
}

async function runChecked(
  entry: RegisteredTool,
  params: Record<string, unknown>,
  options: ExecuteOptions,
  limits: ExecutionLimits,
): Promise<ToolResult> {
  if (options.signal?.aborted) return saidFailure('aborted', phrase('call.cancelled-before', { tool: entry.name }));

  const timeoutMs = Math.min(options.timeoutMs ?? entry.manifest.timeoutMs ?? limits.defaultTimeoutMs, MAX_TIMEOUT_MS);
  // The tool's signal carries a DOMException reason (TimeoutError / AbortError), as fetch expects;
  // the failed result that answers the caller travels beside it.
  const controller = new AbortController();
  let stop: (result: ToolResult) => void = () => {};
  const stopped = new Promise<ToolResult>((resolve) => (stop = resolve));
  const abort = (result: ToolResult, reason: DOMException) => {
    stop(result);
    controller.abort(reason);
  };
  const cancel = () =>
    abort(
      saidFailure('aborted', phrase('call.cancelled', { tool: entry.name })),
      new DOMException('The call was cancelled.', 'AbortError'),
    );
  options.signal?.addEventListener('abort', cancel, { once: true });
  const timer = setTimeout(() => {
    const result = saidFailure(
      'timeout',
      phrase('call.timeout', { tool: entry.name, limit: formatDuration(timeoutMs) }),
    );
    abort(result, new DOMException(result.error, 'TimeoutError'));
  }, timeoutMs);

  const context: ToolContext = {
    signal: controller.signal,
    sessionId: options.sessionId ?? 'default',
    language: options.language ?? 'en',
    logger: options.logger ?? entry.logger,
    config: toolSection(entry.config, entry.name),
    ask: askFor(options, controller.signal),
  };
  const run = (async (): Promise<ToolResult> => {
    try {
      const value = await entry.run(params, context);
      const result = checkToolResult(value);
      if (typeof result === 'string') return invalidResult(entry.name, resultProblem(value) ?? result);
      return ownWords(result);
    } catch (error) {
      if (error instanceof InvalidToolResult) return invalidResult(entry.name, error.said ?? error.message);
      if (error instanceof ToolFailure) return failure(error.code, error.message);
      if (error instanceof ToolCrash)
        return saidFailure('crashed', phrase('call.stopped', { tool: entry.name, why: error.message }));
      context.logger.debug('threw', error);
      return saidFailure(
        'threw',
        phrase('call.threw', { tool: entry.name, ...toolErrorParts(toolErrorOrigin(error)) }),
      );
    }
  })();

  try {
    // An isolated tool's result was cut in its host already, before it crossed (with a marker, which may make it a little longer).
    return truncateResult(
      await Promise.race([run, stopped]),
      limits.maxResultChars + (entry.isolated ? TRUNCATION_MARKER_CHARS : 0),
    );
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }
}

function askFor(options: ExecuteOptions, signal: AbortSignal): AskPerson {
  const ask = options.ask;
  if (ask === undefined) return NO_ONE_TO_ASK;
  return async (question, askOptions) => {
    const checked = checkQuestion(question, askOptions);
    if (typeof checked === 'string') throw new TypeError(checked);
    return ask(checked, signal);
  };
}

/** A failure the tool gave no error for says so in Riverse's words (which a person reads in theirs). */
function ownWords(result: ToolResult): ToolResult {
  return !result.success && result.error === english(NO_ERROR) ? withWords(result, NO_ERROR) : result;
}

function invalidResult(name: string, why: string | Phrase): ToolResult {
  return saidFailure('invalid-result', phrase('call.invalid-result', { tool: name, why }));
}

export function failure(code: ToolErrorCode, error: string): ToolResult {
  return { success: false, data: '', error, code };
}

function formatDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
