import type { ToolCallRequest } from '../models/chat-message.ts';
import type { ExecuteOptions } from '../tool-runtime/execute-tool.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import type { Language } from '../core/language.ts';
import { renderPhrase } from '../core/phrase.ts';
import type { LogReport, ProgressReport } from '../tools/call-report.ts';
import type { RemoteTaskRef } from '../tool-runtime/remote-task-ref.ts';
import type { CheckedToolResult } from '../tools/tool-result.ts';
import type { LocalTaskRunner } from '../tasks/task-runner.ts';
import { taskPhrase } from '../tasks/task-text.ts';
import { TASK_TIMEOUT_MS } from './task-run.ts';
import { askUpFront, upFrontQuestions } from '../tool-runtime/asks-first.ts';
import type { AskAnswer } from '../tools/tool-context.ts';
import type { TaskRecord } from '../tasks/task-types.ts';

/**
 * A turn's tasks (decision 032): a call of a `long_running` tool becomes a task once it passed the
 * approval gate, and any call still running when the turn's deadline passes is handed over rather
 * than stopped. Without it, a turn runs every call itself (and stops them at its deadline).
 */
export interface TurnTasks {
  runner: LocalTaskRunner;
}

/** A call that became a task: the result the model reads now (the handle), and the task. */
export interface TaskHandle {
  result: CheckedToolResult;
  task: TaskRecord;
}

/**
 * Runs one checked call of the turn, as a task when it should be one. Answers the call's own result,
 * or the task's handle (whose result the session gets when the task ends). Never throws.
 */
export async function executeOrHandOver(
  registry: ToolRegistry,
  call: ToolCallRequest,
  params: unknown,
  options: ExecuteOptions,
  tasks: TurnTasks,
  language: Language,
): Promise<CheckedToolResult | TaskHandle> {
  const entry = registry.get(call.name);
  const longRunning = entry?.manifest.long_running !== undefined;
  const turnSignal = options.signal;
  // The call's own signal: the turn's cancel still stops it while it belongs to the turn; its deadline hands it over.
  const own = new AbortController();
  let handOver: (why: 'start' | 'deadline') => void = () => {};
  const handed = new Promise<'start' | 'deadline'>(
    (resolve) =>
      (handOver = (why) => {
        handing = true;
        resolve(why);
      }),
  );
  let last: ProgressReport | undefined; // the call may report before it is handed over: the task starts from there
  let handing = false;
  const early: LogReport[] = [];
  let adopted:
    | {
        progress: (report: ProgressReport) => void;
        log: (report: LogReport) => void;
        remote: (ref: RemoteTaskRef) => void;
        asking: (waiting: boolean) => void;
      }
    | undefined;
  let remote: RemoteTaskRef | undefined; // a remote server's task the call waits on: kept with the task it becomes
  const approve = options.approve;
  // A call still at the approval gate when the deadline passes is not handed over: it stops there, as today (its approval stays pending).
  let pastTheGate = approve === undefined;
  const onTurnAbort = () => {
    const reason: unknown = turnSignal?.reason;
    if (reason instanceof DOMException && reason.name === 'TimeoutError' && pastTheGate) handOver('deadline');
    else own.abort(reason);
  };
  if (turnSignal?.aborted) onTurnAbort();
  else turnSignal?.addEventListener('abort', onTurnAbort, { once: true });
  // asks_first: asked in the turn once the call is approved, before it becomes a task; answered by key after.
  const upFront = longRunning && entry !== undefined ? upFrontQuestions(entry.manifest) : [];
  let answers = new Map<string, AskAnswer>();
  const ask = options.ask;
  const execution = registry.execute(call.name, params, {
    ...options,
    signal: own.signal,
    ...(longRunning && entry?.manifest.timeoutMs === undefined ? { timeoutMs: TASK_TIMEOUT_MS } : {}),
    ...(approve === undefined
      ? {}
      : {
          approve: async (tool, checked) => {
            const gate = await approve(tool, checked);
            pastTheGate = gate.run;
            if (gate.run && upFront.length > 0) answers = await askUpFront(upFront, ask, own.signal);
            if (gate.run && longRunning) handOver('start');
            return gate;
          },
        }),
    ...(ask === undefined && upFront.length === 0
      ? {}
      : {
          ask: async (question, signal) => {
            const given = question.key === undefined ? undefined : answers.get(question.key);
            if (given !== undefined) return given;
            if (ask === undefined) return { answered: false, reason: 'unavailable' };
            adopted?.asking(true);
            try {
              return await ask(question, signal);
            } finally {
              adopted?.asking(false);
            }
          },
        }),
    // While the call is the turn's, its progress is the turn's (the card); once a task, the task's too.
    onProgress: (report) => {
      last = report;
      options.onProgress?.(report);
      adopted?.progress(report);
    },
    onRemoteTask: (ref) => {
      remote = ref;
      adopted?.remote(ref);
    },
    // Its log lines the same: the card's while the turn runs, kept with the task once it is one.
    onLog: (report) => {
      options.onLog?.(report);
      if (adopted !== undefined) adopted.log(report);
      else if (handing) early.push(report); // handed over, not adopted yet: the task gets it next
    },
  });
  const first = await Promise.race([execution.then((result) => ({ result })), handed.then((why) => ({ why }))]);
  turnSignal?.removeEventListener('abort', onTurnAbort);
  if ('result' in first) return first.result;
  const taken = tasks.runner.adopt(
    {
      tool: call.name,
      arguments: params !== null && typeof params === 'object' ? (params as Record<string, unknown>) : {},
      callId: call.id,
      origin: 'turn',
      ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
      language,
    },
    { result: execution, cancel: () => own.abort(new DOMException('The task was cancelled.', 'AbortError')) },
  );
  adopted = taken;
  if (last !== undefined) taken.progress(last);
  for (const report of early.splice(0)) taken.log(report);
  if (remote !== undefined) taken.remote(remote);
  const said =
    first.why === 'start'
      ? taskPhrase('task.started', { tool: call.name, id: taken.task.id })
      : taskPhrase('task.handed-over', { tool: call.name, id: taken.task.id, limit: turnLimit(turnSignal) });
  return {
    task: taken.task,
    result: { success: true, data: renderPhrase(said, language) ?? '' },
  };
}

/** The deadline as the turn said it ("the turn took longer than 1.5 s …"): its figure, for the handle. */
function turnLimit(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  const seconds = reason instanceof DOMException ? /([\d.]+ s)/.exec(reason.message)?.[1] : undefined;
  return seconds ?? 'assistant.turn_timeout_ms';
}

export const isHandle = (value: CheckedToolResult | TaskHandle): value is TaskHandle => 'task' in value;
