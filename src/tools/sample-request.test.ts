import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { checkRoots, checkRootsOptions, workRoots } from './client-roots.ts';
import { checkSampleRequest, checkSampleResult } from './sample-request.ts';

const text = (value: string) => ({ role: 'user', content: { type: 'text', text: value } });

test("a sample request is MCP's sampling/createMessage parameters, checked with what is wrong named", () => {
  assert.deepEqual(checkSampleRequest({ messages: [text('Hi')], maxTokens: 50, temperature: 0.5, key: 'greeting' }), {
    messages: [text('Hi')],
    maxTokens: 50,
    temperature: 0.5,
    key: 'greeting',
  });
  const picture = {
    role: 'user',
    content: [
      { type: 'text', text: 'What is it?' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    ],
  };
  assert.deepEqual((checkSampleRequest({ messages: [picture], maxTokens: 5 }) as { messages: unknown }).messages, [
    picture,
  ]);
  for (const [request, why] of [
    [{ messages: [], maxTokens: 5 }, /messages must be 1 to 100 messages/],
    [{ messages: [text('Hi')] }, /maxTokens must be a whole number/],
    [
      { messages: [{ role: 'system', content: { type: 'text', text: 'x' } }], maxTokens: 5 },
      /messages\[0\]\.role must be 'user' or 'assistant'/,
    ],
    [
      { messages: [{ role: 'user', content: { type: 'audio', data: 'AA' } }], maxTokens: 5 },
      /type must be 'text' or 'image'/,
    ],
    [{ messages: [text('Hi')], maxTokens: 5, temperature: 3 }, /temperature must be a number from 0 to 2/],
    [
      { messages: [text('Hi')], maxTokens: 5, key: 'sample-1' },
      /key must be .* not approve, ask-<n>, sample-<n> or roots-<n>/,
    ],
    [{ messages: [text('Hi')], maxTokens: 5, tools: [] }, /does not take "tools"/],
  ] as const)
    assert.match(String(checkSampleRequest(request)), why, JSON.stringify(request));
});

test('a reply and roots from a client are taken only when they fit', () => {
  assert.deepEqual(
    checkSampleResult({
      role: 'assistant',
      content: { type: 'text', text: 'Paris' },
      model: 'm',
      stopReason: 'endTurn',
    }),
    {
      role: 'assistant',
      content: { type: 'text', text: 'Paris' },
      model: 'm',
      stopReason: 'endTurn',
    },
  );
  assert.match(
    String(checkSampleResult({ role: 'user', content: { type: 'text', text: 'x' }, model: 'm' })),
    /role must be 'assistant'/,
  );
  assert.match(
    String(checkSampleResult({ role: 'assistant', content: { type: 'text', text: 'x' } })),
    /model must be its name/,
  );
  assert.deepEqual(checkRoots([{ uri: 'file:///a', name: 'a' }, { uri: 'file:///b' }]), [
    { uri: 'file:///a', name: 'a' },
    { uri: 'file:///b' },
  ]);
  assert.match(String(checkRoots([{ name: 'no uri' }])), /each root must have a uri/);
  assert.deepEqual(checkRootsOptions(undefined), {});
  assert.match(String(checkRootsOptions({ key: 'roots-2' })), /context\.roots\(\) takes \{ key\?, timeoutMs\? \}/);
});

test("Riverse's own roots: the project folder, then tools.files.roots (relative ones against it), each once", () => {
  const base = '/home/ada/project';
  assert.deepEqual(workRoots({ base_dir: base, tools: { files: { roots: ['.', 'notes', '/srv/shared', ''] } } }), {
    roots: [
      { uri: pathToFileURL(base).href, name: 'project' },
      { uri: pathToFileURL(join(base, 'notes')).href, name: `tools.files.roots: ${join(base, 'notes')}` },
      { uri: 'file:///srv/shared', name: 'tools.files.roots: /srv/shared' },
    ],
  });
  assert.deepEqual(workRoots({ base_dir: base }), { roots: [{ uri: pathToFileURL(base).href, name: 'project' }] });
});
