import type { TraceContext } from '../core/trace-context.ts';
import type { Language } from '../core/language.ts';
import type { ChatMessage } from '../models/chat-message.ts';
import type { TaskFilter, TaskRecord, TaskStatus } from '../tasks/task-types.ts';
import type { ContentPart } from '../tools/content-part.ts';
import type {
  ApprovalRecord,
  ApprovalRun,
  ApprovalStatus,
  KeptTokens,
  NewApproval,
  NewQuestion,
  NewTaskInput,
  OAuthClient,
  QuestionRecord,
  QuestionSettlement,
  RunningTurn,
  SessionInfo,
  SessionSummary,
  TaskInputRecord,
  StoredResponse,
  StoredTrace,
  StoredTurnTrace,
  TaskRetention,
  ToolCallQuery,
  TraceQuery,
  TraceRetention,
  TurnTraceQuery,
  TurnTraceSummary,
} from './store-records.ts';
import type { ToolCallTrace } from './tool-call-trace.ts';
import type { ToolStats, ToolStatsQuery } from './tool-call-stats.ts';
import type { SpanAttribute, HandRunVia, TurnTrace } from './turn-trace.ts';

/**
 * What Riverse keeps between turns, behind one interface with two implementations: SQLite in the
 * data folder (sqlite-store.ts, the default) and PostgreSQL shared by replicas (postgres/). Every
 * read and write is async, so that a network database fits; what is written off the turn's path
 * (`queueToolCall`, `turnTraces.queue`) is queued in memory and written in batches, synchronously
 * queued. `openStore` (open-store.ts) picks one (decision 037).
 */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** Where it is, for messages: the database file, or the URL without its password. */
  readonly where: string;
  /** Approvals of calls made in these sessions, and the "always" grants. */
  readonly approvals: ApprovalRepository;
  /** Questions tools ask the person, waiting or settled, so that any replica shows and answers them. */
  readonly questions: QuestionRepository;
  /** The input requests of tasks MCP clients started, so that any replica shows and answers them. */
  readonly taskInputs: TaskInputRepository;
  /** Responses of `/v1/responses` kept for `previous_response_id`. */
  readonly responses: ResponseRepository;
  /** One trace per turn (and per run by hand), written in batches off the turn's path. */
  readonly turnTraces: TurnTraceRepository;
  /** Tool calls that run apart from their turn (tasks). */
  readonly tasks: TaskRepository;
  /** The dashboard's tool switches (they win over riverse.yaml's `tools:` entries). */
  readonly toolSwitches: ToolSwitchRepository;
  /** MCP servers' OAuth sign-ins: the client registered per issuer, tokens per issuer and resource. */
  readonly oauth: OAuthTokenRepository;
  /** Which replica runs each session's turn, when several `riverse serve` share the store (decision 039). */
  readonly runningTurns: RunningTurnRepository;
  /** Live events between the processes sharing this store (in-process for SQLite, LISTEN/NOTIFY for PostgreSQL). */
  readonly events: StoreEvents;

  /** The session called `name`, created if there is none. */
  session(name: string): Promise<SessionInfo>;
  /** The id of the session called `name`, created if there is none (may be remembered by the store). */
  sessionId(name: string): Promise<string>;
  /** The session called `name`, without creating it. */
  findSession(name: string): Promise<SessionInfo | undefined>;
  /** Every session (but the runs by hand's) with its message count, most recently updated first. */
  listSessions(): Promise<SessionSummary[]>;
  /** Undefined when there is no session called `from`; a SessionNameTakenError when `to` is taken. */
  renameSession(from: string, to: string): Promise<SessionInfo | undefined>;
  /** Deletes the session with its messages, traces, approvals, responses. Whether it existed. */
  deleteSession(name: string): Promise<boolean>;
  /** Sets (or with `undefined` clears) the language the session answers in; throws for an unknown session. */
  setLanguage(sessionId: string, language: Language | undefined): Promise<void>;
  /** Appends messages in order, all or none. `turnId` marks the turn they belong to. */
  appendMessages(sessionId: string, messages: readonly ChatMessage[], turnId?: string): Promise<void>;
  /** The session's messages in order, exactly as appended. */
  messages(sessionId: string): Promise<ChatMessage[]>;
  /** The turn each of the session's messages belongs to, in the order of `messages()` (null: none given). */
  messageTurns(sessionId: string): Promise<(string | null)[]>;
  /** Writes a tool call's trace now (after what is queued); throws for an unknown session. */
  recordToolCall(trace: ToolCallTrace): Promise<void>;
  /**
   * Queues a turn's tool call with the next batch of turn traces (off the turn's path). A failed
   * write is reported (`onTraceError`), never thrown; a call whose session is gone is left out.
   * Throws only when `params` cannot become JSON.
   */
  queueToolCall(trace: ToolCallTrace): void;
  /** Records a call a person ran by hand: a trace of no session, and a turn trace marked with `via`. */
  recordHandRun(
    trace: Omit<ToolCallTrace, 'sessionId'>,
    via?: HandRunVia,
    content?: readonly ContentPart[],
    parent?: TraceContext,
  ): Promise<TurnTrace>;
  /** The session's tool calls, oldest first; optionally of one turn, optionally only the last `limit`. */
  toolCalls(sessionId: string, options?: ToolCallQuery): Promise<ToolCallTrace[]>;
  /** Per tool, its calls over a window: counts, failures, p50/p95 run time, in buckets. */
  toolStats(query?: ToolStatsQuery): Promise<ToolStats>;
  /** Tool calls of every session, newest first, filtered. */
  traces(query?: TraceQuery): Promise<StoredTrace[]>;
  /** The key called `name` that every process sharing the store reads alike (32 random bytes, made by the first to ask). */
  sharedSecret(name: string): Promise<Buffer>;
  /** Writes what is queued, then closes. */
  close(): Promise<void>;
}

/**
 * The claims of turns on sessions, one row per session across every replica (decision 039): the
 * claim and the take-over are each one conditional write, so of two replicas one wins.
 */
export interface RunningTurnRepository {
  /** Claims `sessionId` for a turn of `replica`; false when a turn of the session is running already. */
  claim(sessionId: string, replica: string, now?: number): Promise<boolean>;
  /** The turn has ended: its claim goes (only the replica's own). */
  release(sessionId: string, replica: string): Promise<void>;
  /** `replica` is alive: every turn it runs gets `now` as its heartbeat. */
  beat(replica: string, now?: number): Promise<void>;
  /** Every turn running, of every replica, oldest first. */
  list(): Promise<RunningTurn[]>;
  /** The turn running in `sessionId`, if one is. */
  owner(sessionId: string): Promise<RunningTurn | undefined>;
  /** The id of the turn that began as `turn` did: its last message's since then (none: it stored nothing). */
  turnOf(turn: RunningTurn): Promise<string | undefined>;
  /** Takes a dead replica's turn away if it is still as `seen`; of several sweepers at once, one gets true. */
  take(seen: RunningTurn): Promise<boolean>;
}

/** Approvals: an answer is stored before the call runs, and of two answers only the first counts. */
export interface ApprovalRepository {
  add(record: NewApproval): Promise<void>;
  get(id: string): Promise<ApprovalRecord | undefined>;
  /** Pending approvals, oldest first. */
  pending(): Promise<ApprovalRecord[]>;
  /** Approved calls whose run never began, oldest first. */
  approvedNotRun(): Promise<ApprovalRecord[]>;
  /** Settles a pending approval; false when it was no longer pending (the first answer counts). */
  decide(
    id: string,
    status: Exclude<ApprovalStatus, 'pending'>,
    options?: { always?: boolean; reason?: string },
  ): Promise<boolean>;
  /** Records where the approved call's run is; `started` only from `not-started`, so a call is begun once. */
  setRun(id: string, run: Exclude<ApprovalRun, 'not-started'>): Promise<boolean>;
  /** "Always for this tool in this session". */
  allowAlways(sessionId: string, tool: string): Promise<void>;
  alwaysAllowed(sessionId: string, tool: string): Promise<boolean>;
}

/** Questions: of two answers to one (from any replicas) only the first counts, and an ended one takes none. */
export interface QuestionRepository {
  add(record: NewQuestion): Promise<void>;
  get(id: string): Promise<QuestionRecord | undefined>;
  /** Pending questions, oldest first. */
  pending(): Promise<QuestionRecord[]>;
  /** Settles a pending question; false when it was no longer pending (the first answer counts). */
  settle(id: string, settlement: QuestionSettlement): Promise<boolean>;
  /** Ends the pending questions of one turn (its replica died); how many it ended. */
  endTurn(sessionId: string, turnId: string): Promise<number>;
}

/** A task's input requests, by task and key: of two responses to one (from any replicas) only the first counts. */
export interface TaskInputRepository {
  /** Stores a pending request (one the task asked before under the same key, settled, is asked again). */
  add(record: NewTaskInput): Promise<void>;
  get(taskId: string, key: string): Promise<TaskInputRecord | undefined>;
  /** The task's pending requests, oldest first. */
  pending(taskId: string): Promise<TaskInputRecord[]>;
  /** Stores the response to a pending request; false when it was no longer pending (the first response counts). */
  answer(taskId: string, key: string, response: Record<string, unknown>): Promise<boolean>;
  /** Ends a pending request unanswered (its time, a cancel); false when it was settled first. */
  end(taskId: string, key: string): Promise<boolean>;
  /** Ends the task's pending requests (it was interrupted: its process died); how many it ended. */
  endTask(taskId: string): Promise<number>;
}

export interface ResponseRepository {
  add(response: StoredResponse): Promise<void>;
  get(id: string): Promise<StoredResponse | undefined>;
  /** The conversation up to and including response `id`, oldest first; undefined when `id` is not kept. */
  conversation(id: string): Promise<ChatMessage[] | undefined>;
  /** Deletes one response. Whether it existed. */
  delete(id: string): Promise<boolean>;
}

export interface TurnTraceRepository {
  /** Keeps `trace` to be written with the next batch. Never throws. */
  queue(trace: TurnTrace): void;
  /** Writes what is queued now. Never throws (a failure goes to `onTraceError`). */
  flush(): Promise<void>;
  /** The whole trace of a turn (its id, or the start of it when only one trace's id starts so). */
  get(id: string): Promise<StoredTurnTrace | undefined>;
  /** The newest trace: of turns (`byHand` false), of runs by hand (true), or of either. */
  last(byHand?: boolean): Promise<StoredTurnTrace | undefined>;
  /** Traces newest first, filtered. */
  list(query?: TurnTraceQuery): Promise<TurnTraceSummary[]>;
  /** Adds attributes to the tool-call span `callId` of turn `turnId`; false when there is none. Never throws. */
  annotateCall(turnId: string, callId: string, attributes: Record<string, SpanAttribute>): Promise<boolean>;
}

/** Where the task runner keeps tasks: a store's table, or memory (`memoryTasks`). */
export interface TaskRepository {
  /** Writes the whole record; `runner` names the process running it. An ended task's row is not changed. */
  put(record: TaskRecord, runner?: string): Promise<void>;
  get(id: string): Promise<TaskRecord | undefined>;
  /** Newest first. */
  list(filter?: TaskFilter): Promise<TaskRecord[]>;
  /** Ended tasks of a session whose result was not delivered yet, oldest first. */
  undelivered(sessionId: string): Promise<TaskRecord[]>;
  /** Marks a task's result delivered; false when it was already (or is unknown). */
  markDelivered(id: string, at: number): Promise<boolean>;
  /** Ends as `interrupted` every running task whose runner `stopped` says is gone; answers those ended. */
  interruptRunning(
    statusMessage: string,
    at: number,
    stopped: (runner: string | undefined) => boolean,
  ): Promise<TaskRecord[]>;
  /** The statuses of these tasks as stored (another process may have cancelled one). */
  statuses(ids: readonly string[]): Promise<Map<string, TaskStatus>>;
  /** The process a task's row names as running it (`host:pid:start`), if any. */
  runnerOf?(id: string): Promise<string | undefined>;
  /** Deletes ended tasks past their time to live, and the oldest past the count; answers how many went. */
  prune(now: number, retention?: TaskRetention): Promise<number>;
}

/** The tool switches a person set on the dashboard: true on, false off; a tool not in the map has none. */
export interface ToolSwitchRepository {
  all(): Promise<Map<string, boolean>>;
  /** Sets one tool's switch; `undefined` clears it (riverse.yaml's entry, or the default, holds again). */
  set(name: string, enabled: boolean | undefined): Promise<void>;
  /**
   * Calls `changed` after another process sharing the store may have set a switch (PostgreSQL: a
   * notification; SQLite: the file's data version, looked at every `pollMs`), for the caller to read
   * `all()` again; resolves once watching. The function it gives stops watching.
   */
  watch(changed: () => void, pollMs?: number): Promise<() => void>;
}

/** MCP OAuth sign-ins, shaped after mcp/oauth/token-store.ts (which keeps `savedAt` strictly rising). */
export interface OAuthTokenRepository {
  client(issuer: string): Promise<OAuthClient | undefined>;
  /** `undefined` forgets the client. */
  saveClient(issuer: string, client: OAuthClient | undefined): Promise<void>;
  tokens(issuer: string, resource: string): Promise<KeptTokens | undefined>;
  /** `undefined` forgets them. */
  saveTokens(issuer: string, resource: string, kept: KeptTokens | undefined): Promise<void>;
  /** The tokens saved last (greatest `savedAt`) for this resource, whichever issuer gave them. */
  latest(resource: string): Promise<(KeptTokens & { issuer: string }) | undefined>;
}

/**
 * Live events on named channels, heard by every process sharing the store (the one that published
 * too): a JSON payload each, delivered in order of publication, not kept (the rows are the record).
 */
export interface StoreEvents {
  /** Sends `payload` (JSON-serializable) to every subscriber of `channel` (1 to 40 of a-z 0-9 _ . : -). */
  publish(channel: string, payload: unknown): Promise<void>;
  /** Resolves once listening (an event published after it is heard); the function it gives stops listening. */
  subscribe(channel: string, listener: (payload: unknown) => void): Promise<() => void>;
}

/** How a store is opened (both kinds). */
export interface StoreOptions {
  /** How long turn traces are kept and how many (DEFAULT_TRACE_RETENTION). */
  traceRetention?: Partial<TraceRetention>;
  /** Told when a batch of turn traces could not be written; by default a line on stderr. */
  onTraceError?: (error: unknown) => void;
  /** How long a queued turn trace waits for others before they are written together (default 250 ms). */
  traceBatchMs?: number;
  /**
   * SQLite: the write-ahead log checkpointed by a worker thread, off the event loop (a
   * long-running service's; `riverse serve` sets it). Other stores do without.
   */
  checkpointOffThread?: boolean;
}
