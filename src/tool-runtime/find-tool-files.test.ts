import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { findToolFiles, isToolFileName } from './find-tool-files.ts';
import { toolFolder } from './test-support.ts';

describe('isToolFileName', () => {
  test('code files are tool files', () => {
    for (const name of [
      'weather.ts',
      'weather.mts',
      'weather.js',
      'weather.mjs',
      'my_tool.ts',
      'testing.ts',
      'inspect.ts',
    ]) {
      assert.equal(isToolFileName(name), true, name);
    }
  });

  test('helpers, tests, declarations, hidden and other files are not', () => {
    for (const name of [
      '_helper.ts',
      '_helper.js',
      '.hidden.ts',
      'weather.test.ts',
      'weather.spec.ts',
      'weather.test.mjs',
      'weather.spec.js',
      'weather-test.ts',
      'weather.d.ts',
      'weather.d.mts',
      'weather.cjs',
      'weather.cts',
      'weather.tsx',
      'weather.json',
      'README.md',
      'weather.ts.bak',
    ]) {
      assert.equal(isToolFileName(name), false, name);
    }
  });
});

describe('findToolFiles', () => {
  test('lists the tool files directly in the folder, sorted, with absolute paths', async (t) => {
    const dir = await toolFolder(t, {
      'zeta.ts': '',
      'alpha.mjs': '',
      'Beta.js': '',
      '_helper.ts': '',
      'alpha.test.ts': '',
      'sub/inner.ts': '',
      'folder.ts/inside.ts': '',
    });
    await symlink(join(dir, 'zeta.ts'), join(dir, 'linked.ts'));
    assert.deepEqual(
      await findToolFiles(dir),
      ['Beta.js', 'alpha.mjs', 'linked.ts', 'zeta.ts'].map((name) => join(dir, name)),
    );
  });

  test('a missing folder is undefined; an empty one is []', async (t) => {
    const dir = await toolFolder(t, {});
    assert.deepEqual(await findToolFiles(dir), []);
    assert.equal(await findToolFiles(join(dir, 'missing')), undefined);
  });
});
