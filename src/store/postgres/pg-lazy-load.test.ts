// Riverse without PostgreSQL loads no module of its driver: a turn in a child process on the default
// store (SQLite) sees no `pg` module resolved (a module hook sees every resolution); the same turn
// with RIVERSE_DATABASE_URL set runs on PostgreSQL and loads the driver, so the check can fail.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type PgCluster, startPgCluster } from './testing/pg-cluster.ts';

const CHILD = fileURLToPath(new URL('../../assistant/testing/store-load-child.ts', import.meta.url));

interface ChildRun {
  kind: string;
  stopReason: string;
  messages: number;
  loaded: string[];
}

async function runChild(env: Record<string, string>): Promise<ChildRun> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'RIVERSE_DATABASE_URL'));
  const { stdout } = await promisify(execFile)(process.execPath, [CHILD], { env: { ...clean, ...env } });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildRun;
}

describe('the PostgreSQL driver is loaded only for a postgres URL', () => {
  let cluster: PgCluster;
  before(async () => {
    cluster = await startPgCluster();
  });
  after(() => cluster.stop());

  it('a turn on the default store (SQLite) loads no pg module', async () => {
    const run = await runChild({});
    assert.equal(run.kind, 'sqlite');
    assert.equal(run.stopReason, 'answer');
    assert.equal(run.messages, 2);
    assert.deepEqual(run.loaded, []);
  });

  it('the same turn with RIVERSE_DATABASE_URL runs on PostgreSQL and loads the driver (the check sees it)', async () => {
    const url = await cluster.createDatabase('lazy');
    const run = await runChild({ RIVERSE_DATABASE_URL: url });
    assert.equal(run.kind, 'postgres');
    assert.equal(run.stopReason, 'answer');
    assert.equal(run.messages, 2);
    assert.ok(
      run.loaded.some((module) => module.startsWith('pg/')),
      run.loaded.join(', '),
    );
  });
});
