// The confinement every file tool relies on, including races: a path swapped for a symlink between
// the check and the open must not lead outside.
import assert from 'node:assert/strict';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { confinedPath, fileRoots, isInside, openConfinedForRead, openConfinedForWrite, RootError } from './_roots.ts';

const top = realpathSync(mkdtempSync(join(tmpdir(), 'riverse-roots-')));
const root = join(top, 'root');
const outside = join(top, 'outside');
mkdirSync(join(root, 'sub'), { recursive: true });
mkdirSync(outside);
mkdirSync(join(top, 'root-evil'));
writeFileSync(join(root, 'sub', 'note.txt'), 'inside');
writeFileSync(join(outside, 'secret.txt'), 'secret');
writeFileSync(join(top, 'root-evil', 'x.txt'), 'prefix sibling');
after(() => rmSync(top, { recursive: true, force: true }));
const roots = [root];

describe('_roots', () => {
  test('fileRoots: tools.files.roots against the config folder; by default the config folder itself', () => {
    assert.deepEqual(fileRoots({ base_dir: '/srv/riverse' }), ['/srv/riverse']);
    assert.deepEqual(fileRoots({ base_dir: '/srv/riverse', tools: { files: { roots: ['notes', '/data'] } } }), [
      '/srv/riverse/notes',
      '/data',
    ]);
  });

  test('isInside compares whole components, not a prefix of the text', () => {
    assert.equal(isInside('/a/root/x', '/a/root'), true);
    assert.equal(isInside('/a/root', '/a/root'), true);
    assert.equal(isInside('/a/root-evil/x', '/a/root'), false);
  });

  test('relative paths start at the first root; .. out of it, absolute paths elsewhere and a prefix sibling are refused', () => {
    assert.equal(confinedPath('sub/note.txt', roots), join(root, 'sub', 'note.txt'));
    for (const path of [
      '../outside/secret.txt',
      'sub/../../outside/secret.txt',
      join(outside, 'secret.txt'),
      join(top, 'root-evil', 'x.txt'),
      '/etc/passwd',
    ]) {
      assert.throws(() => confinedPath(path, roots), RootError, path);
    }
  });

  test('a symlink inside a root that points out is refused; one that stays inside is followed', () => {
    symlinkSync(join(outside, 'secret.txt'), join(root, 'leak.txt'));
    symlinkSync(outside, join(root, 'leak-dir'));
    symlinkSync(join(root, 'sub', 'note.txt'), join(root, 'fine.txt'));
    assert.throws(() => confinedPath('leak.txt', roots), /outside the folders/);
    assert.throws(() => confinedPath('leak-dir/secret.txt', roots), /outside the folders/);
    assert.equal(confinedPath('fine.txt', roots), join(root, 'sub', 'note.txt'));
  });

  test('a NUL in a path is refused', () => {
    assert.throws(() => confinedPath('sub/note.txt\0.png', roots), /NUL/);
  });

  test('read: the file swapped for a symlink out after the check is not opened', () => {
    writeFileSync(join(root, 'race-read.txt'), 'inside');
    assert.throws(
      () =>
        openConfinedForRead('race-read.txt', roots, {
          beforeOpen: (real) => {
            rmSync(real);
            symlinkSync(join(outside, 'secret.txt'), real);
          },
        }),
      /symbolic link/,
    );
  });

  test('read: a folder swapped for a symlink out after the check is caught once opened', () => {
    mkdirSync(join(root, 'swap'));
    writeFileSync(join(root, 'swap', 'secret.txt'), 'inside');
    assert.throws(
      () =>
        openConfinedForRead('swap/secret.txt', roots, {
          beforeOpen: () => {
            renameSync(join(root, 'swap'), join(root, 'swap-old'));
            symlinkSync(outside, join(root, 'swap'));
          },
        }),
      /outside the folders/,
    );
  });

  test('write: a symlink put in place of the file after the check is refused, and the outside file is untouched', () => {
    assert.throws(
      () =>
        openConfinedForWrite('race-write.txt', roots, {
          beforeOpen: (real) => symlinkSync(join(outside, 'secret.txt'), real),
        }),
      /symbolic link/,
    );
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'secret');
  });

  test('write: a folder swapped for a symlink out after the check leaves nothing written or created outside', () => {
    mkdirSync(join(root, 'drop'));
    assert.throws(
      () =>
        openConfinedForWrite('drop/new.txt', roots, {
          beforeOpen: () => {
            renameSync(join(root, 'drop'), join(root, 'drop-old'));
            symlinkSync(outside, join(root, 'drop'));
          },
        }),
      /outside the folders/,
    );
    assert.equal(existsSync(join(outside, 'new.txt')), false, 'the file it created outside was removed');
    // And an existing file outside is not truncated: the descriptor is checked before anything is cut.
    assert.throws(() => openConfinedForWrite('drop/secret.txt', roots), /outside the folders/);
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'secret');
  });

  test('write: an ordinary new file inside opens', () => {
    const opened = openConfinedForWrite('sub/new.txt', roots);
    closeSync(opened.fd);
    assert.equal(opened.created, true);
    assert.equal(opened.real, join(root, 'sub', 'new.txt'));
  });
});
