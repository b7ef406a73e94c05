// file_list through the registry: folders listed, symlinks shown but never followed, roots kept.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from 'riverse';

const TOOL_FOLDER = fileURLToPath(new URL('.', import.meta.url));

describe('file_list', () => {
  const top = realpathSync(mkdtempSync(join(tmpdir(), 'riverse-file-list-')));
  const root = join(top, 'workspace');
  let registry: ToolRegistry;
  before(async () => {
    mkdirSync(join(root, 'a', 'b', 'c'), { recursive: true });
    mkdirSync(join(top, 'outside'));
    writeFileSync(join(root, 'a', 'one.txt'), '1');
    writeFileSync(join(root, 'a', 'b', 'two.txt'), '22');
    writeFileSync(join(top, 'outside', 'secret.txt'), 'SECRET');
    symlinkSync(join(top, 'outside'), join(root, 'a', 'escape'));
    for (let index = 0; index < 8; index++) writeFileSync(join(root, `f${index}.txt`), '');
    registry = await ToolRegistry.load({
      folders: [TOOL_FOLDER],
      baseDir: top,
      config: { tools: { files: { roots: ['workspace'] }, file_list: { max_entries: 5 } } },
    });
  });
  after(() => rmSync(top, { recursive: true, force: true }));

  test('lists a folder to a depth; a symlink is shown, not followed', async () => {
    const result = await registry.execute('file_list', { path: 'a', depth: 3 });
    assert.equal(
      result.data,
      ['b/', 'b/c/', 'b/two.txt  (2 bytes)', 'escape -> (symbolic link, not followed)', 'one.txt  (1 bytes)'].join(
        '\n',
      ),
    );
    assert.doesNotMatch(result.data, /secret/);
  });

  test('at most max_entries, saying there are more', async () => {
    const result = await registry.execute('file_list', {});
    assert.equal(result.data.split('\n').length, 6);
    assert.match(result.data, /more entries not shown: at most 5/);
  });

  test('outside the roots, or through a link out: refused', async () => {
    for (const path of ['..', '../outside', 'a/escape', join(top, 'outside')]) {
      const result = await registry.execute('file_list', { path });
      assert.equal(result.success, false, path);
      assert.match(result.error ?? '', /outside the folders/, path);
    }
  });
});
