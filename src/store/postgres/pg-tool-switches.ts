import type { ToolSwitchRepository } from '../store.ts';
import type { PgDatabase } from './pg-database.ts';
import type { PgEvents } from './pg-events.ts';

/** The channel a switch is announced on (its payload is nothing: the listeners read the table). */
const CHANNEL = 'tool-switches';

/** The dashboard's tool switches in PostgreSQL: one setting for every replica, not one riverse.yaml's. */
export class PgToolSwitches implements ToolSwitchRepository {
  readonly #db: PgDatabase;
  readonly #events: PgEvents;

  constructor(db: PgDatabase, events: PgEvents) {
    this.#db = db;
    this.#events = events;
  }

  async all(): Promise<Map<string, boolean>> {
    const rows = await this.#db.rows<{ name: string; enabled: boolean }>(
      'SELECT name, enabled FROM tool_switches ORDER BY name COLLATE "C"',
    );
    return new Map(rows.map((row) => [row.name, row.enabled]));
  }

  async set(name: string, enabled: boolean | undefined): Promise<void> {
    if (enabled === undefined) await this.#db.run('DELETE FROM tool_switches WHERE name = $1', [name]);
    else
      await this.#db.run(
        `INSERT INTO tool_switches (name, enabled, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`,
        [name, enabled, new Date().toISOString()],
      );
    // After the write: a replica that hears it reads the row as it is now.
    await this.#events.publish(CHANNEL, null);
  }

  /**
   * Every replica hears the NOTIFY of `set` (this one too), and reads the switches again when its
   * listening connection was made again (a switch made meanwhile was not heard). `pollMs` is SQLite's.
   */
  async watch(changed: () => void): Promise<() => void> {
    const stopHearing = await this.#events.subscribe(CHANNEL, () => changed());
    const stopRelisten = this.#events.onRelisten(changed);
    return () => {
      stopHearing();
      stopRelisten();
    };
  }
}
