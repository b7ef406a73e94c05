import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { jsonText } from '../models/json-text.ts';
import type { ApprovalRecord, ApprovalRun, ApprovalStatus, NewApproval } from './store-records.ts';
import type { ApprovalRepository } from './store.ts';

interface ApprovalRow {
  id: string;
  session_id: string;
  turn_id: string;
  call_id: string;
  tool: string;
  params: string;
  status: ApprovalStatus;
  always: number;
  reason: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  run: ApprovalRun;
}

/**
 * Approvals in the session database (table `approvals`, schema step 3), so that a pending one
 * outlives the process that asked, and an answer is on disk before the call it allows runs.
 * Answering is one conditional UPDATE: of two answers to one approval, only the first counts.
 */
export class ApprovalStore implements ApprovalRepository {
  readonly #prepare: (sql: string) => StatementSync;

  /** `prepare`: the session store's statements, prepared once per SQL text. */
  constructor(prepare: (sql: string) => StatementSync) {
    this.#prepare = prepare;
  }

  async add(record: NewApproval): Promise<void> {
    this.#run(
      `INSERT INTO approvals (id, session_id, turn_id, call_id, tool, params, status, always, created_at, expires_at, run)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, 'not-started')`,
      record.id,
      record.sessionId,
      record.turnId,
      record.callId,
      record.tool,
      jsonText(record.params),
      record.createdAt,
      record.expiresAt,
    );
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const row = this.#prepare('SELECT * FROM approvals WHERE id = ?').get(id) as ApprovalRow | undefined;
    return row === undefined ? undefined : toRecord(row);
  }

  /** Pending approvals, oldest first. */
  async pending(): Promise<ApprovalRecord[]> {
    return (
      this.#prepare(
        "SELECT * FROM approvals WHERE status = 'pending' ORDER BY created_at, rowid",
      ).all() as unknown as ApprovalRow[]
    ).map(toRecord);
  }

  /** Approved calls whose run never began (Riverse stopped first), oldest first. */
  async approvedNotRun(): Promise<ApprovalRecord[]> {
    return (
      this.#prepare(
        "SELECT * FROM approvals WHERE status = 'approved' AND run = 'not-started' ORDER BY created_at, rowid",
      ).all() as unknown as ApprovalRow[]
    ).map(toRecord);
  }

  /** Settles a pending approval; false when it was no longer pending (answered, or timed out, already). */
  async decide(
    id: string,
    status: Exclude<ApprovalStatus, 'pending'>,
    options: { always?: boolean; reason?: string } = {},
  ): Promise<boolean> {
    const changed = this.#run(
      "UPDATE approvals SET status = ?, always = ?, reason = ?, decided_at = ? WHERE id = ? AND status = 'pending'",
      status,
      options.always === true ? 1 : 0,
      options.reason ?? null,
      new Date().toISOString(),
      id,
    );
    return Number(changed.changes) === 1;
  }

  /** Records where the approved call's run is; `started` only from `not-started`, so a call is begun once. */
  async setRun(id: string, run: Exclude<ApprovalRun, 'not-started'>): Promise<boolean> {
    const from = run === 'started' ? 'not-started' : 'started';
    return Number(this.#run('UPDATE approvals SET run = ? WHERE id = ? AND run = ?', run, id, from).changes) === 1;
  }

  /** "Always for this tool in this session". */
  async allowAlways(sessionId: string, tool: string): Promise<void> {
    this.#run(
      'INSERT INTO session_approvals (session_id, tool, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      sessionId,
      tool,
      new Date().toISOString(),
    );
  }

  async alwaysAllowed(sessionId: string, tool: string): Promise<boolean> {
    return (
      this.#prepare('SELECT 1 AS yes FROM session_approvals WHERE session_id = ? AND tool = ?').get(sessionId, tool) !==
      undefined
    );
  }

  #run(sql: string, ...params: SQLInputValue[]) {
    return this.#prepare(sql).run(...params);
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
    always: row.always === 1,
    ...(row.reason === null ? {} : { reason: row.reason }),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    ...(row.decided_at === null ? {} : { decidedAt: row.decided_at }),
    run: row.run,
  };
}

/** What the assistant needs of approvals: a store's, or the memory one when there is no store. */
export type ApprovalRecords = ApprovalRepository;

/** Approvals kept in memory, for an assistant without a store: the same rules, gone with the process. */
export function memoryApprovals(): ApprovalRecords {
  const records = new Map<string, ApprovalRecord>();
  const always = new Set<string>();
  const byAge = (status: ApprovalStatus, run?: ApprovalRun) =>
    [...records.values()]
      .filter((record) => record.status === status && (run === undefined || record.run === run))
      .map((record) => structuredClone(record));
  return {
    add: async (record) =>
      void records.set(record.id, { ...structuredClone(record), status: 'pending', always: false, run: 'not-started' }),
    get: async (id) => (records.has(id) ? structuredClone(records.get(id)!) : undefined),
    pending: async () => byAge('pending'),
    approvedNotRun: async () => byAge('approved', 'not-started'),
    async decide(id, status, options = {}) {
      const record = records.get(id);
      if (record === undefined || record.status !== 'pending') return false;
      Object.assign(
        record,
        { status, always: options.always === true, decidedAt: new Date().toISOString() },
        options.reason === undefined ? {} : { reason: options.reason },
      );
      return true;
    },
    async setRun(id, run) {
      const record = records.get(id);
      if (record === undefined || record.run !== (run === 'started' ? 'not-started' : 'started')) return false;
      record.run = run;
      return true;
    },
    allowAlways: async (sessionId, tool) => void always.add(`${sessionId}\u0000${tool}`),
    alwaysAllowed: async (sessionId, tool) => always.has(`${sessionId}\u0000${tool}`),
  };
}
