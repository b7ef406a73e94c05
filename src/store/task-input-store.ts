import type { NewTaskInput, TaskInputRecord, TaskInputStatus } from './store-records.ts';
import type { TaskInputRepository } from './store.ts';
import { jsonOrNull, type PortableSql } from './portable-sql.ts';
import { writesInOrder } from './write-order.ts';

interface TaskInputRow {
  task_id: string;
  key: string;
  request: string;
  status: TaskInputStatus;
  response: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
}

const COLUMNS = 'task_id, key, request, status, response, created_at, expires_at, decided_at';

/**
 * The input requests of tasks MCP clients started, in table `task_inputs` (SQLite step 11,
 * PostgreSQL step 6: the same columns, so one class serves both). Not the `questions` table: a
 * question belongs to a session (its foreign key), is shown to the person on every dashboard and is
 * answered in words or a form's values, while an MCP task has no session, its request is MCP's JSON
 * keyed by the task's key, and only its client answers it. Settling is one conditional UPDATE
 * (`WHERE status = 'pending'`): of two responses from two replicas only the first counts.
 */
export class TaskInputTable implements TaskInputRepository {
  readonly #sql: PortableSql;
  readonly #inOrder = writesInOrder();

  constructor(sql: PortableSql) {
    this.#sql = sql;
  }

  async add(record: NewTaskInput): Promise<void> {
    await this.#inOrder(() =>
      this.#sql.run(
        `INSERT INTO task_inputs (task_id, key, request, status, created_at, expires_at) VALUES (?, ?, ?, 'pending', ?, ?)
         ON CONFLICT (task_id, key) DO UPDATE SET request = excluded.request, status = 'pending', response = NULL,
           created_at = excluded.created_at, expires_at = excluded.expires_at, decided_at = NULL`,
        [record.taskId, record.key, jsonOrNull(record.request), record.createdAt, record.expiresAt],
      ),
    );
  }

  async get(taskId: string, key: string): Promise<TaskInputRecord | undefined> {
    const [row] = (await this.#sql.rows(`SELECT ${COLUMNS} FROM task_inputs WHERE task_id = ? AND key = ?`, [
      taskId,
      key,
    ])) as TaskInputRow[];
    return row === undefined ? undefined : toRecord(row);
  }

  async pending(taskId: string): Promise<TaskInputRecord[]> {
    const rows = await this.#sql.rows(
      `SELECT ${COLUMNS} FROM task_inputs WHERE task_id = ? AND status = 'pending' ORDER BY created_at, key`,
      [taskId],
    );
    return (rows as TaskInputRow[]).map(toRecord);
  }

  answer(taskId: string, key: string, response: Record<string, unknown>): Promise<boolean> {
    return this.#settle(taskId, key, 'answered', jsonOrNull(response));
  }

  end(taskId: string, key: string): Promise<boolean> {
    return this.#settle(taskId, key, 'ended', null);
  }

  endTask(taskId: string): Promise<number> {
    return this.#inOrder(() =>
      this.#sql.run(
        "UPDATE task_inputs SET status = 'ended', decided_at = ? WHERE task_id = ? AND status = 'pending'",
        [new Date().toISOString(), taskId],
      ),
    );
  }

  #settle(taskId: string, key: string, status: TaskInputStatus, response: string | null): Promise<boolean> {
    return this.#inOrder(
      async () =>
        (await this.#sql.run(
          "UPDATE task_inputs SET status = ?, response = ?, decided_at = ? WHERE task_id = ? AND key = ? AND status = 'pending'",
          [status, response, new Date().toISOString(), taskId, key],
        )) === 1,
    );
  }
}

function toRecord(row: TaskInputRow): TaskInputRecord {
  return {
    taskId: row.task_id,
    key: row.key,
    request: JSON.parse(row.request) as Record<string, unknown>,
    status: row.status,
    ...(row.response === null ? {} : { response: JSON.parse(row.response) as Record<string, unknown> }),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    ...(row.decided_at === null ? {} : { decidedAt: row.decided_at }),
  };
}

/** A task's input requests kept in memory, for a runner without a store: the same rules, gone with the process. */
export function memoryTaskInputs(): TaskInputRepository {
  const records = new Map<string, TaskInputRecord>();
  const id = (taskId: string, key: string) => JSON.stringify([taskId, key]);
  const settle = (taskId: string, key: string, change: Partial<TaskInputRecord>) => {
    const record = records.get(id(taskId, key));
    if (record === undefined || record.status !== 'pending') return false;
    Object.assign(record, structuredClone(change), { decidedAt: new Date().toISOString() });
    return true;
  };
  return {
    add: async (record) =>
      void records.set(id(record.taskId, record.key), { ...structuredClone(record), status: 'pending' }),
    get: async (taskId, key) => structuredClone(records.get(id(taskId, key))),
    pending: async (taskId) =>
      [...records.values()]
        .filter((record) => record.taskId === taskId && record.status === 'pending')
        .map((record) => structuredClone(record)),
    answer: async (taskId, key, response) => settle(taskId, key, { status: 'answered', response }),
    end: async (taskId, key) => settle(taskId, key, { status: 'ended' }),
    // Its rows go with it (the store's go when its task is pruned): memory does not grow with every task.
    async endTask(taskId) {
      let ended = 0;
      for (const [at, record] of records)
        if (record.taskId === taskId) {
          if (record.status === 'pending') ended++;
          records.delete(at);
        }
      return ended;
    },
  };
}
