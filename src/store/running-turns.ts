import type { StatementSync } from 'node:sqlite';
import type { RunningTurnRepository } from './store.ts';
import type { RunningTurn } from './store-records.ts';

interface RunningTurnRow {
  session_id: string;
  replica: string;
  started_at: number;
  heartbeat_at: number;
}

/**
 * Which replica runs each session's turn, shared by every replica of the store: one turn per
 * session across all of them (the row is the claim), and a heartbeat by which the others tell a
 * replica that died mid-turn. Each method is one statement: a claim and a take-over are each a
 * single conditional write, so of two replicas only one wins.
 */
export class RunningTurns implements RunningTurnRepository {
  readonly #prepare: (sql: string) => StatementSync;

  constructor(prepare: (sql: string) => StatementSync) {
    this.#prepare = prepare;
  }

  /** Claims `sessionId` for a turn of `replica`; false when a turn of the session is running already. */
  async claim(sessionId: string, replica: string, now = Date.now()): Promise<boolean> {
    const changed = this.#prepare(
      'INSERT INTO running_turns (session_id, replica, started_at, heartbeat_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    ).run(sessionId, replica, now, now);
    return Number(changed.changes) === 1;
  }

  /** The turn has ended: its claim goes (only the replica's own). */
  async release(sessionId: string, replica: string): Promise<void> {
    this.#prepare('DELETE FROM running_turns WHERE session_id = ? AND replica = ?').run(sessionId, replica);
  }

  /** `replica` is alive: every turn it runs gets `now` as its heartbeat. */
  async beat(replica: string, now = Date.now()): Promise<void> {
    this.#prepare('UPDATE running_turns SET heartbeat_at = ? WHERE replica = ?').run(now, replica);
  }

  /** Every turn running, of every replica, oldest first. */
  async list(): Promise<RunningTurn[]> {
    return (this.#prepare('SELECT * FROM running_turns ORDER BY started_at').all() as unknown as RunningTurnRow[]).map(
      toTurn,
    );
  }

  /** The turn running in `sessionId`, if one is. */
  async owner(sessionId: string): Promise<RunningTurn | undefined> {
    const row = this.#prepare('SELECT * FROM running_turns WHERE session_id = ?').get(sessionId) as
      | RunningTurnRow
      | undefined;
    return row === undefined ? undefined : toTurn(row);
  }

  /** The id of the turn that began in `sessionId` at `startedAt`: its last message's since then (none: it stored nothing). */
  async turnOf(turn: RunningTurn): Promise<string | undefined> {
    const row = this.#prepare(
      'SELECT turn_id FROM messages WHERE session_id = ? AND created_at >= ? AND turn_id IS NOT NULL ORDER BY id DESC LIMIT 1',
    ).get(turn.sessionId, new Date(turn.startedAt).toISOString()) as { turn_id: string } | undefined;
    return row?.turn_id;
  }

  /**
   * Takes a dead replica's turn away, if it is still as `seen` (same replica, same heartbeat): of
   * several replicas sweeping at once, one gets true and marks it interrupted.
   */
  async take(seen: RunningTurn): Promise<boolean> {
    const changed = this.#prepare(
      'DELETE FROM running_turns WHERE session_id = ? AND replica = ? AND heartbeat_at = ?',
    ).run(seen.sessionId, seen.replica, seen.heartbeatAt);
    return Number(changed.changes) === 1;
  }
}

function toTurn(row: RunningTurnRow): RunningTurn {
  return { sessionId: row.session_id, replica: row.replica, startedAt: row.started_at, heartbeatAt: row.heartbeat_at };
}
