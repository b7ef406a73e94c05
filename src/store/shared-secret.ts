import { randomBytes } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';

/**
 * A random key made once per store and read by every process that shares it (table
 * `shared_secrets`, schema step 8): what one replica signs (an MCP call's state between its input
 * rounds), another can check. The first process to ask makes it; the others read the same bytes.
 */
export function sharedSecret(prepare: (sql: string) => StatementSync, name: string): Buffer {
  prepare('INSERT INTO shared_secrets (name, value) VALUES (?, ?) ON CONFLICT DO NOTHING').run(name, randomBytes(32));
  const row = prepare('SELECT value FROM shared_secrets WHERE name = ?').get(name) as { value: Uint8Array };
  return Buffer.from(row.value);
}
