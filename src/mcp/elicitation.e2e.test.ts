// A server's request for input, end to end: an HTTP MCP server (the 1.x SDK) whose tool asks the
// person mid-call (elicitation/create), reached through McpTools and the registry as riverse.yaml's
// servers are. The person answers through the call's `ask` (the channel approvals use); a call that
// cannot ask declines; a process where no one can answer does not offer elicitation at all.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import type { AskAnswer } from '../tools/tool-context.ts';
import { McpTools } from './mcp-tools.ts';

/** One server per session: `order` asks for a size and a note; `capabilities` says what the client offered. */
async function askingServer(t: TestContext): Promise<string> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (request, response) => {
    const known = sessions.get(String(request.headers['mcp-session-id']));
    if (known !== undefined) return void (await known.handleRequest(request, response));
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    const server = new Server({ name: 'asking', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        { name: 'order', inputSchema: { type: 'object', properties: {} } },
        { name: 'capabilities', inputSchema: { type: 'object', properties: {} } },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (call) => {
      if (call.params.name === 'capabilities')
        return { content: [{ type: 'text', text: JSON.stringify(server.getClientCapabilities() ?? {}) }] };
      const answer = await server.elicitInput({
        mode: 'form',
        message: 'Your order',
        requestedSchema: {
          type: 'object',
          properties: {
            size: { type: 'string', title: 'Size', enum: ['S', 'M', 'L'] },
            note: { type: 'string', title: 'Note', default: 'none' },
          },
          required: ['size'],
        },
      });
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    for (const transport of sessions.values()) await transport.close().catch(() => {});
    http.closeAllConnections();
    return new Promise((resolve) => http.close(resolve));
  });
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

async function open(t: TestContext, url: string, canAsk: boolean) {
  const tools = await McpTools.start({
    config: { mcp: { startup_timeout_ms: 20_000, servers: { shop: { url } } } },
    baseDir: process.cwd(),
    canAsk,
  });
  t.after(() => tools.close());
  assert.equal(tools.statuses()[0]!.state, 'connected', JSON.stringify(tools.statuses()));
  return ToolRegistry.load({ folders: [], sources: [tools], isolation: 'none' });
}

test("a server's form reaches the person through the call's channel, and the answers go back typed", async (t) => {
  const registry = await open(t, await askingServer(t), true);
  const asked: string[] = [];
  const answers = ['Answer', 'M', 'skip'];
  const result = await registry.execute(
    'shop__order',
    {},
    {
      ask: async (question): Promise<AskAnswer> => {
        asked.push(question.question);
        return { answered: true, text: answers.shift()! };
      },
    },
  );
  assert.equal(result.success, true, result.error);
  // The note was skipped: the SDK fills it from its default.
  assert.deepEqual(JSON.parse(result.data), { action: 'accept', content: { size: 'M', note: 'none' } });
  assert.match(asked[0]!, /MCP server "shop" asks for: Your order/);
  assert.equal(asked.length, 3);
  const declined = await registry.execute(
    'shop__order',
    {},
    { ask: async (): Promise<AskAnswer> => ({ answered: true, text: 'Decline' }) },
  );
  assert.deepEqual(JSON.parse(declined.data), { action: 'decline' });
});

test('a call that cannot ask declines; a process where no one can answer does not offer elicitation', async (t) => {
  const url = await askingServer(t);
  const asking = await open(t, url, true);
  const unasked = await asking.execute('shop__order', {});
  assert.deepEqual(JSON.parse(unasked.data), { action: 'decline' });
  assert.deepEqual(JSON.parse((await asking.execute('shop__capabilities', {})).data).elicitation, {
    form: { applyDefaults: true },
    url: {},
  });
  const mute = await open(t, url, false);
  assert.equal(JSON.parse((await mute.execute('shop__capabilities', {})).data).elicitation, undefined);
});
