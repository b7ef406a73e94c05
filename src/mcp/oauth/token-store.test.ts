import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../../tool-runtime/test-support.ts';
import { TokenStore } from './token-store.ts';

const mode = (path: string) => statSync(path).mode & 0o777;

/** Two issuers' sign-ins to one server, as a sign-in saves them. */
async function signIn(store: TokenStore): Promise<void> {
  await store.saveClient('https://auth.example', {
    client_id: 'riverse-1',
    redirect_uris: ['http://127.0.0.1:1/callback'],
  });
  await store.saveTokens('https://auth.example', 'https://mcp.example/mcp', {
    access_token: 'a1',
    token_type: 'Bearer',
    expires_in: 3600,
    refresh_token: 'r1',
  });
  await store.saveTokens('https://other.example', 'https://mcp.example/mcp', {
    access_token: 'b1',
    token_type: 'Bearer',
  });
}

test('without a store, tokens are kept per issuer and server, owner-only: 0600 files in a 0700 folder, even one made wider before', async (t) => {
  const data = await tempDir(t, 'riverse-tokens-');
  mkdirSync(join(data, 'mcp-oauth'), { mode: 0o755 });
  await signIn(new TokenStore(data));

  assert.equal(mode(join(data, 'mcp-oauth')), 0o700);
  const files = readdirSync(join(data, 'mcp-oauth'));
  assert.equal(files.length, 2, 'one file per issuer, no temporary left behind');
  for (const file of files) assert.equal(mode(join(data, 'mcp-oauth', file)), 0o600);

  const again = new TokenStore(data);
  assert.equal((await again.client('https://auth.example'))?.client_id, 'riverse-1');
  const kept = (await again.tokens('https://auth.example', 'https://mcp.example/mcp'))!;
  assert.equal(kept.tokens.access_token, 'a1');
  assert.ok(kept.expiresAt! - kept.savedAt === 3_600_000, 'the expiry is kept as a time, not a duration');
  assert.equal(await again.tokens('https://auth.example', 'https://else.example/mcp'), undefined);
  assert.equal(
    (await again.latest('https://mcp.example/mcp'))?.issuer,
    'https://other.example',
    'the newest, whoever gave it',
  );

  await again.saveTokens('https://other.example', 'https://mcp.example/mcp', undefined);
  assert.equal((await again.latest('https://mcp.example/mcp'))?.issuer, 'https://auth.example');
  assert.doesNotMatch(files.map((file) => readFileSync(join(data, 'mcp-oauth', file), 'utf8')).join(''), /\.tmp/);
});

test('without a data folder or a store, sign-ins last as long as the token store', async () => {
  const store = new TokenStore(undefined);
  await store.saveTokens('https://auth.example', 'https://mcp.example/mcp', {
    access_token: 'a',
    token_type: 'Bearer',
  });
  assert.equal((await store.latest('https://mcp.example/mcp'))?.tokens.access_token, 'a');
  assert.equal(store.folder, undefined);
  assert.equal(existsSync('mcp-oauth'), false);
});
