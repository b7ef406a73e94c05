import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chooseStore, DATABASE_URL_ENV, openStore } from './open-store.ts';
import { withoutPassword } from './store-settings.ts';

describe('openStore', () => {
  it('is SQLite in the data folder when nothing names a database', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'riverse-open-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    assert.deepEqual(chooseStore(dir, {}, {}), { kind: 'sqlite', dataDir: dir });
    assert.deepEqual(chooseStore(dir, { store: { url: undefined } }, { [DATABASE_URL_ENV]: ' ' }), {
      kind: 'sqlite',
      dataDir: dir,
    });
    const store = await openStore(dir, {}, { env: {} });
    try {
      assert.equal(store.kind, 'sqlite');
      assert.equal(store.where, join(dir, 'riverse.db'));
    } finally {
      await store.close();
    }
  });

  it('a SQLite file that cannot be opened is a StoreError naming its folder, not a stack', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'riverse-open-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'riverse.db'), 'not a database, just text that is long enough to be read as a header');
    await assert.rejects(openStore(dir, {}, { env: {} }), (error: Error) => {
      assert.equal(error.name, 'StoreError');
      assert.equal((error as { code?: string }).code, 'store-failed');
      assert.ok(error.message.startsWith(`Opening the database in ${dir} failed: `), error.message);
      return true;
    });
  });

  it('takes store.url, and RIVERSE_DATABASE_URL over it', () => {
    const config = { store: { url: 'postgresql://riverse@db.local/riverse' } };
    assert.deepEqual(chooseStore('/data', config, {}), {
      kind: 'postgres',
      url: 'postgresql://riverse@db.local/riverse',
      setting: 'store.url',
    });
    assert.deepEqual(chooseStore('/data', config, { [DATABASE_URL_ENV]: 'postgres://other/riverse' }), {
      kind: 'postgres',
      url: 'postgres://other/riverse',
      setting: DATABASE_URL_ENV,
    });
  });

  it('refuses a URL that is not PostgreSQL, naming the setting and hiding the password', () => {
    assert.throws(
      () => chooseStore('/data', {}, { [DATABASE_URL_ENV]: 'mysql://root:hunter2@db/riverse' }),
      (error: Error) =>
        error.message.includes('the environment variable RIVERSE_DATABASE_URL') &&
        error.message.includes('postgres://') &&
        !error.message.includes('hunter2'),
    );
    assert.throws(() => chooseStore('/data', { store: { url: 'riverse.db' } }, {}), /store\.url in riverse\.yaml/);
  });

  it('shows a URL without its password', () => {
    assert.equal(
      withoutPassword('postgres://riverse:s3cret@db:5432/riverse'),
      'postgres://riverse:***@db:5432/riverse',
    );
    assert.equal(withoutPassword('postgres://db/riverse'), 'postgres://db/riverse');
  });
});
