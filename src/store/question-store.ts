import type { AskFields, FormValues } from '../tools/ask-form.ts';
import type { NewQuestion, QuestionRecord, QuestionSettlement, QuestionStatus } from './store-records.ts';
import type { QuestionRepository } from './store.ts';
import { jsonOrNull, type PortableSql } from './portable-sql.ts';
import { writesInOrder } from './write-order.ts';

interface QuestionRow {
  id: string;
  session_id: string;
  turn_id: string;
  call_id: string;
  tool: string;
  question: string;
  choices: string | null;
  fields: string | null;
  required: string | null;
  status: QuestionStatus;
  answer: string | null;
  answer_values: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
}

const COLUMNS =
  'id, session_id, turn_id, call_id, tool, question, choices, fields, required, status, answer, answer_values, created_at, expires_at, decided_at';

/**
 * Questions tools ask the person, in table `questions` (SQLite step 10, PostgreSQL step 5: the same
 * columns, so one class serves both). Settling is one conditional UPDATE (`WHERE status =
 * 'pending'`): of two answers from two replicas only the first counts, and an ended question takes none.
 */
export class QuestionTable implements QuestionRepository {
  readonly #sql: PortableSql;
  readonly #inOrder = writesInOrder();

  constructor(sql: PortableSql) {
    this.#sql = sql;
  }

  async add(record: NewQuestion): Promise<void> {
    await this.#sql.run(
      `INSERT INTO questions (id, session_id, turn_id, call_id, tool, question, choices, fields, required, status, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      [
        record.id,
        record.sessionId,
        record.turnId,
        record.callId,
        record.tool,
        record.question,
        jsonOrNull(record.choices),
        jsonOrNull(record.fields),
        jsonOrNull(record.required),
        record.createdAt,
        record.expiresAt,
      ],
    );
  }

  async get(id: string): Promise<QuestionRecord | undefined> {
    const [row] = (await this.#sql.rows(`SELECT ${COLUMNS} FROM questions WHERE id = ?`, [id])) as QuestionRow[];
    return row === undefined ? undefined : toRecord(row);
  }

  async pending(): Promise<QuestionRecord[]> {
    const rows = await this.#sql.rows(
      `SELECT ${COLUMNS} FROM questions WHERE status = 'pending' ORDER BY created_at, id`,
      [],
    );
    return (rows as QuestionRow[]).map(toRecord);
  }

  settle(id: string, settlement: QuestionSettlement): Promise<boolean> {
    const answered = settlement.status === 'answered' ? settlement : undefined;
    return this.#inOrder(
      async () =>
        (await this.#sql.run(
          "UPDATE questions SET status = ?, answer = ?, answer_values = ?, decided_at = ? WHERE id = ? AND status = 'pending'",
          [settlement.status, answered?.answer ?? null, jsonOrNull(answered?.values), new Date().toISOString(), id],
        )) === 1,
    );
  }

  endTurn(sessionId: string, turnId: string): Promise<number> {
    return this.#inOrder(() =>
      this.#sql.run(
        "UPDATE questions SET status = 'ended', decided_at = ? WHERE session_id = ? AND turn_id = ? AND status = 'pending'",
        [new Date().toISOString(), sessionId, turnId],
      ),
    );
  }
}

function toRecord(row: QuestionRow): QuestionRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    callId: row.call_id,
    tool: row.tool,
    question: row.question,
    ...(row.choices === null ? {} : { choices: JSON.parse(row.choices) as string[] }),
    ...(row.fields === null ? {} : { fields: JSON.parse(row.fields) as AskFields }),
    ...(row.required === null ? {} : { required: JSON.parse(row.required) as string[] }),
    status: row.status,
    ...(row.answer === null ? {} : { answer: row.answer }),
    ...(row.answer_values === null ? {} : { values: JSON.parse(row.answer_values) as FormValues }),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    ...(row.decided_at === null ? {} : { decidedAt: row.decided_at }),
  };
}

/** Questions kept in memory, for an assistant without a store: the same rules, gone with the process. */
export function memoryQuestions(): QuestionRepository {
  const records = new Map<string, QuestionRecord>();
  return {
    add: async (record) => void records.set(record.id, { ...structuredClone(record), status: 'pending' }),
    get: async (id) => (records.has(id) ? structuredClone(records.get(id)!) : undefined),
    pending: async () =>
      [...records.values()].filter((record) => record.status === 'pending').map((record) => structuredClone(record)),
    async settle(id, settlement) {
      const record = records.get(id);
      if (record === undefined || record.status !== 'pending') return false;
      Object.assign(record, structuredClone(settlement), { decidedAt: new Date().toISOString() });
      return true;
    },
    async endTurn(sessionId, turnId) {
      let ended = 0;
      for (const record of records.values())
        if (record.sessionId === sessionId && record.turnId === turnId && record.status === 'pending') {
          Object.assign(record, { status: 'ended', decidedAt: new Date().toISOString() });
          ended++;
        }
      return ended;
    },
  };
}
