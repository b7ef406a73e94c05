import type { StatementSync } from 'node:sqlite';
import { jsonText } from '../../models/json-text.ts';
import type { ToolErrorCode } from '../../tools/tool-result.ts';
import { MAX_TRACES, type StoredTrace, type ToolCallQuery, type TraceQuery } from '../store-records.ts';
import { toolCallStats, type ToolStats, type ToolStatsQuery } from '../tool-call-stats.ts';
import type { ToolCallTrace } from '../tool-call-trace.ts';
import { type PgDatabase, type PgValue, sqlState } from './pg-database.ts';
import { noSession } from './pg-sessions.ts';
import { TOOL_CALL_COLUMNS } from './pg-turn-traces.ts';

const DEFAULT_TRACES = 100;
const DEFAULT_WINDOW_MS = 7 * 86_400_000;

interface TraceRow {
  id: number;
  session?: string;
  session_id: string;
  turn_id: string;
  call_id: string;
  tool: string;
  params: string | null;
  success: boolean;
  data: Buffer;
  error: Buffer | null;
  code: string | null;
  duration_ms: number;
  started_at: string;
}

/** The flat rows of tool calls in PostgreSQL: written now (`record`), read per session, across sessions, and as figures. */
export class PgToolCalls {
  readonly #db: PgDatabase;
  readonly #handRunsId: string;

  constructor(db: PgDatabase, handRunsId: string) {
    this.#db = db;
    this.#handRunsId = handRunsId;
  }

  async record(trace: ToolCallTrace): Promise<void> {
    try {
      await this.#db.run(
        `INSERT INTO tool_calls (${TOOL_CALL_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        toolCallRow(trace),
      );
    } catch (error) {
      if (sqlState(error) === '23503') throw noSession(trace.sessionId);
      throw error;
    }
  }

  async ofSession(sessionId: string, options: ToolCallQuery = {}): Promise<ToolCallTrace[]> {
    const { turnId, limit } = options;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0))
      throw new RangeError(`limit must be a non-negative integer, not ${limit}.`);
    const where = turnId === undefined ? 'session_id = $1' : 'session_id = $1 AND turn_id = $3';
    const params: PgValue[] = [sessionId, limit ?? null, ...(turnId === undefined ? [] : [turnId])];
    // Newest first to apply the limit (NULL: none), then back to oldest first.
    const rows = await this.#db.rows<TraceRow>(
      `SELECT * FROM (
         SELECT id, session_id, turn_id, call_id, tool, params, success, data, error, code, duration_ms, started_at
           FROM tool_calls WHERE ${where} ORDER BY id DESC LIMIT $2
       ) AS newest ORDER BY id`,
      params,
    );
    return rows.map(toTrace);
  }

  async traces(query: TraceQuery = {}): Promise<StoredTrace[]> {
    const limit = query.limit ?? DEFAULT_TRACES;
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_TRACES)
      throw new RangeError(`limit must be a whole number from 0 to ${MAX_TRACES}, not ${limit}.`);
    const where: string[] = [];
    const params: PgValue[] = [];
    const filter = (clause: string, value: PgValue) => {
      params.push(value);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (query.tool !== undefined) filter('t.tool = ?', query.tool);
    if (query.outcome !== undefined) filter('t.success = ?', query.outcome === 'success');
    if (query.session !== undefined) filter('s.name = ?', query.session);
    if (query.since !== undefined) filter('t.started_at >= ?', isoTime(query.since, 'since'));
    if (query.until !== undefined) filter('t.started_at < ?', isoTime(query.until, 'until'));
    params.push(limit);
    const rows = await this.#db.rows<TraceRow & { session: string }>(
      `SELECT t.id, s.name AS session, t.session_id, t.turn_id, t.call_id, t.tool, t.params, t.success, t.data, t.error, t.code, t.duration_ms, t.started_at
         FROM tool_calls t JOIN sessions s ON s.id = t.session_id
        ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
        ORDER BY t.id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) =>
      row.session_id === this.#handRunsId
        ? { id: row.id, session: '', byHand: true, ...toTrace(row) }
        : { id: row.id, session: row.session, ...toTrace(row) },
    );
  }

  /** The figures of tool-call-stats.ts, over rows read here (its window, checks and bucketing are the one reading of them). */
  async stats(query: ToolStatsQuery = {}): Promise<ToolStats> {
    const until = query.until === undefined ? Date.now() : Date.parse(query.until);
    const since = query.since === undefined ? until - DEFAULT_WINDOW_MS : Date.parse(query.since);
    const fixed: ToolStatsQuery = {
      ...query,
      until: new Date(until).toISOString(),
      since: new Date(since).toISOString(),
    };
    if (Number.isNaN(until) || Number.isNaN(since)) return toolCallStats(rowsAs([]), query); // throws its RangeError
    toolCallStats(rowsAs([]), fixed); // checks `buckets` before a query is sent
    const rows = await this.#db.rows<{ tool: string; success: boolean; duration_ms: number; started_at: string }>(
      `SELECT tool, success, duration_ms, started_at FROM tool_calls
        WHERE started_at >= $1 AND started_at < $2 ${query.tool === undefined ? '' : 'AND tool = $3'}`,
      [fixed.since!, fixed.until!, ...(query.tool === undefined ? [] : [query.tool])],
    );
    return toolCallStats(rowsAs(rows.map((row) => ({ ...row, success: row.success ? 1 : 0 }))), fixed);
  }
}

/** A statement that answers `rows`: how tool-call-stats.ts, written for SQLite's statements, reads rows already fetched. */
function rowsAs(rows: readonly object[]): (sql: string) => StatementSync {
  return () => ({ all: () => rows }) as unknown as StatementSync;
}

/** A `tool_calls` row in TOOL_CALL_COLUMNS' order. */
export function toolCallRow(trace: ToolCallTrace): PgValue[] {
  return [
    trace.sessionId,
    trace.turnId,
    trace.callId,
    trace.tool,
    trace.params === undefined ? null : jsonText(trace.params),
    trace.success,
    Buffer.from(trace.data, 'utf8'),
    trace.error === undefined ? null : Buffer.from(trace.error, 'utf8'),
    trace.code ?? null,
    trace.durationMs,
    trace.startedAt,
  ];
}

function toTrace(row: TraceRow): ToolCallTrace {
  const trace: ToolCallTrace = {
    sessionId: row.session_id,
    turnId: row.turn_id,
    callId: row.call_id,
    tool: row.tool,
    params: row.params === null ? undefined : JSON.parse(row.params),
    success: row.success,
    data: row.data.toString('utf8'),
    durationMs: row.duration_ms,
    startedAt: row.started_at,
  };
  if (row.error !== null) trace.error = row.error.toString('utf8');
  if (row.code !== null) trace.code = row.code as ToolErrorCode;
  return trace;
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
