import { randomUUID } from 'node:crypto';
import { isLanguage, LANGUAGES, type Language } from '../../core/language.ts';
import type { ChatMessage, ToolCallRequest } from '../../models/chat-message.ts';
import { SessionNameTakenError, type SessionInfo, type SessionSummary } from '../store-records.ts';
import { type PgDatabase, type PgValue, sqlState } from './pg-database.ts';

/**
 * The session that holds the runs made by hand on the tools page (as in the SQLite store): never
 * listed, named by a person, nor resumed.
 */
export const HAND_RUNS_ID = 'riverse:hand-runs';
const HAND_RUNS_NAME = 'riverse:hand-runs:7f3c9a';

interface SessionRow {
  id: string;
  name: string;
  language: string | null;
  created_at: string;
  updated_at: string;
}

interface MessageRow {
  role: ChatMessage['role'];
  content: Buffer;
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  is_error: boolean | null;
}

/** The types of a message row's values (toMessageRow), for the typed VALUES list of appendMessages. */
const MESSAGE_TYPES = ['text', 'bytea', 'text', 'text', 'text', 'boolean'];

/** Sessions and their messages in PostgreSQL; a session's id by name is remembered, as SQLite's store does. */
export class PgSessions {
  readonly #db: PgDatabase;
  readonly #ids = new Map<string, string>();

  constructor(db: PgDatabase) {
    this.#db = db;
  }

  /** Forgets the remembered ids (a batch found a session gone: another replica deleted it). */
  forgetIds(): void {
    this.#ids.clear();
  }

  async session(name: string): Promise<SessionInfo> {
    if (typeof name !== 'string' || name.trim() === '')
      throw new TypeError('A session name must be a non-empty string.');
    const found = await this.findSession(name);
    if (found) return found;
    const now = new Date().toISOString();
    // Another replica may create the same name between our read and this write: keep theirs.
    await this.#db.run(
      'INSERT INTO sessions (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3) ON CONFLICT (name) DO NOTHING',
      [randomUUID(), name, now],
    );
    return (await this.findSession(name))!;
  }

  async sessionId(name: string): Promise<string> {
    let id = this.#ids.get(name);
    if (id === undefined) {
      id = (await this.session(name)).id;
      this.#ids.set(name, id);
    }
    return id;
  }

  async findSession(name: string): Promise<SessionInfo | undefined> {
    const [row] = await this.#db.rows<SessionRow>(
      'SELECT id, name, language, created_at, updated_at FROM sessions WHERE name = $1',
      [name],
    );
    return row && toSessionInfo(row);
  }

  async listSessions(): Promise<SessionSummary[]> {
    const rows = await this.#db.rows<SessionRow & { message_count: number }>(
      `SELECT id, name, language, created_at, updated_at,
              (SELECT count(*)::int FROM messages m WHERE m.session_id = s.id
                  AND (m.role = 'user' OR (m.role = 'assistant' AND octet_length(m.content) > 0))) AS message_count
         FROM sessions s WHERE s.id <> $1 ORDER BY updated_at DESC, name COLLATE "C"`,
      [HAND_RUNS_ID],
    );
    return rows.map((row) => ({ ...toSessionInfo(row), messageCount: row.message_count }));
  }

  async renameSession(from: string, to: string): Promise<SessionInfo | undefined> {
    if (typeof to !== 'string' || to.trim() === '') throw new TypeError('A session name must be a non-empty string.');
    const found = await this.findSession(from);
    if (found === undefined) return undefined;
    if (from === to) return found;
    this.#ids.delete(from);
    this.#ids.delete(to);
    try {
      await this.#db.run('UPDATE sessions SET name = $1, updated_at = $2 WHERE id = $3', [
        to,
        new Date().toISOString(),
        found.id,
      ]);
    } catch (error) {
      if (sqlState(error) === '23505') throw new SessionNameTakenError(to);
      throw error;
    }
    return await this.findSession(to);
  }

  async deleteSession(name: string): Promise<boolean> {
    this.#ids.delete(name);
    return (await this.#db.run('DELETE FROM sessions WHERE name = $1', [name])) > 0;
  }

  async setLanguage(sessionId: string, language: Language | undefined): Promise<void> {
    if (language !== undefined && !isLanguage(language))
      throw new TypeError(`Unknown language ${JSON.stringify(language)}; expected one of ${LANGUAGES.join(', ')}.`);
    const changed = await this.#db.run('UPDATE sessions SET language = $1, updated_at = $2 WHERE id = $3', [
      language ?? null,
      new Date().toISOString(),
      sessionId,
    ]);
    if (changed === 0) throw noSession(sessionId);
  }

  /**
   * All or none, in one statement (one round trip): the session touched, then every message inserted
   * in order from a typed VALUES list sorted by position; no session, no rows.
   */
  async appendMessages(sessionId: string, messages: readonly ChatMessage[], turnId?: string): Promise<void> {
    if (messages.length === 0) return;
    const rows = messages.map(toMessageRow);
    const params: PgValue[] = [new Date().toISOString(), sessionId, turnId ?? null];
    const tuples = rows.map((row, index) => {
      const slots = row.map((value, column) => `$${params.push(value)}::${MESSAGE_TYPES[column]}`);
      return `(${slots.join(', ')}, ${index})`;
    });
    const inserted = await this.#db.run(
      `WITH touched AS (UPDATE sessions SET updated_at = $1 WHERE id = $2 RETURNING id)
       INSERT INTO messages (session_id, turn_id, role, content, tool_calls, tool_call_id, tool_name, is_error, created_at)
       SELECT touched.id, $3, v.role, v.content, v.tool_calls, v.tool_call_id, v.tool_name, v.is_error, $1
         FROM touched, (VALUES ${tuples.join(', ')}) AS v (role, content, tool_calls, tool_call_id, tool_name, is_error, position)
        ORDER BY v.position`,
      params,
    );
    if (inserted === 0) throw noSession(sessionId);
  }

  async messages(sessionId: string): Promise<ChatMessage[]> {
    const rows = await this.#db.rows<MessageRow>(
      'SELECT role, content, tool_calls, tool_call_id, tool_name, is_error FROM messages WHERE session_id = $1 ORDER BY id',
      [sessionId],
    );
    return rows.map(toChatMessage);
  }

  async messageTurns(sessionId: string): Promise<(string | null)[]> {
    const rows = await this.#db.rows<{ turn_id: string | null }>(
      'SELECT turn_id FROM messages WHERE session_id = $1 ORDER BY id',
      [sessionId],
    );
    return rows.map((row) => row.turn_id);
  }

  /** The hand runs' session, made on first use. */
  async ensureHandRuns(): Promise<void> {
    const now = new Date().toISOString();
    await this.#db.run(
      'INSERT INTO sessions (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3) ON CONFLICT DO NOTHING',
      [HAND_RUNS_ID, HAND_RUNS_NAME, now],
    );
  }
}

function toSessionInfo(row: SessionRow): SessionInfo {
  const info: SessionInfo = { id: row.id, name: row.name, createdAt: row.created_at, updatedAt: row.updated_at };
  if (row.language !== null && isLanguage(row.language)) info.language = row.language;
  return info;
}

/** role, content, tool_calls, tool_call_id, tool_name, is_error: optional fields left out stay NULL so they come back left out. */
function toMessageRow(message: ChatMessage, index: number): PgValue[] {
  const bad = (what: string) => new TypeError(`Message ${index} (${JSON.stringify(message?.role)}): ${what}.`);
  if (typeof message?.content !== 'string') throw bad('content must be a string');
  const content = Buffer.from(message.content, 'utf8');
  switch (message.role) {
    case 'user':
      return ['user', content, null, null, null, null];
    case 'assistant':
      if (message.toolCalls !== undefined && !Array.isArray(message.toolCalls)) throw bad('toolCalls must be an array');
      return [
        'assistant',
        content,
        message.toolCalls === undefined ? null : JSON.stringify(message.toolCalls),
        null,
        null,
        null,
      ];
    case 'tool':
      if (typeof message.toolCallId !== 'string' || typeof message.name !== 'string')
        throw bad('toolCallId and name must be strings');
      return ['tool', content, null, message.toolCallId, message.name, message.isError ?? null];
    default:
      throw bad('role must be user, assistant or tool');
  }
}

function toChatMessage(row: MessageRow): ChatMessage {
  const content = row.content.toString('utf8');
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
      if (row.is_error !== null) message.isError = row.is_error;
      return message;
    }
  }
}

export function noSession(sessionId: string): Error {
  return new Error(`No session with id ${JSON.stringify(sessionId)}.`);
}
