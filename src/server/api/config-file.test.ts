// The riverse.yaml a switch writes: in a checkout of Riverse, git leaves it out.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const checkout = existsSync(`${ROOT}.git`);

test("a switch in a checkout leaves no untracked file: riverse.yaml and its temporary copy are git's to ignore", {
  skip: checkout ? false : 'not a git checkout',
}, () => {
  for (const file of ['riverse.yaml', 'riverse.yaml.1a2b3c4d.tmp']) {
    const ignored = execFileSync('git', ['check-ignore', '--no-index', file], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(ignored.trim(), file);
  }
  // Only the checkout's own: a project's riverse.yaml in a folder of its own is kept.
  assert.throws(() =>
    execFileSync('git', ['check-ignore', '--no-index', 'src/mcp/testing/conformance-project/riverse.yaml'], {
      cwd: ROOT,
      stdio: 'pipe',
    }),
  );
});
