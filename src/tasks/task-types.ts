import type { CheckedToolResult } from '../tools/tool-result.ts';
import type { Language } from '../core/language.ts';
import type { ExecuteOptions } from '../tool-runtime/execute-tool.ts';
import type { ReportLevel } from '../tools/call-report.ts';
import type { RemoteTaskRef } from '../tool-runtime/remote-task-ref.ts';

/**
 * A task: one tool call that runs apart from the turn that started it (a manifest's `long_running`,
 * or a call that outlived `assistant.turn_timeout_ms`), or that an MCP client asked to run as one.
 * The words are MCP's tasks extension's (SEP-2663), so that the mapping is one-to-one; `interrupted`
 * is Riverse's own: the process that ran it stopped (a restart), and nothing was run again.
 */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled' | 'interrupted';

/** Who started a task. */
export type TaskOrigin = 'turn' | 'mcp' | 'api' | 'cli';

export interface TaskProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** A line the task's call logged (`context.log`, a server's log notification), kept to be read after its turn. */
export interface TaskLogLine {
  atMs: number;
  level: ReportLevel;
  message: string;
}

/** A task as it is stored and listed. Times are epoch milliseconds. */
export interface TaskRecord {
  id: string;
  tool: string;
  /** The call's id in the turn (or the MCP request's) that started it. */
  callId: string;
  /** The session the result is delivered into; none for a task an MCP client or `tools run` started. */
  sessionId?: string;
  origin: TaskOrigin;
  status: TaskStatus;
  /** Why it is in this status, for a person (a failure's or an interruption's reason). */
  statusMessage?: string;
  /** A stable code when it failed or was interrupted (a `ToolErrorCode`, `interrupted`, …). */
  errorCode?: string;
  arguments: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  /** How long the record is kept after it ends (MCP's `ttlMs`); the store's retention otherwise. */
  ttlMs?: number;
  /** How often a client should poll it (MCP's `pollIntervalMs`). */
  pollIntervalMs?: number;
  progress?: TaskProgress;
  /**
   * The remote MCP server's task its call waits on (a server's tool that runs only as a task): kept
   * so that a restart picks it up again rather than interrupting it.
   */
  remote?: RemoteTaskRef;
  /** The latest lines its call logged (at most TASK_LOG_LINES, each cut to TASK_LOG_CHARS), oldest first. */
  logs?: TaskLogLine[];
  /** The result, once `completed` or `failed` (a tool's own failure is a completed call with `success: false`). */
  result?: CheckedToolResult;
  /** When the result was delivered into its session (the next turn saw it). */
  deliveredAt?: number;
}

export interface StartTaskRequest {
  tool: string;
  arguments: Record<string, unknown>;
  callId: string;
  origin: TaskOrigin;
  sessionId?: string;
  language?: Language;
  ttlMs?: number;
  /** What stands between the call and the person, when the starter has its own (MCP's input requests); else the runner's. */
  approve?: ExecuteOptions['approve'];
  /** Where the call's `context.ask` goes, when the starter has its own channel; else the runner's. */
  ask?: ExecuteOptions['ask'];
}

export interface TaskFilter {
  status?: TaskStatus | readonly TaskStatus[];
  sessionId?: string;
  tool?: string;
  limit?: number;
}

/** A response to a task's input request (MCP's: `accept` with a form's content, `decline`, `cancel`), or how it ended unanswered (`timeout`, `cancel`). */
export interface TaskInputResponse {
  action: string;
  content?: Record<string, unknown>;
}

/**
 * The input requests a task asks its MCP client (MCP's `inputRequests`, by key), kept where every
 * process sharing the store shows and answers them (`tasks/get`, `tasks/update` on any replica).
 */
export interface TaskInputPort {
  /** Stores the request (then tells `stored`) and waits for its response, its time limit (`timeout`) or `signal` (`cancel`). */
  ask(
    taskId: string,
    key: string,
    request: Record<string, unknown>,
    timeoutMs: number,
    signal: AbortSignal,
    stored?: () => void,
  ): Promise<TaskInputResponse>;
  /** The task's pending requests by key, undefined when none waits. */
  requests(taskId: string): Promise<Record<string, Record<string, unknown>> | undefined>;
  /** Stores the responses, by key: the first per key counts, a key not pending is ignored; the call that asked goes on. */
  answer(taskId: string, responses: Record<string, unknown>): Promise<void>;
  /** Ends the task's pending requests (it ended). */
  endTask(taskId: string): Promise<void>;
}

/**
 * What the rooms above (the turn, the service, MCP's server) use to run and watch tasks. The MCP
 * server is below the room that implements it, so it receives one (the port) rather than importing it.
 */
export interface TaskRunner {
  /** Starts the call as a task and answers at once with its record (status `working`). */
  start(request: StartTaskRequest): Promise<TaskRecord>;
  get(id: string): Promise<TaskRecord | undefined>;
  list(filter?: TaskFilter): Promise<TaskRecord[]>;
  /** Cancels a running task (its call's signal fires); answers the record as it now is, undefined when unknown. */
  cancel(id: string): Promise<TaskRecord | undefined>;
  /** Resolves when the task ends (or at once when it has), or rejects with the signal's reason. */
  waitForEnd(id: string, signal?: AbortSignal): Promise<TaskRecord>;
  /** Called on every change of any task (status, progress); returns the unsubscribe. */
  onChange(listener: (task: TaskRecord) => void): () => void;
  /** The input requests of its tasks (an MCP client's), shown and answered from any process on the store. */
  readonly inputs: TaskInputPort;
}
