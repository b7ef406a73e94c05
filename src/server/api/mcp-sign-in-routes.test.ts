// GET /api/mcp/sign-ins and the mcp-sign-in event, over real HTTP: a link an MCP server's sign-in
// makes reaches the dashboard both ways, and leaves the list once it is used.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signIns } from '../../mcp/oauth/sign-ins.ts';
import { openEvents, startTestService } from '../server-test-support.ts';

test('a pending MCP sign-in is listed with its link and published as an mcp-sign-in event', async (t) => {
  const service = await startTestService(t, { files: {} });
  const events = await openEvents(t, service.url);
  await events.next((message) => message.event === ':' && message.data === 'connected', 'the first comment');
  const state = signIns.newState();
  t.after(() => signIns.cancel('notes'));
  signIns.begin('notes', new URL(`https://auth.example/authorize?state=${state}`), state);

  const event = await events.next((message) => message.event === 'mcp-sign-in', 'the sign-in event');
  assert.equal(event.data.server, 'notes');
  assert.equal(event.data.url, `https://auth.example/authorize?state=${state}`);
  const listed = (await (await fetch(new URL('/api/mcp/sign-ins', service.url))).json()) as {
    signIns: Array<{ server: string; url: string }>;
  };
  assert.deepEqual(
    listed.signIns.map((sign) => [sign.server, sign.url]),
    [['notes', `https://auth.example/authorize?state=${state}`]],
  );
  signIns.cancel('notes');
  const after = (await (await fetch(new URL('/api/mcp/sign-ins', service.url))).json()) as { signIns: unknown[] };
  assert.deepEqual(after.signIns, []);
});
