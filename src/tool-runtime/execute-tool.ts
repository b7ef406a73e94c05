import { toolSection, type AppConfig } from '../tools/app-config.ts';
import { checkParamsAgainst } from './check-params.ts';
import { onHostStart } from './host-start.ts';
import type { Dialect } from '../schema/dialect.ts';
import { normalizeArguments } from '../schema/normalize-arguments.ts';
import { ToolCrash } from './isolation/tool-crash.ts';
import type { RegisteredTool } from './registered-tool.ts';
import { toolErrorOrigin, toolErrorParts } from './tool-error-origin.ts';
import { saidFailure, withWords } from './failure-words.ts';
import { phrase } from './runtime-phrases.ts';
import type { ContentPart } from '../tools/content-part.ts';
import { type RemoteTaskRef, withRemoteTaskHook } from './remote-task-ref.ts';
import {
  checkPartReference,
  checkQuestion,
  NO_EARLIER_PARTS,
  NO_ONE_TO_ASK,
  type FindResultPart,
  type AskAnswer,
  type AskPerson,
  type AskQuestion,
  type ToolContext,
  type ToolLogger,
} from '../tools/tool-context.ts';
import type { Language } from '../core/language.ts';
import { english, type Phrase } from '../core/phrase.ts';
import { callReports, type LogReport, type ProgressReport } from '../tools/call-report.ts';
import {
  checkSampleRequest,
  ContextUnavailable,
  type SampleRequest,
  type SampleResult,
} from '../tools/sample-request.ts';
import { checkRootsOptions, workRoots, type ListRoots, type RootsList } from '../tools/client-roots.ts';
import { outputChecker, type OutputCheck } from './check-output.ts';
import {
  checkToolResult,
  DEFAULT_MAX_RESULT_BYTES,
  type CheckedToolResult,
  InvalidToolResult,
  NO_ERROR,
  resultProblem,
  ToolFailure,
  TRUNCATION_MARKER_CHARS,
  truncateResult,
  type ToolErrorCode,
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
  /** Told when the call's source (an MCP server) made a task of its own for it, which a restart can poll again. */
  onRemoteTask?: (ref: RemoteTaskRef) => void;
  /** Finds a part of an earlier call's result (`context.resultPart`, checked already); without it, there is none. */
  findPart?: (callId: string, index: number | undefined) => Promise<ContentPart | undefined>;
  /** Puts a tool's `context.ask` question to the person (checked already); without it, `ask` answers `unavailable`. */
  ask?: (question: AskQuestion, signal: AbortSignal) => Promise<AskAnswer>;
  /**
   * Answers a tool's `context.sample` (checked already): a client's model over MCP, the assistant's
   * own in a turn; rejects with `ContextUnavailable` saying why there is none. Without it, there is none.
   */
  sample?: (request: SampleRequest, signal: AbortSignal) => Promise<SampleResult>;
  /** Answers a tool's `context.roots()`; without it, the folders Riverse works in (`workRoots`). */
  roots?: (options: { key?: string; timeoutMs?: number }, signal: AbortSignal) => Promise<RootsList>;
  /** Told each `context.progress` of the call (checked, and throttled to ten a second). */
  onProgress?: (report: ProgressReport) => void;
  /** Told each `context.log` line of the call (checked, and throttled). */
  onLog?: (report: LogReport) => void;
  /** Told when the call started a fresh host for its file (a process or worker), with the ms it took to be ready. */
  onHostStart?: (ms: number) => void;
}

export type ApprovalGateAnswer = { run: false; result: CheckedToolResult } | { run: true; finished?: () => void };

export interface ExecutionLimits {
  defaultTimeoutMs: number;
  maxResultChars: number;
  /** The most a result's parts and `structured` may hold in all, in bytes (`tools.max_result_bytes`). */
  maxResultBytes?: number;
}

/** The most the markers of parts cut in a host add: a line of about 200 characters for each of at most 100 parts. */
const PART_MARKERS_BYTES = 100 * 200;

/** setTimeout's ceiling (about 24.8 days); a longer delay would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export const DEFAULT_LIMITS: ExecutionLimits = {
  defaultTimeoutMs: 30_000,
  maxResultChars: 20_000,
  maxResultBytes: DEFAULT_MAX_RESULT_BYTES,
};

/** The limits set in the config (`tools.timeout_ms`, `tools.max_result_chars`), else the defaults. */
export function executionLimits(config: AppConfig): ExecutionLimits {
  return {
    defaultTimeoutMs: config.tools?.timeout_ms ?? DEFAULT_LIMITS.defaultTimeoutMs,
    maxResultChars: config.tools?.max_result_chars ?? DEFAULT_LIMITS.maxResultChars,
    maxResultBytes: config.tools?.max_result_bytes ?? DEFAULT_MAX_RESULT_BYTES,
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
): Promise<CheckedToolResult> {
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
): Promise<CheckedToolResult> {
  if (options.signal?.aborted) return saidFailure('aborted', phrase('call.cancelled-before', { tool: entry.name }));

  const timeoutMs = Math.min(options.timeoutMs ?? entry.manifest.timeoutMs ?? limits.defaultTimeoutMs, MAX_TIMEOUT_MS);
  // The tool's signal carries a DOMException reason (TimeoutError / AbortError), as fetch expects;
  // the failed result that answers the caller travels beside it.
  const controller = new AbortController();
  let stop: (result: CheckedToolResult) => void = () => {};
  const stopped = new Promise<CheckedToolResult>((resolve) => (stop = resolve));
  const abort = (result: CheckedToolResult, reason: DOMException) => {
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

  // Checked and throttled here whatever the host: an isolated tool's reports were throttled in its host too.
  const reports = callReports(options.onProgress, options.onLog);
  const context: ToolContext = {
    signal: controller.signal,
    sessionId: options.sessionId ?? 'default',
    language: options.language ?? 'en',
    logger: options.logger ?? entry.logger,
    config: toolSection(entry.config, entry.name),
    ask: askFor(options, controller.signal),
    sample: sampleFor(entry.name, options, controller.signal),
    roots: rootsFor(entry, options, controller.signal),
    progress: reports.progress,
    log: reports.log,
    resultPart: partFor(options),
  };
  if (options.onHostStart !== undefined) onHostStart(context, options.onHostStart);
  withRemoteTaskHook(context, options.onRemoteTask);
  const run = (async (): Promise<CheckedToolResult> => {
    try {
      const value = await entry.run(params, context);
      const result = checkToolResult(value);
      if (typeof result === 'string') return invalidResult(entry.name, resultProblem(value) ?? result);
      const mismatch = outputMismatch(entry, result);
      if (mismatch !== undefined) return mismatch;
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
      // Likewise its parts: the markers of parts cut there (a line each) may take it a little past the cap.
      (limits.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES) + (entry.isolated ? PART_MARKERS_BYTES : 0),
    );
  } finally {
    reports.close();
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }
}

function partFor(options: ExecuteOptions): FindResultPart {
  const find = options.findPart;
  if (find === undefined) return NO_EARLIER_PARTS;
  return async (callId, index) => {
    const checked = checkPartReference(callId, index);
    if (typeof checked === 'string') throw new TypeError(checked);
    // A listener's fault is not the tool's: no part, as when there is none.
    return find(checked.callId, checked.index).catch(() => undefined);
  };
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

function sampleFor(tool: string, options: ExecuteOptions, signal: AbortSignal): ToolContext['sample'] {
  const sample = options.sample;
  return async (request) => {
    const checked = checkSampleRequest(request);
    if (typeof checked === 'string') throw new TypeError(checked);
    if (sample === undefined)
      throw new ContextUnavailable(
        `${tool} asked a model (context.sample), and none can be asked here: run it in a chat with a model, or from an MCP client that offers sampling`,
      );
    return sample(checked, signal);
  };
}

function rootsFor(entry: RegisteredTool, options: ExecuteOptions, signal: AbortSignal): ListRoots {
  const roots = options.roots;
  return async (given) => {
    const checked = checkRootsOptions(given);
    if (typeof checked === 'string') throw new TypeError(checked);
    return roots === undefined ? workRoots(entry.config) : roots(checked, signal);
  };
}

/** A failure the tool gave no error for says so in Riverse's words (which a person reads in theirs). */
function ownWords(result: CheckedToolResult): CheckedToolResult {
  return !result.success && result.error === english(NO_ERROR) ? withWords(result, NO_ERROR) : result;
}

function invalidResult(name: string, why: string | Phrase): CheckedToolResult {
  return saidFailure('invalid-result', phrase('call.invalid-result', { tool: name, why }));
}

export function failure(code: ToolErrorCode, error: string): CheckedToolResult {
  return { success: false, data: '', error, code };
}

const outputChecks = new WeakMap<RegisteredTool, OutputCheck>();

/** A successful result of a tool with an `output` schema whose `structured` does not match it: the failure to return instead. */
function outputMismatch(entry: RegisteredTool, result: CheckedToolResult): CheckedToolResult | undefined {
  const schema = entry.manifest.output;
  if (schema === undefined || !result.success) return undefined;
  if (result.structured === undefined)
    return saidFailure('invalid-result', phrase('call.output-missing', { tool: entry.name }));
  let check = outputChecks.get(entry);
  if (check === undefined) outputChecks.set(entry, (check = outputChecker(schema)));
  const why = check(result.structured);
  return why === undefined
    ? undefined
    : saidFailure('invalid-result', phrase('call.output-mismatch', { tool: entry.name, why }));
}

function formatDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
