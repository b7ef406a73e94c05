import type { StatementSync } from 'node:sqlite';
import type { ChatMessage } from '../models/chat-message.ts';
import type { StoredResponse } from './store-records.ts';
import type { ResponseRepository } from './store.ts';

/**
 * How many responses a `previous_response_id` chain is followed back at most: far more than any
 * conversation that fits the history budget, which trims the rest anyway.
 */
const MAX_CHAIN = 1_000;
/** Characters of a chain read at most (as stored, JSON): a few times the largest history budget a model takes. */
const MAX_CHAIN_CHARS = 16 * 1024 * 1024;

interface ResponseRow {
  id: string;
  session_id: string;
  previous_id: string | null;
  messages: string;
  body: string;
  created_at: string;
}

/**
 * Responses in the session database (table `responses`, schema step 4). Each keeps only what it
 * added, so a long chain costs its messages once; it is kept like a session's messages — until
 * it is deleted, or its session is (ON DELETE CASCADE) — and the history budget trims a chain as
 * it trims a session.
 */
export class ResponseStore implements ResponseRepository {
  readonly #prepare: (sql: string) => StatementSync;

  /** `prepare`: the session store's statements, prepared once per SQL text. */
  constructor(prepare: (sql: string) => StatementSync) {
    this.#prepare = prepare;
  }

  async add(response: StoredResponse): Promise<void> {
    this.#prepare(
      'INSERT INTO responses (id, session_id, previous_id, messages, body, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(
      response.id,
      response.sessionId,
      response.previousId ?? null,
      JSON.stringify(response.messages),
      response.body,
      response.createdAt,
    );
  }

  async get(id: string): Promise<StoredResponse | undefined> {
    const row = this.#prepare(
      'SELECT id, session_id, previous_id, messages, body, created_at FROM responses WHERE id = ?',
    ).get(id) as unknown as ResponseRow | undefined;
    return row === undefined ? undefined : toStored(row);
  }

  /**
   * The conversation up to and including response `id`, oldest first: the messages of every
   * response of its chain, followed back at most MAX_CHAIN responses and until MAX_CHAIN_CHARS
   * characters are read (the history budget trims what is kept to far less). Undefined when `id`
   * is not kept. A response deleted in the middle of a chain ends it there.
   */
  async conversation(id: string): Promise<ChatMessage[] | undefined> {
    // ORDER BY in the recursive part makes the queue give the newest first, so reading stops early.
    const rows = this.#prepare(
      `WITH RECURSIVE chain (id, previous_id, messages, depth) AS (
         SELECT id, previous_id, messages, 0 FROM responses WHERE id = ?
         UNION ALL
         SELECT r.id, r.previous_id, r.messages, c.depth + 1
           FROM responses r JOIN chain c ON r.id = c.previous_id WHERE c.depth + 1 < ?
         ORDER BY 4
       )
       SELECT messages FROM chain`,
    ).iterate(id, MAX_CHAIN) as Iterator<{ messages: string }>;
    const kept: string[] = [];
    let chars = 0;
    for (let row = rows.next(); !row.done; row = rows.next()) {
      kept.push(row.value.messages);
      chars += row.value.messages.length;
      if (chars >= MAX_CHAIN_CHARS) {
        rows.return?.();
        break;
      }
    }
    if (kept.length === 0) return undefined;
    return kept.reverse().flatMap((messages) => JSON.parse(messages) as ChatMessage[]);
  }

  /** Deletes one response (the ones that continued it keep their own messages). Returns whether it existed. */
  async delete(id: string): Promise<boolean> {
    return Number(this.#prepare('DELETE FROM responses WHERE id = ?').run(id).changes) > 0;
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
