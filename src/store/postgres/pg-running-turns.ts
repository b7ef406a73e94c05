import type { RunningTurnRepository } from '../store.ts';
import type { RunningTurn } from '../store-records.ts';
import type { PgDatabase } from './pg-database.ts';

interface RunningTurnRow {
  session_id: string;
  replica: string;
  started_at: string | number;
  heartbeat_at: string | number;
}

/**
 * Which replica runs each session's turn, in PostgreSQL (decision 039): the claim is one INSERT
 * that does nothing on a claimed session, the take-over one DELETE of the row as it was seen, so of
 * two replicas racing, PostgreSQL lets exactly one win.
 */
export class PgRunningTurns implements RunningTurnRepository {
  readonly #db: PgDatabase;

  constructor(db: PgDatabase) {
    this.#db = db;
  }

  async claim(sessionId: string, replica: string, now = Date.now()): Promise<boolean> {
    return (
      (await this.#db.run(
        'INSERT INTO running_turns (session_id, replica, started_at, heartbeat_at) VALUES ($1, $2, $3, $3) ON CONFLICT DO NOTHING',
        [sessionId, replica, now],
      )) === 1
    );
  }

  async release(sessionId: string, replica: string): Promise<void> {
    await this.#db.run('DELETE FROM running_turns WHERE session_id = $1 AND replica = $2', [sessionId, replica]);
  }

  async beat(replica: string, now = Date.now()): Promise<void> {
    await this.#db.run('UPDATE running_turns SET heartbeat_at = $1 WHERE replica = $2', [now, replica]);
  }

  async list(): Promise<RunningTurn[]> {
    return (await this.#db.rows<RunningTurnRow>('SELECT * FROM running_turns ORDER BY started_at')).map(toTurn);
  }

  async owner(sessionId: string): Promise<RunningTurn | undefined> {
    const [row] = await this.#db.rows<RunningTurnRow>('SELECT * FROM running_turns WHERE session_id = $1', [sessionId]);
    return row === undefined ? undefined : toTurn(row);
  }

  async turnOf(turn: RunningTurn): Promise<string | undefined> {
    const [row] = await this.#db.rows<{ turn_id: string }>(
      'SELECT turn_id FROM messages WHERE session_id = $1 AND created_at >= $2 AND turn_id IS NOT NULL ORDER BY id DESC LIMIT 1',
      [turn.sessionId, new Date(turn.startedAt).toISOString()],
    );
    return row?.turn_id;
  }

  async take(seen: RunningTurn): Promise<boolean> {
    return (
      (await this.#db.run('DELETE FROM running_turns WHERE session_id = $1 AND replica = $2 AND heartbeat_at = $3', [
        seen.sessionId,
        seen.replica,
        seen.heartbeatAt,
      ])) === 1
    );
  }
}

/** BIGINT comes back as text from the driver: epoch milliseconds fit a number exactly. */
function toTurn(row: RunningTurnRow): RunningTurn {
  return {
    sessionId: row.session_id,
    replica: row.replica,
    startedAt: Number(row.started_at),
    heartbeatAt: Number(row.heartbeat_at),
  };
}
