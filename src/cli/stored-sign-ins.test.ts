import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { TokenStore } from '../mcp/oauth/token-store.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import { tempDir } from '../tool-runtime/test-support.ts';

// The MCP sign-ins of a command with a store (chat, serve: create-assistant.ts hands `store.oauth` to the MCP servers).

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

test('with a store, sign-ins are kept in it; the files of an older Riverse are read once and moved into it', async (t) => {
  const data = await tempDir(t, 'riverse-tokens-');
  await signIn(new TokenStore(data)); // as the files were kept before
  using store = SqliteStore.open(join(data, 'db'));
  const moved = new TokenStore(data, store.oauth);
  assert.equal(
    (await moved.latest('https://mcp.example/mcp'))?.tokens.access_token,
    'b1',
    'the newest stays the newest',
  );
  assert.deepEqual(readdirSync(join(data, 'mcp-oauth')), [], 'the files are gone: the store holds them');
  assert.equal((await store.oauth.client('https://auth.example'))?.client_id, 'riverse-1');
  const kept = (await store.oauth.tokens('https://auth.example', 'https://mcp.example/mcp'))!;
  assert.equal(kept.tokens.refresh_token, 'r1');
  assert.equal(kept.expiresAt! - kept.savedAt, 3_600_000, 'their times come along');

  // A save after the move is newer than every moved one, and is the store's (no file comes back).
  await moved.saveTokens('https://auth.example', 'https://mcp.example/mcp', {
    access_token: 'a2',
    token_type: 'Bearer',
  });
  assert.equal((await moved.latest('https://mcp.example/mcp'))?.tokens.access_token, 'a2');
  assert.deepEqual(readdirSync(join(data, 'mcp-oauth')), []);
  // Another process (a replica) reading the same store sees it.
  const elsewhere = new TokenStore(undefined, store.oauth);
  assert.equal((await elsewhere.latest('https://mcp.example/mcp'))?.issuer, 'https://auth.example');
});
