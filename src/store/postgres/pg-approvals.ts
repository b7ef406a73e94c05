import { jsonText } from '../../models/json-text.ts';
import type { ApprovalRecord, ApprovalRun, ApprovalStatus, NewApproval } from '../store-records.ts';
import type { ApprovalRepository } from '../store.ts';
import type { PgDatabase } from './pg-database.ts';
import { writesInOrder } from '../write-order.ts';

interface ApprovalRow {
  id: string;
  session_id: string;
  turn_id: string;
  call_id: string;
  tool: string;
  params: string;
  status: ApprovalStatus;
  always: boolean;
  reason: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  run: ApprovalRun;
}

const COLUMNS =
  'id, session_id, turn_id, call_id, tool, params, status, always, reason, created_at, expires_at, decided_at, run';

/**
 * Approvals in PostgreSQL. Answering is one conditional UPDATE (`WHERE status = 'pending'`), which
 * PostgreSQL applies to the row once: of two answers from two replicas only the first counts, and
 * a run is begun once (`WHERE run = 'not-started'`).
 */
export class PgApprovals implements ApprovalRepository {
  readonly #db: PgDatabase;
  /** This replica's answers reach the database in the order they were given (the first answer counts). */
  readonly #inOrder = writesInOrder();

  constructor(db: PgDatabase) {
    this.#db = db;
  }

  async add(record: NewApproval): Promise<void> {
    await this.#db.run(
      `INSERT INTO approvals (id, session_id, turn_id, call_id, tool, params, status, always, created_at, expires_at, run)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', false, $7, $8, 'not-started')`,
      [
        record.id,
        record.sessionId,
        record.turnId,
        record.callId,
        record.tool,
        jsonText(record.params),
        record.createdAt,
        record.expiresAt,
      ],
    );
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const [row] = await this.#db.rows<ApprovalRow>(`SELECT ${COLUMNS} FROM approvals WHERE id = $1`, [id]);
    return row === undefined ? undefined : toRecord(row);
  }

  async pending(): Promise<ApprovalRecord[]> {
    const rows = await this.#db.rows<ApprovalRow>(
      `SELECT ${COLUMNS} FROM approvals WHERE status = 'pending' ORDER BY created_at, seq`,
    );
    return rows.map(toRecord);
  }

  async approvedNotRun(): Promise<ApprovalRecord[]> {
    const rows = await this.#db.rows<ApprovalRow>(
      `SELECT ${COLUMNS} FROM approvals WHERE status = 'approved' AND run = 'not-started' ORDER BY created_at, seq`,
    );
    return rows.map(toRecord);
  }

  decide(
    id: string,
    status: Exclude<ApprovalStatus, 'pending'>,
    options: { always?: boolean; reason?: string } = {},
  ): Promise<boolean> {
    return this.#inOrder(
      async () =>
        (await this.#db.run(
          "UPDATE approvals SET status = $1, always = $2, reason = $3, decided_at = $4 WHERE id = $5 AND status = 'pending'",
          [status, options.always === true, options.reason ?? null, new Date().toISOString(), id],
        )) === 1,
    );
  }

  setRun(id: string, run: Exclude<ApprovalRun, 'not-started'>): Promise<boolean> {
    const from = run === 'started' ? 'not-started' : 'started';
    return this.#inOrder(
      async () =>
        (await this.#db.run('UPDATE approvals SET run = $1 WHERE id = $2 AND run = $3', [run, id, from])) === 1,
    );
  }

  async allowAlways(sessionId: string, tool: string): Promise<void> {
    await this.#db.run(
      'INSERT INTO session_approvals (session_id, tool, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [sessionId, tool, new Date().toISOString()],
    );
  }

  async alwaysAllowed(sessionId: string, tool: string): Promise<boolean> {
    const rows = await this.#db.rows('SELECT 1 FROM session_approvals WHERE session_id = $1 AND tool = $2', [
      sessionId,
      tool,
    ]);
    return rows.length > 0;
  }
}

function toRecord(row: ApprovalRow): ApprovalRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    callId: row.call_id,
    tool: row.tool,
    params: JSON.parse(row.params) as Record<string, unknown>,
    status: row.status,
    always: row.always,
    ...(row.reason === null ? {} : { reason: row.reason }),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    ...(row.decided_at === null ? {} : { decidedAt: row.decided_at }),
    run: row.run,
  };
}
