// Migrations on PostgreSQL: replicas starting together on a fresh database all succeed, and
// each step runs once (the advisory lock makes the second wait and then find every step recorded).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type PgCluster, startPgCluster } from './testing/pg-cluster.ts';
import { createPgPool } from './pg-pool.ts';
import { migratePg, PG_SCHEMA_VERSION } from './pg-schema.ts';

describe('PostgreSQL migrations', () => {
  let cluster: PgCluster;
  before(async () => {
    cluster = await startPgCluster();
  });
  after(() => cluster.stop());

  const migrateOnce = async (url: string) => {
    const pool = createPgPool(url, { max: 1 });
    try {
      const client = await pool.connect();
      try {
        await migratePg(client);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  };

  it('three migrations started at once on a fresh database (replicas starting together): all succeed, each step ran once', async () => {
    const url = await cluster.createDatabase('race');
    const results = await Promise.allSettled([migrateOnce(url), migrateOnce(url), migrateOnce(url)]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'fulfilled', 'fulfilled'],
      JSON.stringify(results),
    );
    const pool = createPgPool(url);
    try {
      const steps = await pool.query<{ step: number }>('SELECT step FROM riverse_schema ORDER BY step');
      assert.deepEqual(
        steps.rows.map((row) => row.step),
        Array.from({ length: PG_SCHEMA_VERSION }, (_, index) => index + 1),
      );
      const tables = await pool.query<{ name: string }>(
        "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
      );
      for (const table of ['sessions', 'messages', 'tool_calls', 'approvals', 'session_approvals', 'responses'])
        assert.ok(
          tables.rows.some((row) => row.name === table),
          table,
        );
      for (const table of ['turn_traces', 'tasks', 'tool_switches', 'oauth_clients', 'oauth_tokens'])
        assert.ok(
          tables.rows.some((row) => row.name === table),
          table,
        );
    } finally {
      await pool.end();
    }
  });

  it('a second start migrates nothing; a database newer than this riverse is refused', async () => {
    const url = await cluster.createDatabase('newer');
    await migrateOnce(url);
    await migrateOnce(url);
    const pool = createPgPool(url);
    try {
      await pool.query('INSERT INTO riverse_schema (step) VALUES ($1)', [PG_SCHEMA_VERSION + 1]);
    } finally {
      await pool.end();
    }
    await assert.rejects(migrateOnce(url), /newer than this riverse understands/);
  });
});
