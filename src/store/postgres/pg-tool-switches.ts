import type { ToolSwitchRepository } from '../store.ts';
import type { PgDatabase } from './pg-database.ts';

/** The dashboard's tool switches in PostgreSQL: one setting for every replica, not one riverse.yaml's. */
export class PgToolSwitches implements ToolSwitchRepository {
  readonly #db: PgDatabase;

  constructor(db: PgDatabase) {
    this.#db = db;
  }

  async all(): Promise<Map<string, boolean>> {
    const rows = await this.#db.rows<{ name: string; enabled: boolean }>(
      'SELECT name, enabled FROM tool_switches ORDER BY name COLLATE "C"',
    );
    return new Map(rows.map((row) => [row.name, row.enabled]));
  }

  async set(name: string, enabled: boolean | undefined): Promise<void> {
    if (enabled === undefined) {
      await this.#db.run('DELETE FROM tool_switches WHERE name = $1', [name]);
      return;
    }
    await this.#db.run(
      `INSERT INTO tool_switches (name, enabled, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`,
      [name, enabled, new Date().toISOString()],
    );
  }
}
