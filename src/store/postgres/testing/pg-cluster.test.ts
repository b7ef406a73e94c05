// The test cluster itself: it starts, answers, comes back after a restart with its data, and is gone after stop.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { findPgBinaries, type PgCluster, startPgCluster } from './pg-cluster.ts';

describe('the throwaway PostgreSQL cluster', () => {
  let cluster: PgCluster;
  before(async () => {
    cluster = await startPgCluster();
  });
  after(() => cluster.stop());

  const query = async (url: string, sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  };

  it('answers on 127.0.0.1 as the riverse superuser, and keeps its data across a restart', async () => {
    assert.match(cluster.url, /^postgres:\/\/riverse@127\.0\.0\.1:\d+\/postgres$/);
    const url = await cluster.createDatabase('kept');
    await query(url, 'CREATE TABLE t (n int); INSERT INTO t VALUES (7)');
    await cluster.restart();
    assert.deepEqual(await query(url, 'SELECT n FROM t'), [{ n: 7 }]);
  });

  it('refuses connections while down, and accepts them again once up', async () => {
    await cluster.down();
    await assert.rejects(query(cluster.url, 'SELECT 1'), /ECONNREFUSED/);
    await cluster.up();
    assert.deepEqual(await query(cluster.url, 'SELECT 1 AS one'), [{ one: 1 }]);
  });

  it('without PostgreSQL installed, says that .ci/run installs it (a failure, not a skip)', () => {
    assert.throws(
      () => findPgBinaries({ path: '', debian: '/nonexistent/postgresql' }),
      /PostgreSQL is not installed: .*`\.ci\/run` installs it \(apt-get install -y --no-install-recommends postgresql haproxy\)/,
    );
    assert.match(findPgBinaries(), /\/bin$/);
  });
});
