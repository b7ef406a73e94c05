// A checkout run on the machine's own Node (a fresh clone's `npx riverse`, before anything set it
// up): bin/riverse.js sets the checkout up as `npm start` does, then runs on the Node 24 it brings.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCommand, show } from './cli/cli-test-support.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

/** Whether scripts/setup.mjs would find the checkout set up (else it runs `npm ci`, which a test must not start). */
function setUp(): boolean {
  const stamp = join(ROOT, 'node_modules', '.riverse-setup');
  const hash = createHash('sha256')
    .update(readFileSync(join(ROOT, 'package.json')))
    .update(readFileSync(join(ROOT, 'package-lock.json')))
    .digest('hex');
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === hash;
}

/** The first `node` on PATH outside node_modules: the machine's own (Node 20 here, older than engines asks). */
function machineNode(): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    const node = join(folder, 'node');
    if (folder.includes('node_modules') || !existsSync(node)) continue;
    return node;
  }
  return undefined;
}

test('on an older Node, the checkout runs on the Node 24 it brings, and says nothing about it', async (t) => {
  const older = machineNode();
  if (older === undefined) return t.skip('no Node outside node_modules on PATH');
  if (!setUp()) return t.skip('the checkout is not set up for this package.json (npm start sets it up)');
  const result = await runCommand(older, [join(ROOT, 'bin', 'riverse.js'), '--version'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH },
  });
  assert.equal(result.code, 0, show(result));
  assert.equal(result.stdout, `${packageJson.version}\n`);
  assert.equal(result.stderr, '');
});

// The dashboard's switches write riverse.yaml beside package.json: in a checkout, that file is the
// person's own settings, not a change to commit (git status stays clean).
test('riverse.yaml written by a switch in a checkout is ignored by git', {
  skip: existsSync(join(ROOT, '.git')) ? false : 'not a git checkout',
}, () => {
  const ignored = spawnSync('git', ['check-ignore', '--quiet', 'riverse.yaml'], { cwd: ROOT });
  assert.equal(ignored.status, 0, '.gitignore covers /riverse.yaml');
  const tracked = spawnSync('git', ['check-ignore', '--quiet', 'agent/tools/riverse.yaml'], { cwd: ROOT });
  assert.equal(tracked.status, 1, 'only the one at the root');
});

// A git worktree that shares another checkout's node_modules through a link: `npm ci` through the
// link emptied the shared folder under every checkout using it. setup.mjs says where to install.
test('setup.mjs does not install through a node_modules linked to another checkout', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'riverse-setup-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const checkout = join(dir, 'checkout');
  const shared = join(dir, 'shared-node-modules');
  mkdirSync(join(checkout, 'scripts'), { recursive: true });
  mkdirSync(shared);
  writeFileSync(join(shared, 'kept'), '');
  copyFileSync(join(ROOT, 'scripts', 'setup.mjs'), join(checkout, 'scripts', 'setup.mjs'));
  copyFileSync(join(ROOT, 'package.json'), join(checkout, 'package.json'));
  symlinkSync(shared, join(checkout, 'node_modules'));
  const result = spawnSync(process.execPath, [join(checkout, 'scripts', 'setup.mjs')], { encoding: 'utf8' });
  assert.equal(result.status, 1, result.stderr);
  assert.match(result.stderr, /node_modules is a link to .*shared-node-modules/);
  assert.deepEqual(readdirSync(shared), ['kept'], 'the shared folder is left as it was');
});
