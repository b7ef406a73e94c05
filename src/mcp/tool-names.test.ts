import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_TOOL_NAME, registryToolName } from './tool-names.ts';

test('a tool is named <server>__<tool> when that fits', () => {
  assert.equal(registryToolName('github', 'create_issue', new Set()), 'github__create_issue');
});

test('a long name is cut to 64 characters with a stable hash suffix', () => {
  const long = 'a_tool_with_a_very_long_name_that_goes_on_and_on_past_the_limit_of_providers';
  const name = registryToolName('server', long, new Set());
  assert.equal(name.length, MAX_TOOL_NAME);
  assert.match(name, /^server__a_tool_with_a_very_long_name.*_[0-9a-f]{6}$/);
  assert.equal(registryToolName('server', long, new Set()), name, 'the same on every listing');
  // Two tools that share their first 64 characters still get two names.
  assert.notEqual(registryToolName('server', `${long}_2`, new Set()), name);
});

test('characters providers refuse are replaced, and a clash gets a hash', () => {
  const dotted = registryToolName('my.server', 'read file', new Set());
  assert.match(dotted, /^my_server__read_file_[0-9a-f]{6}$/);
  const taken = new Set(['fs__read']);
  const second = registryToolName('fs', 'read', taken);
  assert.notEqual(second, 'fs__read');
  assert.match(second, /^fs__read_[0-9a-f]{6}$/);
  // Even when the hashed name is taken too.
  assert.notEqual(registryToolName('fs', 'read', new Set([...taken, second])), second);
});
