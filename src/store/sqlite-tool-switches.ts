import type { StatementSync } from 'node:sqlite';
import type { ToolSwitchRepository } from './store.ts';

/** The dashboard's tool switches in the session database (table `tool_switches`, schema step 7). */
export class SqliteToolSwitches implements ToolSwitchRepository {
  readonly #prepare: (sql: string) => StatementSync;

  /** `prepare`: the store's statements, prepared once per SQL text. */
  constructor(prepare: (sql: string) => StatementSync) {
    this.#prepare = prepare;
  }

  async all(): Promise<Map<string, boolean>> {
    const rows = this.#prepare('SELECT name, enabled FROM tool_switches ORDER BY name').all() as unknown as {
      name: string;
      enabled: number;
    }[];
    return new Map(rows.map((row) => [row.name, row.enabled === 1]));
  }

  async set(name: string, enabled: boolean | undefined): Promise<void> {
    if (enabled === undefined) {
      this.#prepare('DELETE FROM tool_switches WHERE name = ?').run(name);
      return;
    }
    this.#prepare(
      `INSERT INTO tool_switches (name, enabled, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`,
    ).run(name, enabled ? 1 : 0, new Date().toISOString());
  }
}
