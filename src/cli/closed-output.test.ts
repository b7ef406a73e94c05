// `npx riverse --help | head -8`: a reader that closes the pipe early must not get an EPIPE stack.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { CLI } from './cli-test-support.ts';

test('a closed stdout ends the command quietly (no unhandled EPIPE)', async () => {
  const child = spawn(process.execPath, [CLI, '--help'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_TEST_CONTEXT: undefined, NODE_OPTIONS: undefined },
  });
  // Closed before the command can have started, as `head` does once it has its lines.
  child.stdout.destroy();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', (exit) => resolve(exit)));
  assert.equal(stderr, '');
  assert.equal(code, 0);
});
