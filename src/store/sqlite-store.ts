import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { TraceContext } from '../core/trace-context.ts';
import { join } from 'node:path';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { ChatMessage, ToolCallRequest } from '../models/chat-message.ts';
import { isLanguage, LANGUAGES, type Language } from '../core/language.ts';
import type { ToolErrorCode } from '../tools/tool-result.ts';
import { ApprovalStore } from './approval-store.ts';
import { loadSqlite } from './load-sqlite.ts';
import { RunningTurns } from './running-turns.ts';
import { sharedSecret } from './shared-secret.ts';
import type { PortableSql } from './portable-sql.ts';
import { QuestionTable } from './question-store.ts';
import { TaskInputTable } from './task-input-store.ts';
import { ResponseStore } from './response-store.ts';
import { TaskStore } from './task-store.ts';
import { migrate } from './schema.ts';
import type { ContentPart } from '../tools/content-part.ts';
import type { ToolCallTrace } from './tool-call-trace.ts';
import { TOOL_CALL_COLUMNS, TraceStore } from './trace-store.ts';
import {
  DEFAULT_TRACE_RETENTION,
  MAX_TRACES,
  SessionNameTakenError,
  type SessionInfo,
  type SessionSummary,
  type StoredTrace,
  type ToolCallQuery,
  type TraceQuery,
} from './store-records.ts';
import type {
  OAuthTokenRepository,
  QuestionRepository,
  RunningTurnRepository,
  Store,
  StoreOptions,
  TaskInputRepository,
  ToolSwitchRepository,
} from './store.ts';
import { SqliteOAuthTokens } from './sqlite-oauth-tokens.ts';
import { SqliteToolSwitches } from './sqlite-tool-switches.ts';
import { localEvents } from './local-events.ts';
import { handRunTrace } from './hand-run-trace.ts';
import { toolCallStats, type ToolStats, type ToolStatsQuery } from './tool-call-stats.ts';
import type { HandRunVia, TurnTrace } from './turn-trace.ts';
import { jsonText } from '../models/json-text.ts';
import { startWalCheckpointer } from './wal-checkpointer.ts';

export const DATABASE_FILE = 'riverse.db';
/** How long a write waits for another process's write to finish before failing. */
const BUSY_TIMEOUT_MS = 5_000;
const SQLITE_CONSTRAINT_FOREIGNKEY = 787;
const SQLITE_CONSTRAINT_UNIQUE = 2067;

/**
 * The session that holds the runs made by hand on the tools page: a trace belongs to a session,
 * and this one is never listed, named by a person, nor resumed (its name is no one's to type).
 */
const HAND_RUNS_ID = 'riverse:hand-runs';
const HAND_RUNS_NAME = 'riverse:hand-runs:7f3c9a';

const DEFAULT_TRACES = 100;

/**
 * The Store in one SQLite file (`riverse.db` in the data folder), the default. Several processes
 * may use the same file at once: WAL lets readers run beside a writer, writes take the lock up
 * front (`BEGIN IMMEDIATE`) and wait up to BUSY_TIMEOUT_MS for each other. The work is synchronous
 * inside (`node:sqlite`), each method a single short transaction done before it returns its
 * promise; the methods are async only to be the Store that PostgreSQL is too (decision 037).
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite';
  /** The database file. */
  readonly file: string;
  readonly #db: DatabaseSync;
  // Prepared once per store, keyed by their SQL: these run on every turn.
  readonly #statements = new Map<string, StatementSync>();
  /** Approvals of calls made in these sessions, in the same file. */
  readonly approvals: ApprovalStore;
  /** Questions tools ask the person, in the same file. */
  readonly questions: QuestionRepository;
  /** The input requests of tasks MCP clients started, in the same file. */
  readonly taskInputs: TaskInputRepository;
  /** Responses of `/v1/responses` kept for `previous_response_id`, in the same file. */
  readonly responses: ResponseStore;
  /** One trace per turn (and per run by hand), written in batches off the turn's path. */
  readonly turnTraces: TraceStore;
  /** Tool calls that run apart from their turn (tasks), in the same file. */
  readonly tasks: TaskStore;
  /** The dashboard's tool switches, in the same file. */
  readonly toolSwitches: ToolSwitchRepository;
  /** MCP OAuth sign-ins, in the same file. */
  readonly oauth: OAuthTokenRepository;
  /** Which replica runs each session's turn (several `riverse serve` on one store), in the same file. */
  readonly runningTurns: RunningTurnRepository;
  /** Events within this process: one machine's processes share no server to carry them (038). */
  readonly events = localEvents();
  /**
   * Session ids by name, for `sessionId` (a SELECT per /v1 turn was a few % of its CPU): an entry
   * goes when this store renames or deletes its session, and all of them when a batch finds a
   * session gone (another process deleted it).
   */
  readonly #ids = new Map<string, string>();
  /** The worker that checkpoints the log, with `checkpointOffThread`. */
  readonly #checkpointer: { stop(): void } | undefined;

  private constructor(db: DatabaseSync, file: string, options: StoreOptions) {
    this.#db = db;
    this.file = file;
    this.#checkpointer = options.checkpointOffThread === true ? startWalCheckpointer(db, file) : undefined;
    this.approvals = new ApprovalStore((sql) => this.#prepare(sql));
    const portable: PortableSql = {
      rows: async (sql, params) => this.#prepare(sql).all(...params),
      run: async (sql, params) => Number(this.#prepare(sql).run(...params).changes),
    };
    this.questions = new QuestionTable(portable);
    this.taskInputs = new TaskInputTable(portable);
    this.responses = new ResponseStore((sql) => this.#prepare(sql));
    this.tasks = new TaskStore((sql) => this.#prepare(sql));
    this.toolSwitches = new SqliteToolSwitches((sql) => this.#prepare(sql));
    this.oauth = new SqliteOAuthTokens((sql) => this.#prepare(sql));
    this.runningTurns = new RunningTurns((sql) => this.#prepare(sql));
    this.turnTraces = new TraceStore({
      prepare: (sql) => this.#prepare(sql),
      transaction: (body) => this.#transaction(body),
      handRunsId: HAND_RUNS_ID,
      onSessionGone: () => this.#ids.clear(),
      retention: { ...DEFAULT_TRACE_RETENTION, ...options.traceRetention },
      ...(options.onTraceError === undefined ? {} : { onError: options.onTraceError }),
      ...(options.traceBatchMs === undefined ? {} : { batchMs: options.traceBatchMs }),
    });
  }

  /** Opens (creating if needed) `riverse.db` in `dataDir`, and brings its schema up to date. */
  static open(dataDir: string, options: StoreOptions = {}): SqliteStore {
    mkdirSync(dataDir, { recursive: true });
    const file = join(dataDir, DATABASE_FILE);
    const { DatabaseSync } = loadSqlite();
    const db = new DatabaseSync(file, { enableForeignKeyConstraints: true });
    try {
      // busy_timeout first: the statements after it may have to wait for another process.
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.exec('PRAGMA journal_mode = WAL');
      // Safe with WAL: a power cut may lose the last commits, never corrupt the file.
      db.exec('PRAGMA synchronous = NORMAL');
      migrate(db);
    } catch (error) {
      db.close();
      throw error;
    }
    return new SqliteStore(db, file, options);
  }

  get where(): string {
    return this.file;
  }

  async close(): Promise<void> {
    this.#close();
  }

  /** `using store = SqliteStore.open(…)`: SQLite closes at once. */
  [Symbol.dispose](): void {
    this.#close();
  }

  #close(): void {
    if (this.#db.isOpen) this.turnTraces.close();
    this.#checkpointer?.stop();
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }

  /** The session called `name`, created if there is none. */
  async session(name: string): Promise<SessionInfo> {
    return this.#session(name);
  }

  #session(name: string): SessionInfo {
    if (typeof name !== 'string' || name.trim() === '')
      throw new TypeError('A session name must be a non-empty string.');
    const found = this.#findSession(name);
    if (found) return found;
    const now = new Date().toISOString();
    // Another process may create the same name between our read and this write: keep theirs.
    this.#run(
      'INSERT INTO sessions (id, name, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING',
      randomUUID(),
      name,
      now,
      now,
    );
    return this.#findSession(name)!;
  }

  /**
   * The id of the session called `name`, created if there is none, remembered for the next call:
   * for turns that need only the id (`Assistant.complete`, whose rows are written in batches that
   * leave out a session deleted meanwhile, and then forget what is remembered).
   */
  async sessionId(name: string): Promise<string> {
    let id = this.#ids.get(name);
    if (id === undefined) {
      id = this.#session(name).id;
      this.#ids.set(name, id);
    }
    return id;
  }

  /** The session called `name`, without creating it. */
  async findSession(name: string): Promise<SessionInfo | undefined> {
    return this.#findSession(name);
  }

  #findSession(name: string): SessionInfo | undefined {
    const row = this.#prepare('SELECT id, name, language, created_at, updated_at FROM sessions WHERE name = ?').get(
      name,
    );
    return row && toSessionInfo(row as unknown as SessionRow);
  }

  /**
   * Every session with its message count (what a person reads: their messages and the replies with
   * text, not the tool calls and results between them), most recently updated first.
   */
  async listSessions(): Promise<SessionSummary[]> {
    const rows = this.#prepare(
      `SELECT id, name, language, created_at, updated_at,
              (SELECT count(*) FROM messages m WHERE m.session_id = s.id
                  AND (m.role = 'user' OR (m.role = 'assistant' AND m.content <> ''))) AS message_count
         FROM sessions s WHERE s.id <> ? ORDER BY updated_at DESC, name`,
    ).all(HAND_RUNS_ID) as unknown as (SessionRow & { message_count: number })[];
    return rows.map((row) => ({ ...toSessionInfo(row), messageCount: row.message_count }));
  }

  /**
   * Renames a session (its messages and traces stay with it). Undefined when there is no session
   * called `from`; a SessionNameTakenError when another one is called `to`.
   */
  async renameSession(from: string, to: string): Promise<SessionInfo | undefined> {
    if (typeof to !== 'string' || to.trim() === '') throw new TypeError('A session name must be a non-empty string.');
    const found = this.#findSession(from);
    if (found === undefined) return undefined;
    if (from === to) return found;
    this.#ids.delete(from);
    this.#ids.delete(to);
    try {
      this.#run('UPDATE sessions SET name = ?, updated_at = ? WHERE id = ?', to, new Date().toISOString(), found.id);
    } catch (error) {
      if ((error as { errcode?: number }).errcode === SQLITE_CONSTRAINT_UNIQUE) throw new SessionNameTakenError(to);
      throw error;
    }
    return this.#findSession(to);
  }

  /** Deletes the session with its messages and traces. Returns whether it existed. */
  async deleteSession(name: string): Promise<boolean> {
    // Messages and traces go with it (ON DELETE CASCADE).
    this.#ids.delete(name);
    return Number(this.#run('DELETE FROM sessions WHERE name = ?', name).changes) > 0;
  }

  /** Sets (or with `undefined` clears) the language the session answers in. */
  async setLanguage(sessionId: string, language: Language | undefined): Promise<void> {
    if (language !== undefined && !isLanguage(language))
      throw new TypeError(`Unknown language ${JSON.stringify(language)}; expected one of ${LANGUAGES.join(', ')}.`);
    const changed = this.#run(
      'UPDATE sessions SET language = ?, updated_at = ? WHERE id = ?',
      language ?? null,
      new Date().toISOString(),
      sessionId,
    );
    if (Number(changed.changes) === 0) throw noSession(sessionId);
  }

  /** Appends messages in order, all or none. `turnId` marks the turn they belong to. */
  async appendMessages(sessionId: string, messages: readonly ChatMessage[], turnId?: string): Promise<void> {
    if (messages.length === 0) return;
    const rows = messages.map(toMessageRow);
    const now = new Date().toISOString();
    this.#transaction(() => {
      const touched = this.#run('UPDATE sessions SET updated_at = ? WHERE id = ?', now, sessionId);
      if (Number(touched.changes) === 0) throw noSession(sessionId);
      const insert = this.#prepare(
        `INSERT INTO messages (session_id, turn_id, role, content, tool_calls, tool_call_id, tool_name, is_error, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const row of rows) insert.run(sessionId, turnId ?? null, ...row, now);
    });
  }

  /** The session's messages in order, exactly as appended. */
  async messages(sessionId: string): Promise<ChatMessage[]> {
    const rows = this.#prepare(
      `SELECT role, ${fullText('content')}, tool_calls, tool_call_id, tool_name, is_error FROM messages WHERE session_id = ? ORDER BY id`,
    ).all(sessionId);
    return (rows as unknown as MessageRow[]).map(toChatMessage);
  }

  async recordToolCall(trace: ToolCallTrace): Promise<void> {
    this.#recordToolCall(trace);
  }

  #recordToolCall(trace: ToolCallTrace): void {
    // What a turn queued is written first: the calls' rows stay in the order they ran.
    this.turnTraces.flushNow();
    try {
      this.#run(
        `INSERT INTO tool_calls (${TOOL_CALL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ...toolCallRow(trace),
      );
    } catch (error) {
      if ((error as { errcode?: number }).errcode === SQLITE_CONSTRAINT_FOREIGNKEY) throw noSession(trace.sessionId);
      throw error;
    }
  }

  /**
   * Records a turn's tool call with the next batch of turn traces (off the turn's path, like
   * them): reads of tool calls in this process write the queue first; another process sees it
   * within the batch's time (250 ms). A failed write is reported (`onTraceError`), never thrown at
   * the turn; a call whose session is gone by then is left out. Throws only when `params` cannot
   * become JSON, as `recordToolCall` does.
   */
  queueToolCall(trace: ToolCallTrace): void {
    this.turnTraces.queueToolCall(toolCallRow(trace));
  }

  /**
   * Records a call a person ran by hand (the tools page, the API's run route, `tools run`): a trace
   * of no session (`byHand` in `traces()`), and a turn trace marked with `via`.
   */
  async recordHandRun(
    trace: Omit<ToolCallTrace, 'sessionId'>,
    via: HandRunVia = 'api',
    /** The result's parts, kept capped on the call's span as a turn's are. */
    content?: readonly ContentPart[],
    parent?: TraceContext,
  ): Promise<TurnTrace> {
    const now = new Date().toISOString();
    this.#run(
      'INSERT INTO sessions (id, name, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      HAND_RUNS_ID,
      HAND_RUNS_NAME,
      now,
      now,
    );
    this.#recordToolCall({ ...trace, sessionId: HAND_RUNS_ID });
    const turn = handRunTrace({ ...trace, sessionId: HAND_RUNS_ID }, via, content, parent);
    this.turnTraces.queue(turn);
    return turn;
  }

  /** The session's tool calls, oldest first; optionally of one turn, optionally only the last `limit`. */
  async toolCalls(sessionId: string, options: ToolCallQuery = {}): Promise<ToolCallTrace[]> {
    const { turnId, limit } = options;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0))
      throw new RangeError(`limit must be a non-negative integer, not ${limit}.`);
    this.turnTraces.flushNow();
    const where = turnId === undefined ? 'session_id = ?' : 'session_id = ? AND turn_id = ?';
    const params: SQLInputValue[] = turnId === undefined ? [sessionId] : [sessionId, turnId];
    // Newest first to apply the limit (-1: none), then back to oldest first.
    const rows = this.#prepare(
      `SELECT * FROM (
         SELECT id, session_id, turn_id, call_id, tool, params, success, ${fullText('data')}, ${fullText('error')}, code, duration_ms, started_at
           FROM tool_calls WHERE ${where} ORDER BY id DESC LIMIT ?
       ) ORDER BY id`,
    ).all(...params, limit ?? -1);
    return (rows as unknown as TraceRow[]).map(toTrace);
  }

  /** Per tool, its calls over a window: counts, failures, p50/p95 run time, in buckets (tool-call-stats.ts). */
  async toolStats(query: ToolStatsQuery = {}): Promise<ToolStats> {
    this.turnTraces.flushNow(); // the turns' tool-call rows wait in its batch
    return toolCallStats((sql) => this.#prepare(sql), query);
  }

  /** The key called `name` that every process sharing this store reads alike, made by the first to ask. */
  async sharedSecret(name: string): Promise<Buffer> {
    return sharedSecret((sql) => this.#prepare(sql), name);
  }

  /** The turn each of the session's messages belongs to, in the order of `messages()` (null: none was given). */
  async messageTurns(sessionId: string): Promise<(string | null)[]> {
    const rows = this.#prepare('SELECT turn_id FROM messages WHERE session_id = ? ORDER BY id').all(sessionId);
    return (rows as unknown as { turn_id: string | null }[]).map((row) => row.turn_id);
  }

  /** Tool calls of every session, newest first, filtered (the values are bound as parameters). */
  async traces(query: TraceQuery = {}): Promise<StoredTrace[]> {
    const limit = query.limit ?? DEFAULT_TRACES;
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_TRACES)
      throw new RangeError(`limit must be a whole number from 0 to ${MAX_TRACES}, not ${limit}.`);
    this.turnTraces.flushNow();
    const where: string[] = [];
    const params: SQLInputValue[] = [];
    const filter = (clause: string, value: SQLInputValue) => {
      where.push(clause);
      params.push(value);
    };
    if (query.tool !== undefined) filter('t.tool = ?', query.tool);
    if (query.outcome !== undefined) filter('t.success = ?', query.outcome === 'success' ? 1 : 0);
    if (query.session !== undefined) filter('s.name = ?', query.session);
    if (query.since !== undefined) filter('t.started_at >= ?', isoTime(query.since, 'since'));
    if (query.until !== undefined) filter('t.started_at < ?', isoTime(query.until, 'until'));
    const rows = this.#prepare(
      `SELECT t.id, s.name AS session, t.session_id, t.turn_id, t.call_id, t.tool, t.params, t.success, ${fullText('t.data', 'data')}, ${fullText('t.error', 'error')}, t.code, t.duration_ms, t.started_at
         FROM tool_calls t JOIN sessions s ON s.id = t.session_id
        ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
        ORDER BY t.id DESC LIMIT ?`,
    ).all(...params, limit);
    return (rows as unknown as (TraceRow & { id: number; session: string })[]).map((row) =>
      row.session_id === HAND_RUNS_ID
        ? { id: row.id, session: '', byHand: true, ...toTrace(row) }
        : { id: row.id, session: row.session, ...toTrace(row) },
    );
  }

  #prepare(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) this.#statements.set(sql, (statement = this.#db.prepare(sql)));
    return statement;
  }

  #run(sql: string, ...params: SQLInputValue[]) {
    return this.#prepare(sql).run(...params);
  }

  #transaction(body: () => void): void {
    // IMMEDIATE: take the write lock now, so another process's write makes us wait (busy_timeout)
    // rather than fail half-way when a read lock cannot be upgraded.
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      body();
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
  }
}

interface SessionRow {
  id: string;
  name: string;
  language: string | null;
  created_at: string;
  updated_at: string;
}

interface MessageRow {
  role: ChatMessage['role'];
  content: string | Uint8Array;
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  is_error: number | null;
}

interface TraceRow {
  session_id: string;
  turn_id: string;
  call_id: string;
  tool: string;
  params: string | null;
  success: number;
  data: string | Uint8Array;
  error: string | Uint8Array | null;
  code: string | null;
  duration_ms: number;
  started_at: string;
}

/** A `tool_calls` row in TOOL_CALL_COLUMNS' order. */
function toolCallRow(trace: ToolCallTrace): SQLInputValue[] {
  return [
    trace.sessionId,
    trace.turnId,
    trace.callId,
    trace.tool,
    trace.params === undefined ? null : jsonText(trace.params),
    trace.success ? 1 : 0,
    trace.data,
    trace.error ?? null,
    trace.code ?? null,
    trace.durationMs,
    trace.startedAt,
  ];
}

function toSessionInfo(row: SessionRow): SessionInfo {
  const info: SessionInfo = { id: row.id, name: row.name, createdAt: row.created_at, updatedAt: row.updated_at };
  if (row.language !== null && isLanguage(row.language)) info.language = row.language;
  return info;
}

/** role, content, tool_calls, tool_call_id, tool_name, is_error; optional fields left out stay NULL so they come back left out. */
function toMessageRow(message: ChatMessage, index: number): SQLInputValue[] {
  const bad = (what: string) => new TypeError(`Message ${index} (${JSON.stringify(message?.role)}): ${what}.`);
  if (typeof message?.content !== 'string') throw bad('content must be a string');
  switch (message.role) {
    case 'user':
      return ['user', message.content, null, null, null, null];
    case 'assistant':
      if (message.toolCalls !== undefined && !Array.isArray(message.toolCalls)) throw bad('toolCalls must be an array');
      return [
        'assistant',
        message.content,
        message.toolCalls === undefined ? null : JSON.stringify(message.toolCalls),
        null,
        null,
        null,
      ];
    case 'tool':
      if (typeof message.toolCallId !== 'string' || typeof message.name !== 'string')
        throw bad('toolCallId and name must be strings');
      return [
        'tool',
        message.content,
        null,
        message.toolCallId,
        message.name,
        message.isError === undefined ? null : message.isError ? 1 : 0,
      ];
    default:
      throw bad('role must be user, assistant or tool');
  }
}

function toChatMessage(row: MessageRow): ChatMessage {
  const content = text(row.content);
  switch (row.role) {
    case 'user':
      return { role: 'user', content };
    case 'assistant':
      return row.tool_calls === null
        ? { role: 'assistant', content }
        : { role: 'assistant', content, toolCalls: JSON.parse(row.tool_calls) as ToolCallRequest[] };
    case 'tool': {
      const message: ChatMessage = {
        role: 'tool',
        toolCallId: row.tool_call_id ?? '',
        name: row.tool_name ?? '',
        content,
      };
      if (row.is_error !== null) message.isError = row.is_error === 1;
      return message;
    }
  }
}

function toTrace(row: TraceRow): ToolCallTrace {
  const trace: ToolCallTrace = {
    sessionId: row.session_id,
    turnId: row.turn_id,
    callId: row.call_id,
    tool: row.tool,
    params: row.params === null ? undefined : JSON.parse(row.params),
    success: row.success === 1,
    data: text(row.data),
    durationMs: row.duration_ms,
    startedAt: row.started_at,
  };
  if (row.error !== null) trace.error = text(row.error);
  if (row.code !== null) trace.code = row.code as ToolErrorCode;
  return trace;
}

/**
 * Selects a TEXT column so that it comes back whole: node:sqlite cuts a string at its first NUL
 * character when reading (it stores it whole), and tool output may contain one. Such values come
 * back as their UTF-8 bytes instead, for `text()` to decode; the others stay plain strings.
 */
function fullText(column: string, as = column): string {
  return `CASE WHEN instr(CAST(${column} AS BLOB), x'00') THEN CAST(${column} AS BLOB) ELSE ${column} END AS ${as}`;
}

/** An ISO 8601 time as stored (`toISOString()`), so that text order is time order. */
function isoTime(value: string, what: string): string {
  const time = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time))
    throw new RangeError(
      `${what} must be an ISO 8601 time such as 2026-01-31T12:00:00Z, not ${JSON.stringify(value)}.`,
    );
  return new Date(time).toISOString();
}

const utf8 = new TextDecoder();

function text(value: string | Uint8Array): string {
  return typeof value === 'string' ? value : utf8.decode(value);
}

function noSession(sessionId: string): Error {
  return new Error(`No session with id ${JSON.stringify(sessionId)}.`);
}
