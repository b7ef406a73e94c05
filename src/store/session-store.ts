import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { ChatMessage, ToolCallRequest } from '../models/chat-message.ts';
import { LANGUAGES, type Language } from '../tools/tool-manifest.ts';
import type { ToolErrorCode } from '../tools/tool-result.ts';
import { loadSqlite } from './load-sqlite.ts';
import { migrate } from './schema.ts';
import type { ToolCallTrace } from './tool-call-trace.ts';
import { jsonText } from '../models/json-text.ts';

export const DATABASE_FILE = 'riverse.db';
/** How long a write waits for another process's write to finish before failing. */
const BUSY_TIMEOUT_MS = 5_000;
const SQLITE_CONSTRAINT_FOREIGNKEY = 787;

export interface SessionInfo {
  id: string;
  /** What users type with `--session NAME`; unique. */
  name: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601: the last time messages were added or the language set. */
  updatedAt: string;
  language?: Language;
}

export interface SessionSummary extends SessionInfo {
  messageCount: number;
}

export interface ToolCallQuery {
  /** Only the calls of this turn. */
  turnId?: string;
  /** Only the last `limit` calls (still returned oldest first). */
  limit?: number;
}

/**
 * Sessions, their messages and tool-call traces in one SQLite file (`riverse.db` in the data
 * folder). Several processes may use the same file at once: WAL lets readers run beside a writer,
 * writes take the lock up front (`BEGIN IMMEDIATE`) and wait up to BUSY_TIMEOUT_MS for each other.
 * Methods are synchronous, like `node:sqlite`; each one is a single short transaction.
 */
export class SessionStore {
  /** The database file. */
  readonly file: string;
  readonly #db: DatabaseSync;
  // Prepared once per store, keyed by their SQL: these run on every turn.
  readonly #statements = new Map<string, StatementSync>();

  private constructor(db: DatabaseSync, file: string) {
    this.#db = db;
    this.file = file;
  }

  /** Opens (creating if needed) `riverse.db` in `dataDir`, and brings its schema up to date. */
  static open(dataDir: string): SessionStore {
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
    return new SessionStore(db, file);
  }

  close(): void {
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  /** The session called `name`, created if there is none. */
  session(name: string): SessionInfo {
    if (typeof name !== 'string' || name.trim() === '') throw new TypeError('A session name must be a non-empty string.');
    const found = this.findSession(name);
    if (found) return found;
    const now = new Date().toISOString();
    // Another process may create the same name between our read and this write: keep theirs.
    this.#run('INSERT INTO sessions (id, name, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING', randomUUID(), name, now, now);
    return this.findSession(name)!;
  }

  /** The session called `name`, without creating it. */
  findSession(name: string): SessionInfo | undefined {
    const row = this.#prepare('SELECT id, name, language, created_at, updated_at FROM sessions WHERE name = ?').get(name);
    return row && toSessionInfo(row as unknown as SessionRow);
  }

  /** Every session with its message count, most recently updated first. */
  listSessions(): SessionSummary[] {
    const rows = this.#prepare(
      `SELECT id, name, language, created_at, updated_at,
              (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS message_count
         FROM sessions s ORDER BY updated_at DESC, name`,
    ).all() as unknown as (SessionRow & { message_count: number })[];
    return rows.map((row) => ({ ...toSessionInfo(row), messageCount: row.message_count }));
  }

  /** Deletes the session with its messages and traces. Returns whether it existed. */
  deleteSession(name: string): boolean {
    // Messages and traces go with it (ON DELETE CASCADE).
    return Number(this.#run('DELETE FROM sessions WHERE name = ?', name).changes) > 0;
  }

  /** Sets (or with `undefined` clears) the language the session answers in. */
  setLanguage(sessionId: string, language: Language | undefined): void {
    if (language !== undefined && !isLanguage(language)) throw new TypeError(`Unknown language ${JSON.stringify(language)}; expected one of ${LANGUAGES.join(', ')}.`);
    const changed = this.#run('UPDATE sessions SET language = ?, updated_at = ? WHERE id = ?', language ?? null, new Date().toISOString(), sessionId);
    if (Number(changed.changes) === 0) throw noSession(sessionId);
  }

  /** Appends messages in order, all or none. `turnId` marks the turn they belong to. */
  appendMessages(sessionId: string, messages: readonly ChatMessage[], turnId?: string): void {
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
  messages(sessionId: string): ChatMessage[] {
    const rows = this.#prepare(`SELECT role, ${fullText('content')}, tool_calls, tool_call_id, tool_name, is_error FROM messages WHERE session_id = ? ORDER BY id`).all(sessionId);
    return (rows as unknown as MessageRow[]).map(toChatMessage);
  }

  recordToolCall(trace: ToolCallTrace): void {
    try {
      this.#run(
        `INSERT INTO tool_calls (session_id, turn_id, call_id, tool, params, success, data, error, code, duration_ms, started_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      );
    } catch (error) {
      if ((error as { errcode?: number }).errcode === SQLITE_CONSTRAINT_FOREIGNKEY) throw noSession(trace.sessionId);
      throw error;
    }
  }

  /** The session's tool calls, oldest first; optionally of one turn, optionally only the last `limit`. */
  toolCalls(sessionId: string, options: ToolCallQuery = {}): ToolCallTrace[] {
    const { turnId, limit } = options;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw new RangeError(`limit must be a non-negative integer, not ${limit}.`);
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
      return ['assistant', message.content, message.toolCalls === undefined ? null : JSON.stringify(message.toolCalls), null, null, null];
    case 'tool':
      if (typeof message.toolCallId !== 'string' || typeof message.name !== 'string') throw bad('toolCallId and name must be strings');
      return ['tool', message.content, null, message.toolCallId, message.name, message.isError === undefined ? null : message.isError ? 1 : 0];
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
      const message: ChatMessage = { role: 'tool', toolCallId: row.tool_call_id ?? '', name: row.tool_name ?? '', content };
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
function fullText(column: string): string {
  return `CASE WHEN instr(CAST(${column} AS BLOB), x'00') THEN CAST(${column} AS BLOB) ELSE ${column} END AS ${column}`;
}

const utf8 = new TextDecoder();

function text(value: string | Uint8Array): string {
  return typeof value === 'string' ? value : utf8.decode(value);
}

function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

function noSession(sessionId: string): Error {
  return new Error(`No session with id ${JSON.stringify(sessionId)}.`);
}
