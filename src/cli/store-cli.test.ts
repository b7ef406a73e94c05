// The riverse command on a PostgreSQL store (RIVERSE_DATABASE_URL), as a person runs it: `ask` keeps
// its turn there and `trace` reads it back from there (nothing in the data folder's SQLite); a
// database that refuses the connection is one `error:` line in the person's language, its URL
// without the password, not a stack.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type PgCluster, startPgCluster } from '../store/postgres/testing/pg-cluster.ts';
import { cliSetup, runRiverse, weatherModel } from './assistant-cli-test-support.ts';
import { show } from './cli-test-support.ts';

describe('riverse with RIVERSE_DATABASE_URL', () => {
  let cluster: PgCluster;
  before(async () => {
    cluster = await startPgCluster();
  });
  after(() => cluster.stop());

  it('ask keeps its turn in PostgreSQL, and trace reads it from there', async (t) => {
    const url = await cluster.createDatabase('cli');
    const setup = await cliSetup(t, weatherModel);
    const env = { ...setup.env, RIVERSE_DATABASE_URL: url };
    const asked = await runRiverse(['ask', '--session', 'kitchen', "What's the weather in Tokyo?"], {
      cwd: setup.project,
      env,
    });
    assert.equal(asked.code, 0, show(asked));
    const traced = await runRiverse(['trace', '--lang', 'en'], { cwd: setup.project, env });
    assert.equal(traced.code, 0, show(traced));
    assert.match(traced.stdout, /weather/);
    assert.ok(!existsSync(join(setup.dataDir, 'riverse.db')), 'nothing kept in the data folder’s SQLite');
  });

  it('a database that refuses the connection: one error line in the person’s language, exit 1', async (t) => {
    const setup = await cliSetup(t, weatherModel);
    const url = cluster.url.replace('riverse@', 'riverse:hunter2@').replace(/\/postgres$/, '/nowhere');
    const result = await runRiverse(['trace', '--lang', 'ja'], {
      cwd: setup.project,
      env: { ...setup.env, RIVERSE_DATABASE_URL: url },
    });
    assert.equal(result.code, 1, show(result));
    assert.match(
      result.stderr,
      /^エラー：.*riverse:\*\*\*@127\.0\.0\.1:\d+\/nowhere の PostgreSQL データベースが接続を拒否しました/m,
    );
    assert.ok(!result.stderr.includes('hunter2'), result.stderr);
    assert.ok(!/\n\s+at /.test(result.stderr), `no stack: ${result.stderr}`);
  });
});
