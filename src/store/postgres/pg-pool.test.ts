// The pool's faults at start: a database that is not up yet is waited for with back-off (each retry
// said, in the reader's language), one that stays away fails with its URL minus the password, and
// one that refuses us fails at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StoreError } from '../store-error.ts';
import { type PgCluster, startPgCluster } from './testing/pg-cluster.ts';
import { createPgPool, redactUrl, waitForDatabase } from './pg-pool.ts';

describe('the PostgreSQL pool at start', () => {
  let cluster: PgCluster;
  before(async () => {
    cluster = await startPgCluster();
  });
  after(() => cluster.stop());

  it('a URL is printed without its password', () => {
    assert.equal(
      redactUrl('postgres://ann:s3cret@db.example:5432/riverse'),
      'postgres://ann:***@db.example:5432/riverse',
    );
    assert.equal(redactUrl('postgres://ann@db/riverse'), 'postgres://ann@db/riverse');
    assert.equal(
      redactUrl('postgres://db/riverse?user=ann&password=s3cret'),
      'postgres://db/riverse?user=ann&password=***',
    );
    assert.equal(redactUrl('postgres://ann:p@ss:word@db/x y'), 'postgres://ann:***@db/x y');
  });

  it('waits for a database that comes up, saying each retry in the reader’s language', async () => {
    await cluster.down();
    const said: string[] = [];
    const url = cluster.url.replace('riverse@', 'riverse:hunter2@');
    const pool = createPgPool(url, { connectionTimeoutMs: 1_000 });
    try {
      const waiting = waitForDatabase(pool, url, {
        language: 'ja',
        firstDelayMs: 200,
        deadlineMs: 60_000,
        say: (line) => {
          said.push(line);
          if (said.length === 2) void cluster.up();
        },
      });
      await waiting;
      assert.ok(said.length >= 2, said.join('\n'));
      assert.match(said[0]!, /PostgreSQL データベースに接続できません/);
      assert.match(said[0]!, /riverse:\*\*\*@127\.0\.0\.1/);
      assert.ok(!said.join('\n').includes('hunter2'));
      assert.match(said[1]!, /0\.4 秒後/, 'the second pause is twice the first');
    } finally {
      await pool.end();
      await cluster.up().catch(() => {});
    }
  });

  it('a database that stays away fails after the deadline, naming the URL without its password', async () => {
    const url = 'postgres://ann:hunter2@127.0.0.1:1/riverse';
    const pool = createPgPool(url, { connectionTimeoutMs: 500 });
    const said: string[] = [];
    try {
      const error = await waitForDatabase(pool, url, {
        firstDelayMs: 50,
        deadlineMs: 300,
        say: (line) => said.push(line),
      }).catch((caught: unknown) => caught);
      assert.ok(error instanceof StoreError);
      assert.equal(error.code, 'store-failed');
      assert.match(error.message, /postgres:\/\/ann:\*\*\*@127\.0\.0\.1:1\/riverse was not reachable/);
      assert.match(error.message, /RIVERSE_DATABASE_URL or store\.url/);
      assert.ok(!error.message.includes('hunter2'));
      assert.deepEqual(
        said.map((line) => line.match(/in ([\d.]+) s/)?.[1]),
        ['0.05', '0.1', '0.15'],
        'doubling pauses, the last cut to the deadline',
      );
    } finally {
      await pool.end();
    }
  });

  it('a database that refuses us (no such database) fails at once, without retrying', async () => {
    const url = cluster.url.replace(/\/postgres$/, '/nowhere');
    const pool = createPgPool(url);
    const said: string[] = [];
    try {
      await assert.rejects(
        waitForDatabase(pool, url, { say: (line) => said.push(line) }),
        (error: Error) => error instanceof StoreError && /refused the connection: 3D000/.test(error.message),
      );
      assert.deepEqual(said, []);
    } finally {
      await pool.end();
    }
  });
});
