import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DATABASE_FILE, SqliteStore } from './sqlite-store.ts';

/** Waits (up to 20 s, for a loaded machine) until `done()` holds; whether it did. */
async function eventually(done: () => boolean): Promise<boolean> {
  for (let waited = 0; !done() && waited < 20_000; waited += 50) await sleep(50);
  return done();
}

test('checkpointOffThread: a worker copies the log into the database file, and closes its connection with the store', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'riverse-wal-checkpointer-'));
  const file = join(dir, DATABASE_FILE);
  const store = SqliteStore.open(dir, { checkpointOffThread: true });
  try {
    const { id } = await store.session('long');
    // 3 MB in 24 commits: under SQLite's own checkpoint (1,000 pages, 4 MB), so only the worker moves it into the file.
    const text = 'x'.repeat(128 * 1024);
    for (let commit = 0; commit < 24; commit++) await store.appendMessages(id, [{ role: 'user', content: text }]);
    assert.ok(await eventually(() => statSync(file).size >= 3 * 1024 * 1024), `${statSync(file).size} bytes`);
    assert.equal((await store.messages(id)).length, 24);
  } finally {
    await store.close();
  }
  // The worker's connection, the last one, closes too: SQLite removes the log with it.
  assert.ok(await eventually(() => !existsSync(`${file}-wal`)), 'the -wal file is still there');
  rmSync(dir, { recursive: true, force: true });
});
