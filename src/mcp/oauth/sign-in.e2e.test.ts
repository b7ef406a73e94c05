// Signing in to a remote MCP server, end to end, with a small authorization server of our own on
// 127.0.0.1: the link (PKCE S256, the resource indicator), the loopback page, the tokens kept
// owner-only in the data folder, a token about to expire refreshed before the request that would
// carry it, and the sign-in reused after a restart.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../../tool-runtime/test-support.ts';
import { ToolRegistry } from '../../tool-runtime/tool-registry.ts';
import { McpTools } from '../mcp-tools.ts';
import { signIns } from './sign-ins.ts';
import { protectedServer } from './testing/protected-server.ts';

/** Resolves once the server is connected (bounded by the test's own timeout). */
function connected(tools: McpTools): Promise<void> {
  return new Promise((resolve) => {
    const check = () => tools.statuses()[0]?.state === 'connected' && resolve();
    tools.onChange(check);
    check();
  });
}

test('a server that needs a sign-in: the link, the loopback page, tokens kept owner-only, refreshed ahead, reused after a restart', {
  timeout: 60_000,
}, async (t) => {
  const server = await protectedServer(t);
  const data = await tempDir(t, 'riverse-sign-in-');
  const links: string[] = [];
  // The person's browser: opens the link; the authorization server sends it on to Riverse's page.
  const stop = signIns.onSignIn((sign) => {
    links.push(sign.url);
    void fetch(sign.url).then((response) => response.text());
  });
  t.after(stop);
  const config = { mcp: { startup_timeout_ms: 20_000, servers: { notes: { url: server.url } } } };

  const first = McpTools.open({ config, baseDir: data, dataDir: data });
  t.after(() => first.close());
  await connected(first);
  assert.equal(links.length, 1, 'one sign-in link');
  const link = server.authorizations[0]!;
  assert.equal(link.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(link.searchParams.get('resource'), server.url);
  assert.equal(link.searchParams.get('client_id'), 'riverse-client');
  assert.match(link.searchParams.get('redirect_uri')!, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  assert.deepEqual(server.grants, ['authorization_code']);

  const folder = join(data, 'mcp-oauth');
  assert.equal(statSync(folder).mode & 0o777, 0o700);
  for (const file of readdirSync(folder)) assert.equal(statSync(join(folder, file)).mode & 0o777, 0o600);

  // Past half its life, the token is refreshed before the call, which carries the new one.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const registry = await ToolRegistry.load({ folders: [], sources: [first], isolation: 'none' });
  const before = server.bearers.length;
  assert.deepEqual(await registry.execute('notes__whoami', {}), { success: true, data: 'signed in' });
  assert.deepEqual(server.grants, ['authorization_code', 'refresh_token']);
  assert.ok(
    server.bearers.slice(before).every((bearer) => bearer === 'access-2'),
    'no request went with the old token',
  );
  await first.close();

  // A restart: the kept tokens are used as they are, no new link.
  const second = McpTools.open({ config, baseDir: data, dataDir: data });
  t.after(() => second.close());
  await connected(second);
  assert.equal(links.length, 1, 'no second sign-in');
  assert.deepEqual(server.grants, ['authorization_code', 'refresh_token']);
  assert.equal(server.bearers.at(-1), 'access-2');
});
