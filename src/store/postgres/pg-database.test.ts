// The pool as the store uses it, with the database cut under it: a transaction whose connection is
// cut between two statements rejects with a StoreError (not an uncaught 'error' that would end the
// service), and the pool serves again once the database is back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StoreError } from '../store-error.ts';
import { PgDatabase } from './pg-database.ts';
import { createPgPool } from './pg-pool.ts';
import { type PgCluster, startPgCluster } from './testing/pg-cluster.ts';

describe('the store’s database calls when the database goes away', () => {
  let cluster: PgCluster;
  let db: PgDatabase;
  before(async () => {
    cluster = await startPgCluster();
    db = new PgDatabase(createPgPool(cluster.url));
  });
  after(async () => {
    await db?.close();
    await cluster?.stop();
  });

  it('a connection cut inside a transaction: a StoreError, and the next call works once it is back', async () => {
    const failed = await db
      .transaction(async (tx) => {
        await tx.run('SELECT 1');
        await cluster.down();
        await tx.run('SELECT 1');
      })
      .catch((error: unknown) => error);
    assert.ok(failed instanceof StoreError, String(failed));
    assert.equal(failed.code, 'store-failed');
    await assert.rejects(db.rows('SELECT 1'), StoreError);
    await cluster.up();
    assert.deepEqual(await db.rows('SELECT 1 AS one'), [{ one: 1 }]);
  });

  it('the store’s own errors pass through a transaction unchanged', async () => {
    const mine = new TypeError('a bad argument');
    await assert.rejects(
      db.transaction(async () => {
        throw mine;
      }),
      (error) => error === mine,
    );
  });

  it('the pool is bounded: ten calls at once on a pool of two use two connections, and all are answered', async () => {
    const pool = createPgPool(cluster.url, { max: 2 });
    const bounded = new PgDatabase(pool);
    try {
      const seen = await Promise.all(
        Array.from({ length: 10 }, () =>
          bounded.rows<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity, pg_sleep(0.02) WHERE application_name = 'riverse'",
          ),
        ),
      );
      assert.equal(seen.length, 10);
      assert.ok(Math.max(...seen.map(([row]) => row!.n)) <= 2 + 1, JSON.stringify(seen)); // + the other test's pool
      assert.equal(pool.totalCount, 2);
    } finally {
      await bounded.close();
    }
  });
});
