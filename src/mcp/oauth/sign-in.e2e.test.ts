// Signing in to a remote MCP server, end to end, with a small authorization server of our own on
// 127.0.0.1: the link (PKCE S256, the resource indicator), the loopback page, the tokens kept
// owner-only in the data folder, a token about to expire refreshed before the request that would
// carry it, and the sign-in reused after a restart.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { tempDir } from '../../tool-runtime/test-support.ts';
import { ToolRegistry } from '../../tool-runtime/tool-registry.ts';
import { McpTools } from '../mcp-tools.ts';
import { signIns } from './sign-ins.ts';

async function text(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** An MCP server that takes the tokens its authorization server gave, and that authorization server (one origin, two paths). */
async function protectedServer(t: TestContext) {
  const valid = new Set<string>();
  const grants: string[] = [];
  const authorizations: URL[] = [];
  const bearers: string[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let origin = '';
  let issued = 0;
  const token = (grant: string) => {
    const access = `access-${++issued}`;
    valid.add(access);
    // The first token lives 1 s (soon in the half of its life in which Riverse refreshes first), the refreshed ones an hour.
    const life = grant === 'authorization_code' ? 1 : 3600;
    return { access_token: access, token_type: 'Bearer', expires_in: life, refresh_token: `refresh-${issued}` };
  };
  const http = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp')
      return json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (url.pathname === '/.well-known/oauth-authorization-server')
      return json(200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
      });
    if (url.pathname === '/register') {
      const metadata = JSON.parse(await text(request)) as Record<string, unknown>;
      return json(201, { ...metadata, client_id: 'riverse-client' });
    }
    if (url.pathname === '/authorize') {
      authorizations.push(url);
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', 'the-code');
      back.searchParams.set('state', url.searchParams.get('state')!);
      back.searchParams.set('iss', origin);
      return response.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/token') {
      const form = new URLSearchParams(await text(request));
      grants.push(form.get('grant_type')!);
      return json(200, token(form.get('grant_type')!));
    }
    const bearer = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
    bearers.push(bearer);
    if (!valid.has(bearer))
      return json(
        401,
        { error: 'invalid_token' },
        {
          'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        },
      );
    const known = sessions.get(String(request.headers['mcp-session-id']));
    if (known !== undefined) return void (await known.handleRequest(request, response));
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    const server = new Server({ name: 'notes', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: 'whoami', inputSchema: { type: 'object', properties: {} } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'signed in' }] }));
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  t.after(async () => {
    for (const transport of sessions.values()) await transport.close().catch(() => {});
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  return { url: `${origin}/mcp`, origin, grants, authorizations, bearers };
}

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
