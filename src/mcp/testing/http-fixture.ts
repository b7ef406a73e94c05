// A streamable HTTP MCP server built with the official SDK (1.x, a generation other than ours),
// with sessions, on 127.0.0.1: the tests' stand-in for a remote server that restarts and forgets them.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export interface HttpFixture {
  url: string;
  /** Sessions begun so far. */
  readonly initializations: number;
  /** The headers of the last request. */
  readonly lastHeaders: IncomingMessage['headers'];
  /** Drops every session, as a restarted server would: their next request gets 404. */
  forgetSessions(): void;
  close(): Promise<void>;
}

/** `forgetful`: every session is forgotten as soon as it makes a call (404 to every call). */
export async function startHttpFixture(options: { forgetful?: boolean } = {}): Promise<HttpFixture> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let initializations = 0;
  let lastHeaders: IncomingMessage['headers'] = {};
  const http = createServer(async (request, response) => {
    lastHeaders = request.headers;
    const id = request.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const transport = sessions.get(id);
      if (
        transport === undefined ||
        (options.forgetful === true && request.method === 'POST' && (await peekMethod(request)) === 'tools/call')
      ) {
        sessions.delete(id);
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      await transport.handleRequest(request, response, bodies.get(request));
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        initializations++;
        sessions.set(sessionId, transport);
      },
    });
    const server = new Server({ name: 'riverse-http-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        {
          name: 'greet',
          description: 'Greets someone.',
          inputSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (call) => ({
      content: [{ type: 'text', text: `hello ${String(call.params.arguments?.who)}` }],
    }));
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  const bodies = new WeakMap<IncomingMessage, unknown>();
  /** Reads a POST's JSON body to see its method; the transport is then given the parsed body. */
  async function peekMethod(request: IncomingMessage): Promise<string | undefined> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { method?: string };
    bodies.set(request, body);
    return body.method;
  }
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    get initializations() {
      return initializations;
    },
    get lastHeaders() {
      return lastHeaders;
    },
    forgetSessions: () => sessions.clear(),
    close: async () => {
      for (const transport of sessions.values()) await transport.close().catch(() => {});
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
