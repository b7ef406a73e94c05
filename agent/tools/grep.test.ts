// grep through the registry: matches with file:line, links out not followed, hostile patterns refused.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from 'riverse';

const TOOL_FOLDER = fileURLToPath(new URL('.', import.meta.url));

describe('grep', () => {
  const top = realpathSync(mkdtempSync(join(tmpdir(), 'riverse-grep-')));
  const root = join(top, 'workspace');
  let registry: ToolRegistry;
  before(async () => {
    mkdirSync(join(root, 'notes'), { recursive: true });
    mkdirSync(join(root, 'node_modules'));
    mkdirSync(join(top, 'outside'));
    writeFileSync(join(root, 'notes', 'a.md'), 'Pay the Invoice\nnothing here\n');
    writeFileSync(join(root, 'notes', 'b.md'), 'invoice 42 (a.b)\n');
    writeFileSync(join(root, 'node_modules', 'dep.js'), 'invoice');
    writeFileSync(join(root, 'blob.bin'), Buffer.from([0, 1, 2, 105, 110, 118, 111, 105, 99, 101]));
    writeFileSync(join(top, 'outside', 'secret.txt'), 'invoice SECRET');
    symlinkSync(join(top, 'outside'), join(root, 'escape'));
    symlinkSync(join(top, 'outside', 'secret.txt'), join(root, 'notes', 'leak.md'));
    registry = await ToolRegistry.load({ folders: [TOOL_FOLDER], baseDir: root, config: {} });
  });
  after(() => rmSync(top, { recursive: true, force: true }));

  test('finds lines in text files, case-insensitively by default, skipping binary files, node_modules and links', async () => {
    const result = await registry.execute('grep', { pattern: 'invoice' });
    assert.deepEqual(result, { success: true, data: 'notes/a.md:1: Pay the Invoice\nnotes/b.md:1: invoice 42 (a.b)' });
  });

  test('the pattern is literal text unless regex is set', async () => {
    assert.equal((await registry.execute('grep', { pattern: '(a.b)' })).data, 'notes/b.md:1: invoice 42 (a.b)');
    assert.equal(
      (await registry.execute('grep', { pattern: 'invoice \\d+', regex: true, path: 'notes' })).data,
      'b.md:1: invoice 42 (a.b)',
    );
    assert.match(
      (await registry.execute('grep', { pattern: '(', regex: true })).error ?? '',
      /not a valid regular expression/,
    );
  });

  test('outside the roots: refused', async () => {
    for (const path of ['../outside', 'escape', 'notes/leak.md']) {
      const result = await registry.execute('grep', { pattern: 'invoice', path });
      assert.equal(result.success, false, path);
      assert.match(result.error ?? '', /outside the folders/, path);
    }
  });
});
