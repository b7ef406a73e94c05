// For tests: an MCP server that needs a sign-in, and its authorization server, on one origin of
// 127.0.0.1 (dynamic registration, PKCE, the code grant with the `iss` parameter, refresh). Closed
// with the test. Not a test itself.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

async function text(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An MCP server (`whoami` answers "signed in") that takes the tokens its authorization server gave,
 * and that authorization server (one origin, two paths). The first token lives 1 s, refreshed ones an hour.
 */
export async function protectedServer(t: TestContext) {
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
