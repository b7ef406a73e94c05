import type { SQLInputValue, StatementSync } from 'node:sqlite';
import type { TaskFilter, TaskRecord, TaskStatus } from '../tasks/task-types.ts';
import type { TaskRetention } from './store-records.ts';
import type { TaskRepository } from './store.ts';
import { TASK_COLUMNS, taskValues, toTaskRecord, type TaskRow } from './task-rows.ts';

export const DEFAULT_TASK_RETENTION: TaskRetention = { ttlMs: 7 * 24 * 60 * 60 * 1000, maxEnded: 1_000 };

/** The statuses a task does not leave. */
export const ENDED_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled', 'interrupted'];

/** The most `list` answers. */
const MAX_LISTED = 1_000;

/** What the task runner needs of a place to keep tasks: a store's, or memory (`memoryTasks`). */
export type TaskRecords = TaskRepository;

/**
 * Tasks in the session database (table `tasks`, schema step 6), so that one outlives the turn and
 * the request that started it, and a restart finds the ones that were running. Each method is one
 * short statement, synchronous like the rest of the store.
 */
export class TaskStore implements TaskRepository {
  readonly #prepare: (sql: string) => StatementSync;

  /** `prepare`: the session store's statements, prepared once per SQL text. */
  constructor(prepare: (sql: string) => StatementSync) {
    this.#prepare = prepare;
  }

  async put(record: TaskRecord, runner?: string): Promise<void> {
    this.#run(
      `INSERT INTO tasks (${TASK_COLUMNS})
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, status_message = excluded.status_message,
         error_code = excluded.error_code, updated_at = excluded.updated_at, progress = excluded.progress,
         logs = excluded.logs, remote = excluded.remote,
         result = excluded.result, delivered_at = excluded.delivered_at, runner = excluded.runner
       WHERE tasks.status IN ('working', 'input_required')`,
      ...taskValues(record, runner),
    );
  }

  async get(id: string): Promise<TaskRecord | undefined> {
    const row = this.#prepare('SELECT * FROM tasks WHERE id = ?').get(id) as TaskRow | undefined;
    return row === undefined ? undefined : toTaskRecord(row);
  }

  async list(filter: TaskFilter = {}): Promise<TaskRecord[]> {
    const where: string[] = [];
    const params: SQLInputValue[] = [];
    const statuses = filter.status === undefined ? [] : ([] as TaskStatus[]).concat(filter.status);
    if (statuses.length > 0) {
      where.push(`status IN (${statuses.map(() => '?').join(', ')})`);
      params.push(...statuses);
    }
    if (filter.sessionId !== undefined) {
      where.push('session_id = ?');
      params.push(filter.sessionId);
    }
    if (filter.tool !== undefined) {
      where.push('tool = ?');
      params.push(filter.tool);
    }
    params.push(Math.min(Math.max(1, filter.limit ?? MAX_LISTED), MAX_LISTED));
    const sql = `SELECT * FROM tasks ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
      ORDER BY created_at DESC, rowid DESC LIMIT ?`;
    return (this.#prepare(sql).all(...params) as unknown as TaskRow[]).map(toTaskRecord);
  }

  async undelivered(sessionId: string): Promise<TaskRecord[]> {
    return (
      this.#prepare(
        `SELECT * FROM tasks WHERE session_id = ? AND delivered_at IS NULL
           AND status IN ('completed', 'failed', 'cancelled', 'interrupted') ORDER BY updated_at, rowid`,
      ).all(sessionId) as unknown as TaskRow[]
    ).map(toTaskRecord);
  }

  async markDelivered(id: string, at: number): Promise<boolean> {
    return (
      Number(this.#run('UPDATE tasks SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL', at, id).changes) === 1
    );
  }

  async interruptRunning(
    statusMessage: string,
    at: number,
    stopped: (runner: string | undefined) => boolean,
  ): Promise<TaskRecord[]> {
    const rows = this.#prepare(
      "SELECT * FROM tasks WHERE status IN ('working', 'input_required') ORDER BY created_at, rowid",
    ).all() as unknown as TaskRow[];
    const ended: TaskRecord[] = [];
    for (const row of rows) {
      if (!stopped(row.runner ?? undefined)) continue;
      const changed = this.#run(
        `UPDATE tasks SET status = 'interrupted', error_code = 'interrupted', status_message = ?, updated_at = ?
           WHERE id = ? AND status IN ('working', 'input_required')`,
        statusMessage,
        at,
        row.id,
      );
      if (Number(changed.changes) === 1)
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
    const found = new Map<string, TaskStatus>();
    const statement = this.#prepare('SELECT status FROM tasks WHERE id = ?');
    for (const id of ids) {
      const row = statement.get(id) as { status: TaskStatus } | undefined;
      if (row !== undefined) found.set(id, row.status);
    }
    return found;
  }

  async runnerOf(id: string): Promise<string | undefined> {
    const row = this.#prepare('SELECT runner FROM tasks WHERE id = ?').get(id) as { runner: string | null } | undefined;
    return row?.runner ?? undefined;
  }

  async prune(now: number, retention: TaskRetention = DEFAULT_TASK_RETENTION): Promise<number> {
    const ended = "status IN ('completed', 'failed', 'cancelled', 'interrupted')";
    const expired = this.#run(
      `DELETE FROM tasks WHERE ${ended} AND updated_at + coalesce(ttl_ms, ?) < ?`,
      retention.ttlMs,
      now,
    );
    const over = this.#run(
      `DELETE FROM tasks WHERE ${ended} AND id NOT IN
         (SELECT id FROM tasks WHERE ${ended} ORDER BY updated_at DESC, rowid DESC LIMIT ?)`,
      retention.maxEnded,
    );
    return Number(expired.changes) + Number(over.changes);
  }

  #run(sql: string, ...params: SQLInputValue[]) {
    return this.#prepare(sql).run(...params);
  }
}

/** Tasks kept in memory, for an assistant without a store: the same rules, gone with the process. */
export function memoryTasks(): TaskRecords {
  const records = new Map<string, TaskRecord>();
  const runners = new Map<string, string | undefined>();
  const isEnded = (task: TaskRecord) => ENDED_STATUSES.includes(task.status);
  const all = () => [...records.values()];
  return {
    async put(record, runner) {
      const known = records.get(record.id);
      if (known !== undefined && isEnded(known)) return;
      records.set(record.id, structuredClone(record));
      runners.set(record.id, runner);
    },
    get: async (id) => (records.has(id) ? structuredClone(records.get(id)!) : undefined),
    async list(filter = {}) {
      const statuses = filter.status === undefined ? [] : ([] as TaskStatus[]).concat(filter.status);
      return all()
        .filter(
          (task) =>
            (statuses.length === 0 || statuses.includes(task.status)) &&
            (filter.sessionId === undefined || task.sessionId === filter.sessionId) &&
            (filter.tool === undefined || task.tool === filter.tool),
        )
        .reverse()
        .sort((a, b) => b.createdAt - a.createdAt)
        .slice(0, Math.min(Math.max(1, filter.limit ?? MAX_LISTED), MAX_LISTED))
        .map((task) => structuredClone(task));
    },
    undelivered: async (sessionId) =>
      all()
        .filter((task) => task.sessionId === sessionId && task.deliveredAt === undefined && isEnded(task))
        .sort((a, b) => a.updatedAt - b.updatedAt)
        .map((task) => structuredClone(task)),
    async markDelivered(id, at) {
      const task = records.get(id);
      if (task === undefined || task.deliveredAt !== undefined) return false;
      task.deliveredAt = at;
      return true;
    },
    async interruptRunning(statusMessage, at, stopped) {
      const running = all().filter((task) => !isEnded(task) && stopped(runners.get(task.id)));
      for (const task of running)
        Object.assign(task, { status: 'interrupted', errorCode: 'interrupted', statusMessage, updatedAt: at });
      return running.map((task) => structuredClone(task));
    },
    async prune(now, retention = DEFAULT_TASK_RETENTION) {
      const ended = all()
        .filter(isEnded)
        .sort((a, b) => b.updatedAt - a.updatedAt);
      const gone = ended.filter(
        (task, index) => index >= retention.maxEnded || task.updatedAt + (task.ttlMs ?? retention.ttlMs) < now,
      );
      for (const task of gone) records.delete(task.id);
      return gone.length;
    },
    runnerOf: async (id) => runners.get(id),
    statuses: async (ids) =>
      new Map(ids.flatMap((id) => (records.has(id) ? [[id, records.get(id)!.status] as const] : []))),
  };
}
