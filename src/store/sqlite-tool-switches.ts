import type { StatementSync } from 'node:sqlite';
import type { ToolSwitchRepository } from './store.ts';

/** How often `watch` looks at the file's data version: a switch made by another process shows within this. */
const POLL_MS = 500;

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

  /**
   * Processes sharing one file have no server to tell them: `PRAGMA data_version` (no table read)
   * changes when another connection commits anything, and then `changed` is called (a message
   * written elsewhere calls it too; reading a few switches again costs little).
   */
  async watch(changed: () => void, pollMs = POLL_MS): Promise<() => void> {
    let seen = this.#dataVersion();
    const timer = setInterval(() => {
      let now: number | undefined;
      try {
        now = this.#dataVersion();
      } catch {
        return; // closed: the watch is being stopped
      }
      if (now === seen) return;
      seen = now;
      changed();
    }, pollMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  #dataVersion(): number {
    return (this.#prepare('PRAGMA data_version').get() as { data_version: number }).data_version;
  }
}
