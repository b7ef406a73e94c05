import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SERVICE_V8_FLAGS, serviceRestartArgs } from './service-heap.ts';

const node = (execArgv: string[] = [], env: NodeJS.ProcessEnv = {}) => ({
  execPath: '/bin/node',
  execArgv,
  argv: ['/bin/node', '/app/riverse.js', '-c', 'x.yaml', 'serve', '--port', '0'],
  env,
});

test('serve starts again with the service young generation and no pretenuring, keeping the Node flags and arguments it had', () => {
  assert.deepEqual(SERVICE_V8_FLAGS, ['--max-semi-space-size=16', '--no-allocation-site-pretenuring']);
  assert.deepEqual(serviceRestartArgs(['-c', 'x.yaml', 'serve', '--port', '0'], node(['--enable-source-maps'])), [
    '/bin/node',
    ...SERVICE_V8_FLAGS,
    '--enable-source-maps',
    '/app/riverse.js',
    '-c',
    'x.yaml',
    'serve',
    '--port',
    '0',
  ]);
});

test('the bare command is the service too (npm start), with its own options', () => {
  for (const argv of [
    [],
    ['--port', '9000'],
    ['-c', 'x.yaml', '--host', '127.0.0.1', '--token', 't', '--lang', 'ja'],
  ]) {
    assert.deepEqual(serviceRestartArgs(argv, node())?.slice(1, 3), SERVICE_V8_FLAGS, JSON.stringify(argv));
  }
});

test('a young generation chosen on the command line or in NODE_OPTIONS is kept, and other commands run as they are', () => {
  assert.equal(serviceRestartArgs(['serve'], node(['--max-semi-space-size=64'])), undefined);
  assert.equal(
    serviceRestartArgs(['serve'], node([], { NODE_OPTIONS: '--inspect --max-semi-space-size=4' })),
    undefined,
  );
  assert.equal(serviceRestartArgs(['serve'], node(['--max-heap-size=512'])), undefined);
  // A pretenuring flag of one's own comes after the service's, so V8 takes it.
  assert.deepEqual(serviceRestartArgs(['serve'], node(['--allocation-site-pretenuring']))?.slice(1, 4), [
    ...SERVICE_V8_FLAGS,
    '--allocation-site-pretenuring',
  ]);
  assert.equal(serviceRestartArgs(['chat'], node()), undefined);
  assert.equal(serviceRestartArgs(['--help'], node()), undefined);
  assert.equal(serviceRestartArgs(['-c', 'x.yaml', 'ask', 'hi'], node()), undefined);
  assert.equal(serviceRestartArgs(['tools', 'list'], node()), undefined);
});
