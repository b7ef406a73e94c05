import {
  MAX_TURN_TRACES,
  type StoredTurnTrace,
  type TraceRetention,
  type TurnTraceQuery,
  type TurnTraceSummary,
} from '../store-records.ts';
import type { TurnTraceRepository } from '../store.ts';
import type { SpanAttribute, TraceSpan, TurnTrace } from '../turn-trace.ts';
import type { PgDatabase, PgQueries, PgValue } from './pg-database.ts';

/** As SQLite's trace store: a batch waits this long for more, or goes at once past its size. */
const DEFAULT_BATCH_MS = 250;
const BATCH_SIZE = 64;
const BATCH_ROWS = 4 * BATCH_SIZE;

/** The columns of a `tool_calls` row, in this order. */
export const TOOL_CALL_COLUMNS =
  'session_id, turn_id, call_id, tool, params, success, data, error, code, duration_ms, started_at';
const TRACE_COLUMNS =
  'id, trace_id, session_id, by_hand, started_at, duration_ms, outcome, stop_reason, tools, spans, model_requests, tool_call_count';
/** Their types, for the parameters of a multi-row INSERT … SELECT (PostgreSQL takes an untyped one as text). */
const TOOL_CALL_TYPES = ['text', 'text', 'text', 'text', 'text', 'boolean', 'bytea', 'bytea', 'text', 'float8', 'text'];
const TRACE_TYPES = ['text', 'text', 'text', 'text', 'text', 'float8', 'text', 'text', 'text', 'text', 'int', 'int'];

export interface PgTurnTraceParts {
  db: PgDatabase;
  handRunsId: string;
  retention: TraceRetention;
  batchMs?: number;
  onError?: (error: unknown) => void;
  /** Told when a row was left out because its session is gone (deleted, maybe by another replica). */
  onSessionGone?: () => void;
}

interface TraceRow {
  id: string;
  trace_id: string;
  session_id: string;
  session: string;
  by_hand: string | null;
  started_at: string;
  duration_ms: number;
  outcome: 'success' | 'failure';
  stop_reason: string;
  tools: string;
  spans?: string;
  model_requests: number;
  tool_call_count: number;
}

/**
 * Turn traces in PostgreSQL, written off the turn's path like SQLite's: `queue` keeps the row, and
 * a timer writes every queued trace and tool-call row in one transaction of two multi-row INSERTs
 * (rows whose session is gone are left out). A failed write is reported and dropped, never thrown
 * at a turn. The span counts a list shows are counted once, when queued.
 */
export class PgTurnTraces implements TurnTraceRepository {
  readonly #parts: PgTurnTraceParts;
  #queued: PgValue[][] = [];
  #calls: PgValue[][] = [];
  #timer: NodeJS.Timeout | undefined;
  #immediate: NodeJS.Immediate | undefined;
  /** The write under way: the next flush waits for it, so that rows keep their order. */
  #writing: Promise<void> = Promise.resolve();
  #unswept = 0;
  /** Batches written (a figure for the tests). */
  writes = 0;

  constructor(parts: PgTurnTraceParts) {
    this.#parts = parts;
  }

  queue(trace: TurnTrace): void {
    try {
      this.#queued.push([
        trace.id,
        trace.traceId,
        trace.sessionId,
        trace.byHand ?? null,
        trace.startedAt,
        trace.durationMs,
        trace.outcome,
        trace.stopReason,
        JSON.stringify(trace.tools),
        JSON.stringify(trace.spans),
        trace.spans.filter((span) => span.kind === 'model-request').length,
        trace.spans.filter((span) => span.kind === 'tool-call').length,
      ]);
    } catch (error) {
      this.#report(error);
      return;
    }
    this.#schedule();
  }

  /** Keeps a `tool_calls` row (TOOL_CALL_COLUMNS) for the next batch, written before the traces. */
  queueToolCall(row: PgValue[]): void {
    this.#calls.push(row);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#queued.length >= BATCH_SIZE || this.#queued.length + this.#calls.length >= BATCH_ROWS) {
      this.#immediate ??= setImmediate(() => void this.flush());
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.flush(), this.#parts.batchMs ?? DEFAULT_BATCH_MS);
      this.#timer.unref();
    }
  }

  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    clearImmediate(this.#immediate);
    this.#immediate = undefined;
    const calls = this.#calls;
    const batch = this.#queued;
    this.#calls = [];
    this.#queued = [];
    const previous = this.#writing;
    const writing = previous.then(() => this.#write(calls, batch));
    this.#writing = writing;
    await writing;
  }

  async #write(calls: PgValue[][], batch: PgValue[][]): Promise<void> {
    if (calls.length === 0 && batch.length === 0) return;
    try {
      await this.#parts.db.transaction(async (tx) => {
        let gone = false;
        if (calls.length > 0)
          gone = (await insertWhereSession(tx, 'tool_calls', TOOL_CALL_COLUMNS, TOOL_CALL_TYPES, calls)) || gone;
        if (batch.length > 0) {
          // A trace queued twice in one batch is written once, as its last (one row may change once a statement).
          const traces = [...new Map(batch.map((row) => [row[0], row])).values()];
          gone =
            (await insertWhereSession(
              tx,
              'turn_traces',
              TRACE_COLUMNS,
              TRACE_TYPES,
              traces,
              `ON CONFLICT (id) DO UPDATE SET trace_id = excluded.trace_id, session_id = excluded.session_id,
                 by_hand = excluded.by_hand, started_at = excluded.started_at, duration_ms = excluded.duration_ms,
                 outcome = excluded.outcome, stop_reason = excluded.stop_reason, tools = excluded.tools,
                 spans = excluded.spans, model_requests = excluded.model_requests, tool_call_count = excluded.tool_call_count`,
            )) || gone;
          this.#unswept += batch.length;
          if (this.#unswept >= Math.max(1, this.#parts.retention.maxCount / 16)) await this.#sweep(tx);
        }
        if (gone) this.#parts.onSessionGone?.();
      });
      if (batch.length > 0) this.writes++;
    } catch (error) {
      this.#report(error, batch.length === 0 ? 'tool calls' : 'turn traces');
    }
  }

  async #sweep(tx: PgQueries): Promise<void> {
    const { retention } = this.#parts;
    this.#unswept = 0;
    const oldest = new Date(Date.now() - retention.maxAgeDays * 86_400_000).toISOString();
    await tx.run('DELETE FROM turn_traces WHERE started_at < $1', [oldest]);
    await tx.run(
      `DELETE FROM turn_traces WHERE seq IN
         (SELECT seq FROM turn_traces ORDER BY started_at DESC, seq DESC OFFSET $1)`,
      [retention.maxCount],
    );
  }

  async #settle(): Promise<void> {
    await this.flush();
    if (this.#unswept === 0) return;
    try {
      await this.#parts.db.transaction((tx) => this.#sweep(tx));
    } catch (error) {
      this.#report(error);
    }
  }

  async get(id: string): Promise<StoredTurnTrace | undefined> {
    await this.#settle();
    const rows = await this.#parts.db.rows<TraceRow>(
      `SELECT t.*, s.name AS session FROM turn_traces t JOIN sessions s ON s.id = t.session_id
        WHERE t.id = $1 OR (length($1) >= 4 AND starts_with(t.id, $1)) ORDER BY t.id = $1 DESC LIMIT 2`,
      [id],
    );
    const exact = rows.find((row) => row.id === id);
    const row = exact ?? (rows.length === 1 ? rows[0] : undefined);
    return row === undefined ? undefined : { ...this.#summary(row), spans: JSON.parse(row.spans ?? '[]') };
  }

  async last(byHand?: boolean): Promise<StoredTurnTrace | undefined> {
    const [newest] = await this.list({ limit: 1, ...(byHand === undefined ? {} : { byHand }) });
    return newest === undefined ? undefined : await this.get(newest.id);
  }

  async list(query: TurnTraceQuery = {}): Promise<TurnTraceSummary[]> {
    const limit = query.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_TURN_TRACES)
      throw new RangeError(`limit must be a whole number from 0 to ${MAX_TURN_TRACES}, not ${limit}.`);
    const since = query.since === undefined ? undefined : isoTime(query.since);
    const until = query.until === undefined ? undefined : isoTime(query.until);
    await this.#settle();
    const where: string[] = [];
    const params: PgValue[] = [];
    const filter = (clause: (slot: string) => string, value: PgValue) => {
      params.push(value);
      where.push(clause(`$${params.length}`));
    };
    if (query.turn !== undefined) filter((slot) => `t.id = ${slot}`, query.turn);
    if (query.session !== undefined) filter((slot) => `s.name = ${slot} AND t.by_hand IS NULL`, query.session);
    // tools is a JSON array of names: JSON holds no NUL, so it casts to jsonb safely.
    if (query.tool !== undefined) filter((slot) => `t.tools::jsonb ? ${slot}`, query.tool);
    if (query.outcome !== undefined) filter((slot) => `t.outcome = ${slot}`, query.outcome);
    if (since !== undefined) filter((slot) => `t.started_at >= ${slot}`, since);
    if (until !== undefined) filter((slot) => `t.started_at < ${slot}`, until);
    if (query.byHand !== undefined) where.push(query.byHand ? 't.by_hand IS NOT NULL' : 't.by_hand IS NULL');
    params.push(limit);
    const rows = await this.#parts.db.rows<TraceRow>(
      `SELECT t.id, t.trace_id, t.session_id, t.by_hand, t.started_at, t.duration_ms, t.outcome, t.stop_reason, t.tools,
              t.model_requests, t.tool_call_count, s.name AS session
         FROM turn_traces t JOIN sessions s ON s.id = t.session_id
        ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
        ORDER BY t.started_at DESC, t.seq DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => this.#summary(row));
  }

  async annotateCall(turnId: string, callId: string, attributes: Record<string, SpanAttribute>): Promise<boolean> {
    await this.flush();
    try {
      return await this.#parts.db.transaction(async (tx) => {
        // FOR UPDATE: two replicas annotating one trace do not lose each other's attributes.
        const [row] = await tx.rows<{ spans: string }>('SELECT spans FROM turn_traces WHERE id = $1 FOR UPDATE', [
          turnId,
        ]);
        if (row === undefined) return false;
        const spans = JSON.parse(row.spans) as TraceSpan[];
        const span = spans.find((one) => one.kind === 'tool-call' && one.attributes['gen_ai.tool.call.id'] === callId);
        if (span === undefined) return false;
        Object.assign(span.attributes, attributes);
        await tx.run('UPDATE turn_traces SET spans = $1 WHERE id = $2', [JSON.stringify(spans), turnId]);
        return true;
      });
    } catch (error) {
      this.#report(error);
      return false;
    }
  }

  /** Writes what is left; the store calls it before it closes. */
  async close(): Promise<void> {
    await this.flush();
  }

  #summary(row: TraceRow): TurnTraceSummary {
    const byHand = row.by_hand === null ? undefined : (row.by_hand as TurnTrace['byHand']);
    return {
      id: row.id,
      traceId: row.trace_id,
      sessionId: row.session_id,
      session: byHand === undefined && row.session_id !== this.#parts.handRunsId ? row.session : '',
      ...(byHand === undefined ? {} : { byHand }),
      startedAt: row.started_at,
      durationMs: row.duration_ms,
      outcome: row.outcome,
      stopReason: row.stop_reason,
      tools: JSON.parse(row.tools) as string[],
      modelRequests: row.model_requests,
      toolCalls: row.tool_call_count,
    };
  }

  #report(error: unknown, what = 'turn traces'): void {
    if (this.#parts.onError !== undefined) {
      this.#parts.onError(error);
      return;
    }
    const detail = error instanceof Error ? error.message : String(error);
    console.error(`[riverse] could not save ${what} (they are dropped; the turns are not affected): ${detail}`);
  }
}

/** One INSERT of many rows, each kept only when its session (column session_id) still exists. Whether any was left out. */
async function insertWhereSession(
  tx: PgQueries,
  table: string,
  columns: string,
  types: readonly string[],
  rows: readonly PgValue[][],
  conflict = '',
): Promise<boolean> {
  const names = columns.split(', ');
  const params: PgValue[] = [];
  const tuples = rows.map((row, index) => {
    const slots = row.map((value, column) => `$${params.push(value)}::${types[column]}`);
    return `(${slots.join(', ')}, ${index})`;
  });
  // Sorted by position: the semi-join may hand the rows on in any order, and ids are insertion order.
  const inserted = await tx.run(
    `INSERT INTO ${table} (${columns})
     SELECT ${names.map((name) => `v.${name}`).join(', ')}
       FROM (VALUES ${tuples.join(', ')}) AS v (${columns}, position)
      WHERE EXISTS (SELECT 1 FROM sessions s WHERE s.id = v.session_id)
      ORDER BY v.position
     ${conflict}`,
    params,
  );
  return inserted < rows.length;
}

/** A time as stored (`toISOString()`), so that text order is time order. */
function isoTime(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new RangeError(`Not an ISO 8601 time: ${JSON.stringify(value)}.`);
  return new Date(time).toISOString();
}
