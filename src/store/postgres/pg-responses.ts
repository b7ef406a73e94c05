import type { ChatMessage } from '../../models/chat-message.ts';
import type { StoredResponse } from '../store-records.ts';
import type { ResponseRepository } from '../store.ts';
import type { PgDatabase } from './pg-database.ts';

/** As SQLite's: a chain followed back this many responses at most, and until this many characters are read. */
const MAX_CHAIN = 1_000;
const MAX_CHAIN_CHARS = 16 * 1024 * 1024;

interface ResponseRow {
  id: string;
  session_id: string;
  previous_id: string | null;
  messages: string;
  body: string;
  created_at: string;
}

/** Responses of `/v1/responses` in PostgreSQL: any replica continues a chain another one started. */
export class PgResponses implements ResponseRepository {
  readonly #db: PgDatabase;

  constructor(db: PgDatabase) {
    this.#db = db;
  }

  async add(response: StoredResponse): Promise<void> {
    await this.#db.run(
      'INSERT INTO responses (id, session_id, previous_id, messages, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [
        response.id,
        response.sessionId,
        response.previousId ?? null,
        JSON.stringify(response.messages),
        response.body,
        response.createdAt,
      ],
    );
  }

  async get(id: string): Promise<StoredResponse | undefined> {
    const [row] = await this.#db.rows<ResponseRow>(
      'SELECT id, session_id, previous_id, messages, body, created_at FROM responses WHERE id = $1',
      [id],
    );
    return row === undefined ? undefined : toStored(row);
  }

  async conversation(id: string): Promise<ChatMessage[] | undefined> {
    // Newest first, each row with the characters read up to it, so that the cut is the database's.
    const rows = await this.#db.rows<{ messages: string; before: number }>(
      `WITH RECURSIVE chain (id, previous_id, messages, depth) AS (
         SELECT id, previous_id, messages, 0 FROM responses WHERE id = $1
         UNION ALL
         SELECT r.id, r.previous_id, r.messages, c.depth + 1
           FROM responses r JOIN chain c ON r.id = c.previous_id WHERE c.depth + 1 < $2
       )
       SELECT messages, before FROM (
         SELECT messages, depth,
                coalesce(sum(length(messages)) OVER (ORDER BY depth ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::float8 AS before
           FROM chain
       ) AS counted WHERE before < $3 ORDER BY depth`,
      [id, MAX_CHAIN, MAX_CHAIN_CHARS],
    );
    if (rows.length === 0) return undefined;
    return rows.reverse().flatMap((row) => JSON.parse(row.messages) as ChatMessage[]);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.#db.run('DELETE FROM responses WHERE id = $1', [id])) > 0;
  }
}

function toStored(row: ResponseRow): StoredResponse {
  return {
    id: row.id,
    sessionId: row.session_id,
    ...(row.previous_id === null ? {} : { previousId: row.previous_id }),
    messages: JSON.parse(row.messages) as ChatMessage[],
    body: row.body,
    createdAt: row.created_at,
  };
}
