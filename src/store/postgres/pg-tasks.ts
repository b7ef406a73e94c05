import type { TaskFilter, TaskRecord, TaskStatus } from '../../tasks/task-types.ts';
import type { TaskRetention } from '../store-records.ts';
import type { TaskRepository } from '../store.ts';
import { DEFAULT_TASK_RETENTION } from '../task-store.ts';
import { TASK_COLUMNS, taskValues, toTaskRecord, type TaskRow } from '../task-rows.ts';
import type { PgDatabase, PgValue } from './pg-database.ts';

const MAX_LISTED = 1_000;
const ENDED = "status IN ('completed', 'failed', 'cancelled', 'interrupted')";
const RUNNING = "status IN ('working', 'input_required')";

/**
 * Tasks in PostgreSQL. Every change of a running task is conditional on it still running, so that a
 * cancel written by one replica stands against a late progress write of another, and an
 * interruption ends a task once.
 */
export class PgTasks implements TaskRepository {
  readonly #db: PgDatabase;

  constructor(db: PgDatabase) {
    this.#db = db;
  }

  async put(record: TaskRecord, runner?: string): Promise<void> {
    await this.#db.run(
      `INSERT INTO tasks (${TASK_COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, status_message = excluded.status_message,
         error_code = excluded.error_code, updated_at = excluded.updated_at, progress = excluded.progress,
         logs = excluded.logs, remote = excluded.remote,
         result = excluded.result, delivered_at = excluded.delivered_at, runner = excluded.runner
       WHERE tasks.${RUNNING}`,
      taskValues(record, runner),
    );
  }

  async runnerOf(id: string): Promise<string | undefined> {
    const [row] = await this.#db.rows<{ runner: string | null }>('SELECT runner FROM tasks WHERE id = $1', [id]);
    return row?.runner ?? undefined;
  }

  async get(id: string): Promise<TaskRecord | undefined> {
    const [row] = await this.#db.rows<TaskRow>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = $1`, [id]);
    return row === undefined ? undefined : toTaskRecord(row);
  }

  async list(filter: TaskFilter = {}): Promise<TaskRecord[]> {
    const where: string[] = [];
    const params: PgValue[] = [];
    const statuses = filter.status === undefined ? [] : ([] as TaskStatus[]).concat(filter.status);
    if (statuses.length > 0) {
      where.push(`status IN (${statuses.map((status) => `$${params.push(status)}`).join(', ')})`);
    }
    if (filter.sessionId !== undefined) where.push(`session_id = $${params.push(filter.sessionId)}`);
    if (filter.tool !== undefined) where.push(`tool = $${params.push(filter.tool)}`);
    params.push(Math.min(Math.max(1, filter.limit ?? MAX_LISTED), MAX_LISTED));
    const rows = await this.#db.rows<TaskRow>(
      `SELECT ${TASK_COLUMNS} FROM tasks ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
        ORDER BY created_at DESC, seq DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map(toTaskRecord);
  }

  async undelivered(sessionId: string): Promise<TaskRecord[]> {
    const rows = await this.#db.rows<TaskRow>(
      `SELECT ${TASK_COLUMNS} FROM tasks WHERE session_id = $1 AND delivered_at IS NULL AND ${ENDED} ORDER BY updated_at, seq`,
      [sessionId],
    );
    return rows.map(toTaskRecord);
  }

  async markDelivered(id: string, at: number): Promise<boolean> {
    return (
      (await this.#db.run('UPDATE tasks SET delivered_at = $1 WHERE id = $2 AND delivered_at IS NULL', [at, id])) === 1
    );
  }

  async interruptRunning(
    statusMessage: string,
    at: number,
    stopped: (runner: string | undefined) => boolean,
  ): Promise<TaskRecord[]> {
    const rows = await this.#db.rows<TaskRow>(
      `SELECT ${TASK_COLUMNS} FROM tasks WHERE ${RUNNING} ORDER BY created_at, seq`,
    );
    const ended: TaskRecord[] = [];
    for (const row of rows) {
      if (!stopped(row.runner ?? undefined)) continue;
      const changed = await this.#db.run(
        `UPDATE tasks SET status = 'interrupted', error_code = 'interrupted', status_message = $1, updated_at = $2
          WHERE id = $3 AND ${RUNNING}`,
        [statusMessage, at, row.id],
      );
      if (changed === 1)
        ended.push({
          ...toTaskRecord(row),
          status: 'interrupted',
          errorCode: 'interrupted',
          statusMessage,
          updatedAt: at,
        });
    }
    return ended;
  }

  async statuses(ids: readonly string[]): Promise<Map<string, TaskStatus>> {
    if (ids.length === 0) return new Map();
    const rows = await this.#db.rows<{ id: string; status: TaskStatus }>(
      'SELECT id, status FROM tasks WHERE id = ANY($1::text[])',
      [ids as unknown as PgValue],
    );
    const found = new Map(rows.map((row) => [row.id, row.status]));
    // In the order asked, as the SQLite store answers.
    return new Map(ids.flatMap((id) => (found.has(id) ? [[id, found.get(id)!] as const] : [])));
  }

  async prune(now: number, retention: TaskRetention = DEFAULT_TASK_RETENTION): Promise<number> {
    const expired = await this.#db.run(`DELETE FROM tasks WHERE ${ENDED} AND updated_at + coalesce(ttl_ms, $1) < $2`, [
      retention.ttlMs,
      now,
    ]);
    const over = await this.#db.run(
      `DELETE FROM tasks WHERE ${ENDED} AND id NOT IN
         (SELECT id FROM tasks WHERE ${ENDED} ORDER BY updated_at DESC, seq DESC LIMIT $1)`,
      [retention.maxEnded],
    );
    return expired + over;
  }
}
