import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { english } from '../core/phrase.ts';
import { DEFAULT_TASK_RETENTION, ENDED_STATUSES, type TaskRecords } from '../store/task-store.ts';
import type { TaskRetention } from '../store/store-records.ts';
import type { TaskInputRepository } from '../store/store.ts';
import { TaskInputs } from './task-inputs.ts';
import type { LogReport, ProgressReport } from '../tools/call-report.ts';
import type { CheckedToolResult, ToolErrorCode } from '../tools/tool-result.ts';
import type { RemoteTaskRef } from '../tool-runtime/remote-task-ref.ts';
import type { StartTaskRequest, TaskFilter, TaskRecord, TaskRunner, TaskStatus } from './task-types.ts';
import { taskPhrase } from './task-text.ts';

/** What a task's call is given: its own signal (not a turn's nor a request's), and where it reports. */
export interface TaskCallHooks {
  taskId: string;
  signal: AbortSignal;
  progress(report: ProgressReport): void;
  /** A line the call logged: kept with the task (the latest TASK_LOG_LINES), for after its turn. */
  log(report: LogReport): void;
  /** The call's MCP server made a task of its own for it: kept with the task, so that a restart picks it up again. */
  remote(ref: RemoteTaskRef): void;
  /** A question to the person is waiting (true) or was answered (false): the task is `input_required` meanwhile. */
  asking(waiting: boolean): void;
}

/**
 * Waits again on a remote task a stopped process was waiting on (the sources' `resumeTask`): its
 * result, `{ interrupted }` with why it cannot be had, or undefined when no source knows its server.
 */
export type ResumeRemoteTask = (
  ref: RemoteTaskRef,
  signal: AbortSignal,
) => Promise<CheckedToolResult | { interrupted: string }> | undefined;

/** Runs a task's call (the registry's tool, through executeTool); never throws, like executeTool. */
export type RunTaskCall = (request: StartTaskRequest, hooks: TaskCallHooks) => Promise<CheckedToolResult>;

/** A call already running that is handed to the runner (a turn's deadline came first). */
export interface RunningCall {
  result: Promise<CheckedToolResult>;
  /** Stops it (its signal fires). */
  cancel(): void;
}

export interface TaskRunnerOptions {
  records: TaskRecords;
  /** Where its tasks' input requests are kept (the store's, so that any replica answers them); in memory without. */
  inputs?: TaskInputRepository;
  run: RunTaskCall;
  retention?: Partial<TaskRetention>;
  /** What a client is told to poll at (MCP's `pollIntervalMs`; default 1 s). */
  pollIntervalMs?: number;
  /** How often running tasks are checked for a cancel written by another process (`riverse tasks cancel`; default 1 s). */
  watchMs?: number;
  now?: () => number;
  /**
   * Told when the store fails at start, while ending the tasks a stopped process left running (they
   * stay `working` in it, to be ended at the next start); the runner runs new tasks all the same.
   */
  onStartError?: (error: unknown) => void;
}

/** Failures that mean the call could not be run or its host died: the task `failed` (MCP's words), not a tool's own failure. */
const FAILED_CODES: ReadonlySet<ToolErrorCode | undefined> = new Set([
  'unknown-tool',
  'unavailable',
  'invalid-params',
  'crashed',
  'timeout',
  'invalid-result',
  'mcp-protocol-error',
  'mcp-disconnected',
]);

const DEFAULT_POLL_MS = 1_000;
/** The log lines a task keeps (the latest), and the most of each: enough to see what it did, small enough for its row. */
const TASK_LOG_LINES = 100;
const TASK_LOG_CHARS = 1_000;
/** The most a progress report is written to the store (listeners hear every one). */
const PROGRESS_WRITE_MS = 1_000;

interface Live {
  record: TaskRecord;
  controller: AbortController;
  cancel: () => void;
  ended: Promise<TaskRecord>;
  end: (record: TaskRecord) => void;
  lastWrite: number;
  dirty: boolean;
  /** The task's writes, one after another: a later state is never overwritten by an earlier one. */
  writing: Promise<void>;
}

/** A process's name for its tasks' rows: host, pid and start, so that a start interrupts only the tasks of a process that is gone. */
const RUNNER = `${hostname()}:${process.pid}:${Date.now()}`;

/**
 * Whether the process a row names is gone. Only a process of this host can be seen to be gone: one
 * of another host (a replica on another machine, sharing PostgreSQL) is taken as running, since
 * ending its task while it runs would lose its result (an ended row is not changed again).
 */
function runnerStopped(runner: string | undefined): boolean {
  if (runner === undefined) return true;
  const [host, pid] = runner.split(':');
  if (pid === undefined) return true;
  if (host !== hostname()) return false;
  if (runner === RUNNER) return false;
  if (Number(pid) === process.pid) return true; // an earlier runner of this process (a store reopened): closed, or it would be RUNNER
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * The tasks of one process: runs each call apart from what started it, keeps its record in the
 * store (written at each change; progress at most once a second), tells listeners, and at start
 * ends as `interrupted` the tasks a stopped process left running (nothing is run again).
 */
export class LocalTaskRunner implements TaskRunner {
  readonly #records: TaskRecords;
  readonly #run: RunTaskCall;
  readonly #retention: TaskRetention;
  readonly #pollIntervalMs: number;
  readonly #watchMs: number;
  readonly #now: () => number;
  readonly #live = new Map<string, Live>();
  readonly #listeners = new Set<(task: TaskRecord) => void>();
  #watch: NodeJS.Timeout | undefined;
  #closed = false;
  /** Tasks interrupted when this runner started (a restart found them running); empty when the store failed then. */
  readonly ready: Promise<readonly TaskRecord[]>;
  /** The input requests of its tasks (an MCP client's), in the store beside them. */
  readonly inputs: TaskInputs;
  /** Tasks a stopped process left waiting on a remote server's task: held (claimed) until `resumeRemote` picks them up. */
  #orphans: TaskRecord[] = [];

  constructor(options: TaskRunnerOptions) {
    this.#records = options.records;
    this.#run = options.run;
    this.#retention = { ...DEFAULT_TASK_RETENTION, ...options.retention };
    this.#pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_MS;
    this.#watchMs = options.watchMs ?? 1_000;
    this.#now = options.now ?? Date.now;
    this.inputs = new TaskInputs(options.inputs);
    this.ready = this.#recover(options.onStartError ?? ((failure) => console.error(failure)));
  }

  async #recover(onStartError: (error: unknown) => void): Promise<readonly TaskRecord[]> {
    try {
      // A task waiting on a remote server's task is not interrupted: claimed, for resumeRemote to pick up again.
      for (const task of await this.#records.list({ status: ['working', 'input_required'] })) {
        if (task.remote === undefined || !runnerStopped(await this.#records.runnerOf?.(task.id))) continue;
        await this.#records.put({ ...task, status: 'working' }, RUNNER);
        this.#orphans.push({ ...task, status: 'working' });
      }
      const at = this.#now();
      const interrupted = await this.#records.interruptRunning(
        english(taskPhrase('task.interrupted')),
        at,
        runnerStopped,
      );
      // Their input requests wait for no one now: no replica takes a response no call will read.
      for (const task of interrupted) await this.inputs.endTask(task.id);
      await this.#records.prune(this.#now(), this.#retention);
      return interrupted;
    } catch (error) {
      // A store that fails at start is the service's to report; it does not stop it from starting.
      onStartError(error);
      return [];
    }
  }

  async start(request: StartTaskRequest): Promise<TaskRecord> {
    const live = this.#startLive(request);
    // Its first row is stored before the caller has the task: another process (replica) can find it.
    await live.writing;
    return structuredClone(live.record);
  }

  #startLive(request: StartTaskRequest): Live {
    const controller = new AbortController();
    const live = this.#begin(request, controller, () =>
      controller.abort(new DOMException('The task was cancelled.', 'AbortError')),
    );
    const hooks: TaskCallHooks = {
      taskId: live.record.id,
      signal: controller.signal,
      progress: (report) => this.#progress(live, report),
      log: (report) => this.#log(live, report),
      remote: (ref) => this.#remote(live, ref),
      asking: (waiting) => this.#asking(live, waiting),
    };
    // Started on the next tick: the caller has the record (and may subscribe) before anything is reported.
    queueMicrotask(() => {
      this.#run(request, hooks).then(
        (result) => this.#finish(live, result),
        (error: unknown) => this.#finish(live, { success: false, data: '', error: String(error), code: 'threw' }),
      );
    });
    return live;
  }

  /**
   * Takes over a call that is already running (a turn's deadline came before it ended): it becomes a
   * task now, and its result ends the task. Answers the record and where its reports go from now on.
   */
  adopt(
    request: StartTaskRequest,
    running: RunningCall,
  ): {
    task: TaskRecord;
    progress: (report: ProgressReport) => void;
    log: (report: LogReport) => void;
    remote: (ref: RemoteTaskRef) => void;
    asking: (waiting: boolean) => void;
  } {
    const live = this.#begin(request, new AbortController(), running.cancel);
    running.result.then(
      (result) => this.#finish(live, result),
      (error: unknown) => this.#finish(live, { success: false, data: '', error: String(error), code: 'threw' }),
    );
    return {
      task: structuredClone(live.record),
      progress: (report) => this.#progress(live, report),
      log: (report) => this.#log(live, report),
      remote: (ref) => this.#remote(live, ref),
      asking: (waiting) => this.#asking(live, waiting),
    };
  }

  // Reads of the store wait for the start's recovery: a row a stopped process left is never shown as running.
  async get(id: string): Promise<TaskRecord | undefined> {
    const live = this.#live.get(id);
    if (live !== undefined) return structuredClone(live.record);
    await this.ready;
    return this.#records.get(id);
  }

  async list(filter?: TaskFilter): Promise<TaskRecord[]> {
    await this.ready;
    await this.#flushProgress();
    return this.#records.list(filter);
  }

  async cancel(id: string): Promise<TaskRecord | undefined> {
    const live = this.#live.get(id);
    // Held by another process on the store (a replica beside this one): cancelled in its row, which that runner watches.
    if (live === undefined) {
      await this.ready;
      return cancelStored(this.#records, id);
    }
    this.#endCancelled(live);
    const record = structuredClone(live.record);
    await live.writing;
    return record;
  }

  async waitForEnd(id: string, signal?: AbortSignal): Promise<TaskRecord> {
    let live = this.#live.get(id);
    if (live === undefined) {
      await this.ready;
      live = this.#live.get(id); // one the start claimed, picked up again (resumeRemote)
    }
    if (live === undefined) {
      const record = await this.#records.get(id);
      if (record === undefined) throw new Error(`There is no task ${id}.`);
      return record;
    }
    if (signal === undefined) return live.ended.then((record) => structuredClone(record));
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      live.ended.then((record) => {
        signal.removeEventListener('abort', onAbort);
        resolve(structuredClone(record));
      });
    });
  }

  onChange(listener: (task: TaskRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * Picks up again the tasks a stopped process left waiting on a remote MCP server's task: each is
   * run on (its id and record kept) by polling that task through `resume`; one whose server forgot
   * it, or that no source knows, ends `interrupted` with the reason. Call it once the sources are ready.
   */
  async resumeRemote(resume: ResumeRemoteTask): Promise<TaskRecord[]> {
    await this.ready; // the start claims them
    const orphans = this.#orphans.splice(0);
    for (const task of orphans) {
      const controller = new AbortController();
      const live = this.#hold(task, controller);
      const waiting = task.remote === undefined ? undefined : resume(task.remote, controller.signal);
      if (waiting === undefined) {
        this.#interrupt(
          live,
          `No MCP server named ${task.remote?.server} is configured now: its task could not be picked up again.`,
        );
        continue;
      }
      waiting.then(
        (outcome) =>
          'interrupted' in outcome ? this.#interrupt(live, outcome.interrupted) : this.#finish(live, outcome),
        (error: unknown) => this.#interrupt(live, String(error)),
      );
    }
    return orphans;
  }

  /** Ended tasks of a session whose result the session has not seen yet, oldest first. */
  undelivered(sessionId: string): Promise<TaskRecord[]> {
    return this.#records.undelivered(sessionId);
  }

  /** Records that a task's result was delivered into its session; false when it already was. */
  markDelivered(id: string): Promise<boolean> {
    return this.#records.markDelivered(id, this.#now());
  }

  /** How many tasks this process is running. */
  get running(): number {
    return this.#live.size;
  }

  /**
   * Stops this process's tasks: each is ended `interrupted` (with the restart's reason) and its call's
   * signal fires, but for one waiting on a remote server's task, left `working` for the next start to
   * pick up. Called when the service or the chat ends, before its store closes (the promise settles
   * once their rows are written).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#watch);
    const writes: Promise<void>[] = [];
    for (const live of [...this.#live.values()]) {
      // One waiting on a remote server's task is left working, its call not cancelled (which would
      // cancel the server's task): the next start picks it up again (resumeRemote).
      if (live.record.remote !== undefined) {
        this.#write(live);
        writes.push(live.writing);
        this.#live.delete(live.record.id);
        continue;
      }
      this.#end(live, {
        status: 'interrupted',
        errorCode: 'interrupted',
        statusMessage: english(taskPhrase('task.interrupted')),
      });
      live.cancel();
      writes.push(live.writing);
    }
    await Promise.all([...writes, this.#pruning]);
  }

  #begin(request: StartTaskRequest, controller: AbortController, cancel: () => void): Live {
    if (this.#closed) throw new Error('The task runner is closed: no task can start.');
    const now = this.#now();
    const record: TaskRecord = {
      id: randomUUID(),
      tool: request.tool,
      callId: request.callId,
      ...(request.sessionId === undefined ? {} : { sessionId: request.sessionId }),
      origin: request.origin,
      status: 'working',
      arguments: structuredClone(request.arguments),
      createdAt: now,
      updatedAt: now,
      ...(request.ttlMs === undefined ? {} : { ttlMs: request.ttlMs }),
      pollIntervalMs: this.#pollIntervalMs,
    };
    let end: (record: TaskRecord) => void = () => {};
    const ended = new Promise<TaskRecord>((resolve) => (end = resolve));
    const live: Live = {
      record,
      controller,
      cancel,
      ended,
      end,
      lastWrite: now,
      dirty: false,
      writing: Promise.resolve(),
    };
    this.#write(live);
    this.#live.set(record.id, live);
    this.#startWatch();
    this.#tell(record);
    return live;
  }

  /** An existing record taken up again (resumeRemote): live in this process, under its own id. */
  #hold(record: TaskRecord, controller: AbortController): Live {
    let end: (record: TaskRecord) => void = () => {};
    const ended = new Promise<TaskRecord>((resolve) => (end = resolve));
    const live: Live = {
      record: { ...record, status: 'working', updatedAt: this.#now() },
      controller,
      cancel: () => controller.abort(new DOMException('The task was cancelled.', 'AbortError')),
      ended,
      end,
      lastWrite: this.#now(),
      dirty: false,
      writing: Promise.resolve(),
    };
    this.#live.set(record.id, live);
    this.#write(live);
    this.#startWatch();
    this.#tell(live.record);
    return live;
  }

  #interrupt(live: Live, reason: string): void {
    if (!this.#live.has(live.record.id)) return;
    this.#end(live, { status: 'interrupted', errorCode: 'interrupted', statusMessage: reason });
  }

  /** The call's MCP server made a task of its own: its ref is kept with the record (written at once). */
  #remote(live: Live, ref: RemoteTaskRef): void {
    if (!this.#live.has(live.record.id)) return;
    live.record.remote = { ...ref };
    this.#write(live);
  }

  #progress(live: Live, report: ProgressReport): void {
    if (!this.#live.has(live.record.id)) return;
    live.record.progress = { ...report };
    live.record.updatedAt = this.#now();
    if (live.record.updatedAt - live.lastWrite >= PROGRESS_WRITE_MS) this.#write(live);
    else live.dirty = true;
    this.#tell(live.record);
  }

  /** A log line: kept (the latest ones, each cut), written with the next progress write or at the end. */
  #log(live: Live, report: LogReport): void {
    if (!this.#live.has(live.record.id)) return;
    const message =
      report.message.length <= TASK_LOG_CHARS ? report.message : `${report.message.slice(0, TASK_LOG_CHARS - 1)}…`;
    const logs = live.record.logs ?? [];
    logs.push({ atMs: this.#now(), level: report.level, message });
    if (logs.length > TASK_LOG_LINES) logs.splice(0, logs.length - TASK_LOG_LINES);
    live.record.logs = logs;
    if (this.#now() - live.lastWrite >= PROGRESS_WRITE_MS) this.#write(live);
    else live.dirty = true;
    this.#tell(live.record);
  }

  #asking(live: Live, waiting: boolean): void {
    if (!this.#live.has(live.record.id)) return;
    const status: TaskStatus = waiting ? 'input_required' : 'working';
    if (live.record.status === status) return;
    live.record.status = status;
    live.record.updatedAt = this.#now();
    this.#write(live);
    this.#tell(live.record);
  }

  #finish(live: Live, result: CheckedToolResult): void {
    if (!this.#live.has(live.record.id)) return; // cancelled or interrupted already: that status stands
    const failed = !result.success && FAILED_CODES.has(result.code);
    this.#end(live, {
      status: failed ? 'failed' : 'completed',
      result,
      ...(failed ? { errorCode: result.code ?? 'threw', statusMessage: result.error ?? '' } : {}),
    });
  }

  #endCancelled(live: Live): void {
    this.#end(live, {
      status: 'cancelled',
      statusMessage: english(taskPhrase('task.cancelled', { tool: live.record.tool })),
    });
    live.cancel();
  }

  #end(live: Live, change: Partial<TaskRecord> & { status: TaskStatus }): void {
    this.#live.delete(live.record.id);
    Object.assign(live.record, change, { updatedAt: this.#now() });
    this.#write(live);
    if (this.#live.size === 0) clearInterval(this.#watch);
    const now = this.#now();
    this.#pruning = this.#pruning
      .then(() => this.#records.prune(now, this.#retention))
      .then(
        () => {},
        () => {},
      );
    const ended = structuredClone(live.record);
    // Its end is told once it is stored: whoever hears of it may read it from the store (a delivery, another replica).
    void live.writing.then(() => {
      this.#tell(ended);
      live.end(ended);
    });
  }

  /** The ended tasks' prune after the last end (one after another, never thrown). */
  #pruning: Promise<void> = Promise.resolve();

  #write(live: Live): void {
    live.lastWrite = this.#now();
    live.dirty = false;
    const record = structuredClone(live.record);
    // A write that fails (a full disk) must not stop the task: the record in memory stays right.
    live.writing = live.writing
      .then(() => this.#records.put(record, RUNNER))
      .then(
        () => {},
        () => {},
      );
  }

  async #flushProgress(): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const live of this.#live.values()) {
      if (live.dirty) this.#write(live);
      writes.push(live.writing);
    }
    await Promise.all(writes);
  }

  /** A cancel may come from another process (`riverse tasks cancel` beside `riverse serve`): it is in the store. */
  #startWatch(): void {
    if (this.#live.size !== 1) return;
    clearInterval(this.#watch);
    this.#watch = setInterval(() => {
      this.#records.statuses([...this.#live.keys()]).then(
        (stored) => {
          for (const [id, status] of stored) {
            const live = this.#live.get(id);
            if (live !== undefined && ENDED_STATUSES.includes(status)) this.#endCancelled(live);
          }
        },
        () => {}, // the store is down: the next look may find it back
      );
    }, this.#watchMs);
    this.#watch.unref();
  }

  #tell(record: TaskRecord): void {
    const copy = structuredClone(record);
    for (const listener of this.#listeners) {
      try {
        listener(copy);
      } catch {}
    }
  }
}

/**
 * Cancels a task in the store when no runner of this process holds it (`riverse tasks cancel` beside
 * a running service): the service's runner sees the row and stops the call. Answers the record as it now is.
 */
export async function cancelStored(
  records: TaskRecords,
  id: string,
  now = Date.now(),
): Promise<TaskRecord | undefined> {
  const task = await records.get(id);
  if (task === undefined || ENDED_STATUSES.includes(task.status)) return task;
  const cancelled: TaskRecord = {
    ...task,
    status: 'cancelled',
    statusMessage: english(taskPhrase('task.cancelled', { tool: task.tool })),
    updatedAt: now,
  };
  await records.put(cancelled);
  return cancelled;
}
