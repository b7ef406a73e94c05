// The tool names' order is localeCompare's (what `tools list` showed before), for every pair of a
// set of names built from each kind of character a tool name may hold.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareToolNames } from './tool-name-order.ts';

test('tool names sort as localeCompare sorts them, without building a collator', () => {
  const characters = ['a', 'b', 'z', 'A', 'B', 'Z', '0', '1', '9', '_', '-'];
  const names = new Set<string>(['web_fetch', 'web-fetch', 'webFetch', 'web2', 'Web', 'web', 'w']);
  for (const x of characters) for (const y of characters) for (const z of ['', ...characters]) names.add(x + y + z);
  const all = [...names];
  for (const a of all)
    for (const b of all) assert.equal(compareToolNames(a, b), Math.sign(a.localeCompare(b)), `${a} against ${b}`);
});
