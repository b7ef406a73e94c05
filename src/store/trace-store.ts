import type { SQLInputValue, StatementSync } from 'node:sqlite';
import type { SpanAttribute, TraceSpan, TurnTrace } from './turn-trace.ts';
import {
  MAX_TURN_TRACES,
  type StoredTurnTrace,
  type TraceRetention,
  type TurnTraceQuery,
  type TurnTraceSummary,
} from './store-records.ts';
import type { TurnTraceRepository } from './store.ts';

/** Queued traces are written together this long after the first of them, or at once past BATCH_SIZE. */
const DEFAULT_BATCH_MS = 250;
const BATCH_SIZE = 64;
/** Turn traces and tool-call rows queued at most before a write, together (a few tool calls a turn). */
const BATCH_ROWS = 4 * BATCH_SIZE;
export interface TraceStoreParts {
  prepare(sql: string): StatementSync;
  transaction(body: () => void): void;
  /** The session id runs by hand are kept under (SqliteStore's), never shown as a session name. */
  handRunsId: string;
  retention: TraceRetention;
  /** How long the first queued trace waits for others before the batch is written (default 250 ms). */
  batchMs?: number;
  /** Told when a batch could not be written (the traces in it are dropped); by default a line on stderr. */
  onError?: (error: unknown) => void;
  /** Told when a row was left out because its session is gone (deleted, maybe by another process). */
  onSessionGone?: () => void;
}

/** The columns of a `tool_calls` row, in this order (SqliteStore's `toolCallRow`). */
export const TOOL_CALL_COLUMNS =
  'session_id, turn_id, call_id, tool, params, success, data, error, code, duration_ms, started_at';

/**
 * The turn traces, beside the sessions in the same file. Writes are off the turn's path: `queue`
 * only keeps the trace, and a timer writes everything queued in one transaction (and applies the
 * retention). A failed write is reported and dropped, never thrown at a turn. Reads write what is
 * queued first, so they see every trace queued before them.
 */
export class TraceStore implements TurnTraceRepository {
  readonly #parts: TraceStoreParts;
  /** The rows to insert, made at `queue`: the spans as their JSON text, so that no tree of objects outlives its turn in the young generation. */
  #queued: SQLInputValue[][] = [];
  /**
   * Tool-call rows of turns (`queueToolCall`), written with the same batch: an insert of its own
   * per call was a transaction per call, four B-trees' pages appended to the WAL each time.
   */
  #calls: SQLInputValue[][] = [];
  #timer: NodeJS.Timeout | undefined;
  #immediate: NodeJS.Immediate | undefined;
  /** Traces written since the last sweep of the retention. */
  #unswept = 0;
  /** Batches written (a figure for the tests: many turns, one write). */
  writes = 0;

  constructor(parts: TraceStoreParts) {
    this.#parts = parts;
  }

  /** Keeps `trace` to be written with the next batch. Never throws. */
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
        trace.sessionId,
      ]);
    } catch (error) {
      (this.#parts.onError ?? reportOnStderr)(error);
      return;
    }
    this.#schedule();
  }

  /**
   * Keeps a `tool_calls` row (TOOL_CALL_COLUMNS) to be written with the next batch, before the
   * traces. Reads of tool calls write the queue first (`flush`); a row whose session was deleted
   * meanwhile is left out, as a trace is.
   */
  queueToolCall(row: SQLInputValue[]): void {
    this.#calls.push(row);
    this.#schedule();
  }

  /** Writes soon when the batch is full, else starts the batch's timer if it is not running. */
  #schedule(): void {
    if (this.#queued.length >= BATCH_SIZE || this.#queued.length + this.#calls.length >= BATCH_ROWS) {
      // Full: written once the event loop is free, not inside the `done` of the turn that filled it (whose answer would wait).
      this.#immediate ??= setImmediate(() => this.flushNow());
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.flushNow(), this.#parts.batchMs ?? DEFAULT_BATCH_MS);
      // A process that is done does not wait for it: close() writes what is left.
      this.#timer.unref();
    }
  }

  async flush(): Promise<void> {
    this.flushNow();
  }

  /** Writes what is queued now, in one transaction, then drops what the retention no longer keeps. Never throws. */
  flushNow(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    clearImmediate(this.#immediate);
    this.#immediate = undefined;
    const { prepare, transaction, retention } = this.#parts;
    const calls = this.#calls;
    if (calls.length > 0) {
      this.#calls = [];
      // A transaction of its own: a failure to write the traces does not lose the calls, nor the reverse.
      try {
        transaction(() => {
          const insert = prepare(
            `INSERT INTO tool_calls (${TOOL_CALL_COLUMNS})
             SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM sessions WHERE id = ?)`,
          );
          let gone = false;
          for (const row of calls) gone = insert.run(...row, row[0]!).changes === 0 || gone;
          if (gone) this.#parts.onSessionGone?.();
        });
      } catch (error) {
        (this.#parts.onError ?? ((cause) => reportOnStderr(cause, 'tool calls')))(error);
      }
    }
    const batch = this.#queued;
    if (batch.length === 0) return;
    this.#queued = [];
    try {
      transaction(() => {
        // A trace whose session was deleted meanwhile is left out, not the batch.
        const insert = prepare(
          `INSERT OR REPLACE INTO turn_traces (id, trace_id, session_id, by_hand, started_at, duration_ms, outcome, stop_reason, tools, spans)
           SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM sessions WHERE id = ?)`,
        );
        let gone = false;
        for (const row of batch) gone = insert.run(...row).changes === 0 || gone;
        if (gone) this.#parts.onSessionGone?.();
        // The retention's sweep reads the whole index: once a sixteenth of the cap has come in, not every batch (reads sweep first).
        this.#unswept += batch.length;
        if (this.#unswept >= Math.max(1, retention.maxCount / 16)) this.#sweep();
      });
      this.writes++;
    } catch (error) {
      (this.#parts.onError ?? reportOnStderr)(error);
    }
  }

  /** Drops what the retention no longer keeps: older than maxAgeDays, past maxCount. */
  #sweep(): void {
    const { prepare, retention } = this.#parts;
    this.#unswept = 0;
    const oldest = new Date(Date.now() - retention.maxAgeDays * 86_400_000).toISOString();
    prepare('DELETE FROM turn_traces WHERE started_at < ?').run(oldest);
    prepare(
      'DELETE FROM turn_traces WHERE rowid IN (SELECT rowid FROM turn_traces ORDER BY started_at DESC, rowid DESC LIMIT -1 OFFSET ?)',
    ).run(retention.maxCount);
  }

  /** Writes the queue and sweeps, before a read: a read sees what the retention keeps. Never throws. */
  #settle(): void {
    this.flushNow();
    if (this.#unswept === 0) return;
    try {
      this.#parts.transaction(() => this.#sweep());
    } catch (error) {
      (this.#parts.onError ?? reportOnStderr)(error);
    }
  }

  /** The whole trace of a turn (its id, or the start of it when only one trace's id starts so). */
  async get(id: string): Promise<StoredTurnTrace | undefined> {
    this.#settle();
    const rows = this.#parts
      .prepare(
        `SELECT t.*, s.name AS session FROM turn_traces t JOIN sessions s ON s.id = t.session_id
          WHERE t.id = ? OR (length(?) >= 4 AND substr(t.id, 1, length(?)) = ?) ORDER BY t.id = ? DESC LIMIT 2`,
      )
      .all(id, id, id, id, id) as unknown as TraceRow[];
    const exact = rows.find((row) => row.id === id);
    const row = exact ?? (rows.length === 1 ? rows[0] : undefined);
    return row === undefined ? undefined : { ...this.#summary(row), spans: JSON.parse(row.spans ?? '[]') };
  }

  /** The newest trace: of turns (`byHand` false), of runs by hand (true), or of either. */
  async last(byHand?: boolean): Promise<StoredTurnTrace | undefined> {
    const [newest] = await this.list({ limit: 1, ...(byHand === undefined ? {} : { byHand }) });
    return newest === undefined ? undefined : this.get(newest.id);
  }

  /** Traces newest first, filtered (the values are bound as parameters). */
  async list(query: TurnTraceQuery = {}): Promise<TurnTraceSummary[]> {
    this.#settle();
    const limit = query.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_TURN_TRACES)
      throw new RangeError(`limit must be a whole number from 0 to ${MAX_TURN_TRACES}, not ${limit}.`);
    const where: string[] = [];
    const params: SQLInputValue[] = [];
    const filter = (clause: string, value: SQLInputValue) => {
      where.push(clause);
      params.push(value);
    };
    if (query.turn !== undefined) filter('t.id = ?', query.turn);
    if (query.session !== undefined) filter('s.name = ? AND t.by_hand IS NULL', query.session);
    if (query.tool !== undefined) filter('EXISTS (SELECT 1 FROM json_each(t.tools) WHERE value = ?)', query.tool);
    if (query.outcome !== undefined) filter('t.outcome = ?', query.outcome);
    if (query.since !== undefined) filter('t.started_at >= ?', isoTime(query.since));
    if (query.until !== undefined) filter('t.started_at < ?', isoTime(query.until));
    if (query.byHand !== undefined) where.push(query.byHand ? 't.by_hand IS NOT NULL' : 't.by_hand IS NULL');
    const rows = this.#parts
      .prepare(
        `SELECT t.id, t.trace_id, t.session_id, t.by_hand, t.started_at, t.duration_ms, t.outcome, t.stop_reason, t.tools,
                s.name AS session,
                (SELECT count(*) FROM json_each(t.spans) WHERE json_extract(value, '$.kind') = 'model-request') AS model_requests,
                (SELECT count(*) FROM json_each(t.spans) WHERE json_extract(value, '$.kind') = 'tool-call') AS tool_calls
           FROM turn_traces t JOIN sessions s ON s.id = t.session_id
          ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
          ORDER BY t.started_at DESC, t.rowid DESC LIMIT ?`,
      )
      .all(...params, limit) as unknown as TraceRow[];
    return rows.map((row) => this.#summary(row));
  }

  /**
   * Adds `attributes` to the tool-call span of `callId` in the trace of turn `turnId`: what came
   * after the turn (a task's end). False when there is no such trace or span; never throws.
   */
  async annotateCall(turnId: string, callId: string, attributes: Record<string, SpanAttribute>): Promise<boolean> {
    this.flushNow();
    try {
      const row = this.#parts.prepare('SELECT spans FROM turn_traces WHERE id = ?').get(turnId) as
        | { spans: string }
        | undefined;
      if (row === undefined) return false;
      const spans = JSON.parse(row.spans) as TraceSpan[];
      const span = spans.find((one) => one.kind === 'tool-call' && one.attributes['gen_ai.tool.call.id'] === callId);
      if (span === undefined) return false;
      Object.assign(span.attributes, attributes);
      this.#parts.prepare('UPDATE turn_traces SET spans = ? WHERE id = ?').run(JSON.stringify(spans), turnId);
      return true;
    } catch (error) {
      (this.#parts.onError ?? reportOnStderr)(error);
      return false;
    }
  }

  /** Writes what is left; the store calls it before it closes. */
  close(): void {
    this.flushNow();
  }

  #summary(row: TraceRow): TurnTraceSummary {
    const byHand = row.by_hand === null ? undefined : (row.by_hand as TurnTrace['byHand']);
    const spans = row.spans === undefined ? undefined : (JSON.parse(row.spans) as TurnTrace['spans']);
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
      modelRequests: row.model_requests ?? spans?.filter((span) => span.kind === 'model-request').length ?? 0,
      toolCalls: row.tool_calls ?? spans?.filter((span) => span.kind === 'tool-call').length ?? 0,
    };
  }
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
  model_requests?: number;
  tool_calls?: number;
}

/** A time as stored (`toISOString()`), so that text order is time order. */
function isoTime(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new RangeError(`Not an ISO 8601 time: ${JSON.stringify(value)}.`);
  return new Date(time).toISOString();
}

function reportOnStderr(error: unknown, what = 'turn traces'): void {
  const detail = error instanceof Error ? error.message : String(error);
  console.error(`[riverse] could not save ${what} (they are dropped; the turns are not affected): ${detail}`);
}
