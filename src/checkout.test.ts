// A checkout run on the machine's own Node (a fresh clone's `npx riverse`, before anything set it
// up): bin/riverse.js sets the checkout up as `npm start` does, then runs on the Node 24 it brings.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
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
