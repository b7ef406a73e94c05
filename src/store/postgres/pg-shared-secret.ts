import { randomBytes } from 'node:crypto';
import type { PgDatabase } from './pg-database.ts';

/** The key called `name` every replica reads alike (decision 039): the first INSERT wins, every reader gets its bytes. */
export async function pgSharedSecret(db: PgDatabase, name: string): Promise<Buffer> {
  await db.run('INSERT INTO shared_secrets (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    name,
    randomBytes(32),
  ]);
  const [row] = await db.rows<{ value: Buffer }>('SELECT value FROM shared_secrets WHERE name = $1', [name]);
  return row!.value;
}
