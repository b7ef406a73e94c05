// file_read through the registry, in a temporary workspace with a secret next to it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from 'riverse';

const TOOL_FOLDER = fileURLToPath(new URL('.', import.meta.url));
/** A 1×1 red PNG. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('file_read', () => {
  const top = realpathSync(mkdtempSync(join(tmpdir(), 'riverse-file-read-')));
  const root = join(top, 'workspace');
  let registry: ToolRegistry;
  before(async () => {
    mkdirSync(join(root, 'notes'), { recursive: true });
    mkdirSync(join(top, 'outside'));
    mkdirSync(join(top, 'workspace-evil'));
    writeFileSync(join(root, 'notes', 'todo.md'), 'one\ntwo\nthree\nfour\n');
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(5000));
    writeFileSync(join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]));
    writeFileSync(join(root, 'pixel.png'), Buffer.from(PIXEL, 'base64'));
    writeFileSync(join(top, 'outside', 'secret.txt'), 'SECRET');
    writeFileSync(join(top, 'workspace-evil', 'secret.txt'), 'SECRET');
    symlinkSync(join(top, 'outside', 'secret.txt'), join(root, 'link.txt'));
    symlinkSync(join(top, 'outside'), join(root, 'linkdir'));
    // The default root is the config's folder: baseDir stands for it.
    registry = await ToolRegistry.load({
      folders: [TOOL_FOLDER],
      baseDir: root,
      config: { tools: { file_read: { max_bytes: 1000 } } },
    });
  });
  after(() => rmSync(top, { recursive: true, force: true }));

  test('is on by default', () => {
    assert.equal(registry.list().find((tool) => tool.name === 'file_read')?.available, true);
  });

  test('reads a file relative to the workspace, and a range of lines', async () => {
    assert.deepEqual(await registry.execute('file_read', { path: 'notes/todo.md' }), {
      success: true,
      data: 'one\ntwo\nthree\nfour\n',
    });
    assert.deepEqual(
      await registry.execute('file_read', { path: join(root, 'notes', 'todo.md'), offset: 2, limit: 2 }),
      { success: true, data: 'two\nthree' },
    );
  });

  test('every way out is refused, and the secret never appears', async () => {
    const attempts = [
      '../outside/secret.txt',
      'notes/../../outside/secret.txt',
      join(top, 'outside', 'secret.txt'),
      join(top, 'workspace-evil', 'secret.txt'),
      'link.txt',
      'linkdir/secret.txt',
      '/etc/passwd',
    ];
    for (const path of attempts) {
      const result = await registry.execute('file_read', { path });
      assert.equal(result.success, false, path);
      assert.doesNotMatch(`${result.data}${result.error}`, /SECRET|root:/, path);
      assert.match(result.error ?? '', /outside the folders/, path);
    }
  });

  test('a large file is cut at max_bytes, saying so', async () => {
    const result = await registry.execute('file_read', { path: 'big.txt' });
    assert.equal(result.success, true);
    assert.match(result.data, /^x{1000}\n…\[the file has 5,000 bytes; only the first 1,000 were read\]$/);
  });

  test('a binary file is described, not dumped', async () => {
    const result = await registry.execute('file_read', { path: 'image.png' });
    assert.deepEqual(result, { success: true, data: 'image.png is a PNG image (8 bytes), not text; it is not shown.' });
  });

  test('a picture is returned as an image part, its bytes whole', async () => {
    const result = await registry.execute('file_read', { path: 'pixel.png' });
    assert.equal(result.success, true);
    assert.equal(result.data, 'pixel.png is an image (image/png, 70 bytes); it is attached.');
    const [part] = result.content ?? [];
    assert.ok(part?.type === 'image' && part.data instanceof Uint8Array);
    assert.equal(part.mimeType, 'image/png');
    assert.equal(Buffer.from(part.data).toString('base64'), PIXEL);
  });

  test('a folder or a missing file: a clear failure', async () => {
    assert.match((await registry.execute('file_read', { path: 'notes' })).error ?? '', /is a folder; use file_list/);
    assert.match((await registry.execute('file_read', { path: 'nope.txt' })).error ?? '', /nope\.txt does not exist/);
  });
});
