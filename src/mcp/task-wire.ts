import { ProtocolError } from '@modelcontextprotocol/server';
import type { TaskRecord } from '../tasks/task-types.ts';
import type { ToolManifest } from '../tools/tool-manifest.ts';
import type { CheckedToolResult } from '../tools/tool-result.ts';

// The tasks extension's wire (SEP-2663, as the conformance suite 0.2.0-alpha.12 tests it): the
// extension under `capabilities.extensions`, a flat CreateTaskResult, tasks/get's DetailedTask with
// the result inlined, integer `ttlMs`/`pollIntervalMs`, and -32021 for a client without it.

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** Where a request of any revision carries its client's capabilities for itself alone (SEP-2575). */
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
/** JSON-RPC's "missing required client capability" (SEP-2575). */
const MISSING_CAPABILITY = -32021;
const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;

/** How long a task's record stays readable after it ends unless the runner says (an hour). */
const DEFAULT_TTL_MS = 60 * 60_000;
/** How often a client is told to poll unless the runner says. */
const DEFAULT_POLL_MS = 500;

export type LongRunning = 'optional' | 'required';

/** A manifest's `long_running`, as the tasks room names it (`'optional' | 'required'`), or undefined. */
export function longRunning(manifest: ToolManifest): LongRunning | undefined {
  const value = (manifest as { long_running?: unknown }).long_running;
  return value === 'optional' || value === 'required' ? value : undefined;
}

/**
 * Whether this request may get a task: the client declared the extension for the request (its
 * `_meta` clientCapabilities, which is every request in 2026-07-28) or for its session (initialize).
 */
export function clientOffersTasks(
  requestCapabilities: unknown,
  metaCapabilities: unknown,
  sessionCapabilities: unknown,
): boolean {
  return [requestCapabilities, metaCapabilities, sessionCapabilities].some((capabilities) => {
    const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
    return typeof extensions === 'object' && extensions !== null && extensions[TASKS_EXTENSION] !== undefined;
  });
}

/** The capabilities a request's own `_meta` declares (any revision). */
export function metaCapabilities(meta: unknown): unknown {
  return (meta as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES];
}

/** -32021, naming the extension the way the client would declare it. */
export function tasksRequired(what: string): ProtocolError {
  return new ProtocolError(
    MISSING_CAPABILITY,
    `${what} needs the tasks extension (${TASKS_EXTENSION}), which this client did not declare: declare it under capabilities.extensions (or in the request's _meta clientCapabilities).`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** The status a client sees: Riverse's `interrupted` is the protocol's `failed`; a task waiting on answers is `input_required`. */
function wireStatus(task: TaskRecord, waiting: boolean): string {
  if (task.status === 'interrupted' || hostFailed(task)) return 'failed';
  if (task.status === 'working' && waiting) return 'input_required';
  return task.status;
}

/** Codes of a call that could not be run at all, or whose host died: the task fails (a protocol error), not the tool. */
const NOT_RUN = new Set(['crashed', 'unknown-tool', 'unavailable', 'invalid-params', 'mcp-disconnected']);

function hostFailed(task: TaskRecord): boolean {
  return task.status === 'completed' && task.result?.success === false && NOT_RUN.has(task.result.code ?? '');
}

/** The fields every task carries on the wire (the Task base of SEP-2663). */
function taskFields(task: TaskRecord, waiting: boolean) {
  const status = wireStatus(task, waiting);
  // A running task says how far it is (its last progress), for a client's status line.
  const message =
    task.statusMessage ??
    (status === 'failed' ? failureText(task) : status === 'completed' ? undefined : task.progress?.message);
  return {
    taskId: task.id,
    status,
    ...(message === undefined ? {} : { statusMessage: message }),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.updatedAt).toISOString(),
    ttlMs: Math.max(1, Math.round(task.ttlMs ?? DEFAULT_TTL_MS)),
    pollIntervalMs: Math.max(1, Math.round(task.pollIntervalMs ?? DEFAULT_POLL_MS)),
  };
}

/** tools/call's answer when the call became a task: flat (Result & Task), nothing of its outcome yet. */
export function createTaskResult(task: TaskRecord) {
  return { resultType: 'task' as const, ...taskFields(task, false) };
}

/**
 * tasks/get's DetailedTask: a completed task inlines its tool result (a tool's failure is
 * `isError` there), a failed one the JSON-RPC error, a task waiting on the person its questions.
 */
export function detailedTask(
  task: TaskRecord,
  inputRequests: Record<string, unknown> | undefined,
  toResult: (result: CheckedToolResult) => Record<string, unknown>,
) {
  const waiting = inputRequests !== undefined && Object.keys(inputRequests).length > 0;
  const fields = taskFields(task, waiting);
  return {
    resultType: 'complete' as const,
    ...fields,
    ...(fields.status === 'input_required' ? { inputRequests } : {}),
    ...(fields.status === 'completed' && task.result !== undefined ? { result: toResult(task.result) } : {}),
    ...(fields.status === 'failed'
      ? {
          error: {
            code: task.result?.code === 'invalid-params' ? INVALID_PARAMS : INTERNAL_ERROR,
            message: failureText(task),
            data: { code: task.errorCode ?? task.result?.code ?? task.status },
          },
        }
      : {}),
  };
}

function failureText(task: TaskRecord): string {
  if (task.status === 'interrupted')
    return (
      task.statusMessage ?? `The task's process stopped (a restart) before ${task.tool} ended; it was not run again.`
    );
  return task.result?.error ?? task.statusMessage ?? `${task.tool} could not be run.`;
}
