// `riverse tools run` goes through the isolated path (worker threads): a tool that exits or spins
// fails its call with exit code 1 and a message, and the command itself neither dies nor hangs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { toolSource } from '../../tool-runtime/test-support.ts';
import { createProject, show, type TempProject } from '../cli-test-support.ts';

describe('riverse tools run with a hostile tool', { concurrency: 2 }, () => {
  let project: TempProject;
  before(async () => {
    project = await createProject({
      'agent/tools/exits.ts': toolSource('exits', { execute: `process.exit(3);` }),
      'agent/tools/spin.ts': toolSource('spin', { execute: `while (true) {}` }),
    });
  });
  after(() => project?.remove());

  test('a tool calling process.exit(3): exit 1 with an error naming the exit, not a dead command', async () => {
    const result = await project.run(['tools', 'run', 'exits']);
    assert.equal(result.code, 1, show(result));
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^error: exits was stopped: its process exited with code 3/m);
  });

  // A worker left spinning would keep the command alive until the runner kills it at 60 s (code null).
  test('a spinning tool with --timeout 500: exit 1 naming the time limit, and the command returns promptly', async () => {
    const result = await project.run(['tools', 'run', 'spin', '--timeout', '500']);
    assert.equal(result.code, 1, show(result));
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^error: spin did not finish within 500 ms and was stopped\.$/m);
  });
});
