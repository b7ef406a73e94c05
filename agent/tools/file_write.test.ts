// file_write: off until turned on, then confined like the readers, and never through a link.
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from 'riverse';

const TOOL_FOLDER = fileURLToPath(new URL('.', import.meta.url));

describe('file_write', () => {
  const top = realpathSync(mkdtempSync(join(tmpdir(), 'riverse-file-write-')));
  const root = join(top, 'workspace');
  let registry: ToolRegistry;
  before(async () => {
    mkdirSync(join(root, 'notes'), { recursive: true });
    mkdirSync(join(top, 'outside'));
    writeFileSync(join(top, 'outside', 'secret.txt'), 'SECRET');
    symlinkSync(join(top, 'outside', 'secret.txt'), join(root, 'link.txt'));
    symlinkSync(join(top, 'outside'), join(root, 'linkdir'));
    registry = await ToolRegistry.load({
      folders: [TOOL_FOLDER],
      baseDir: root,
      config: { tools: { file_write: { enabled: true, max_bytes: 100 } } },
    });
  });
  after(() => rmSync(top, { recursive: true, force: true }));

  test('off by default, saying how to turn it on; a call does not write', async () => {
    const fresh = await ToolRegistry.load({ folders: [TOOL_FOLDER], baseDir: root, config: {} });
    const listing = fresh.list().find((tool) => tool.name === 'file_write');
    assert.equal(listing?.available, false);
    // The switch beside the note is named first; the config line is the other way.
    assert.match(listing?.reason ?? '', /its switch on the dashboard, or set tools\.file_write\.enabled: true/);
    const result = await fresh.execute('file_write', { path: 'off.txt', content: 'x' });
    assert.equal(result.code, 'unavailable');
    assert.equal(existsSync(join(root, 'off.txt')), false);
  });

  test('creates, refuses to clobber in create mode, overwrites and appends', async () => {
    assert.match(
      (await registry.execute('file_write', { path: 'notes/list.md', content: 'milk\n' })).data,
      /^Created .*list\.md \(5 bytes written\)/,
    );
    assert.match(
      (await registry.execute('file_write', { path: 'notes/list.md', content: 'eggs\n' })).error ?? '',
      /already exists/,
    );
    await registry.execute('file_write', { path: 'notes/list.md', content: 'tea\n', mode: 'append' });
    assert.equal(readFileSync(join(root, 'notes', 'list.md'), 'utf8'), 'milk\ntea\n');
    await registry.execute('file_write', { path: 'notes/list.md', content: 'new', mode: 'overwrite' });
    assert.equal(readFileSync(join(root, 'notes', 'list.md'), 'utf8'), 'new');
  });

  test('outside the roots, through a link to a file or a folder: refused, the outside untouched', async () => {
    for (const path of [
      '../outside/secret.txt',
      '../outside/new.txt',
      'link.txt',
      'linkdir/secret.txt',
      'linkdir/new.txt',
      join(top, 'outside', 'new.txt'),
    ]) {
      const result = await registry.execute('file_write', { path, content: 'PWNED', mode: 'overwrite' });
      assert.equal(result.success, false, path);
    }
    assert.equal(readFileSync(join(top, 'outside', 'secret.txt'), 'utf8'), 'SECRET');
    assert.equal(existsSync(join(top, 'outside', 'new.txt')), false);
  });

  test('too much content, or a folder that does not exist: a clear failure', async () => {
    assert.match(
      (await registry.execute('file_write', { path: 'big.txt', content: 'x'.repeat(101) })).error ?? '',
      /at most 100 are written/,
    );
    assert.match(
      (await registry.execute('file_write', { path: 'no/such/file.txt', content: 'x' })).error ?? '',
      /does not exist/,
    );
  });
});
