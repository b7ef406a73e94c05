// A server's request for input, end to end: an HTTP MCP server (the 1.x SDK) whose tool asks the
// person mid-call (elicitation/create), reached through McpTools and the registry as riverse.yaml's
// servers are. The person answers through the call's `ask` (the channel approvals use); a call that
// cannot ask declines; a process where no one can answer does not offer elicitation at all. The
// same server asks for the client's model (sampling, allowed by the person first) and its roots.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { pathToFileURL } from 'node:url';
import type { AskAnswer, AskQuestion } from '../tools/tool-context.ts';
import type { SampleRequest, SampleResult } from '../tools/sample-request.ts';
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
        { name: 'poem', inputSchema: { type: 'object', properties: {} } },
        { name: 'folders', inputSchema: { type: 'object', properties: {} } },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (call) => {
      if (call.params.name === 'capabilities')
        return { content: [{ type: 'text', text: JSON.stringify(server.getClientCapabilities() ?? {}) }] };
      // The client's model and roots: what came back, or the client's error, as the tool's text.
      const said = async (asked: () => Promise<unknown>) => {
        try {
          return { content: [{ type: 'text' as const, text: JSON.stringify(await asked()) }] };
        } catch (error) {
          return { content: [{ type: 'text' as const, text: `refused: ${(error as Error).message}` }] };
        }
      };
      if (call.params.name === 'poem')
        return said(() =>
          server.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'A haiku about rivers' } }],
            maxTokens: 60,
          }),
        );
      if (call.params.name === 'folders') return said(() => server.listRoots());
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

test("a server's form reaches the person as one form through the call's channel, and the answers go back typed", async (t) => {
  const registry = await open(t, await askingServer(t), true);
  const asked: AskQuestion[] = [];
  const result = await registry.execute(
    'shop__order',
    {},
    {
      ask: async (question): Promise<AskAnswer> => {
        asked.push(question);
        return { answered: true, text: 'size: M', values: { size: 'M' } };
      },
    },
  );
  assert.equal(result.success, true, result.error);
  // The note was left empty: the SDK fills it from its default.
  assert.deepEqual(JSON.parse(result.data), { action: 'accept', content: { size: 'M', note: 'none' } });
  assert.equal(asked.length, 1, 'one question: the whole form');
  assert.match(asked[0]!.question, /MCP server "shop" asks for: Your order/);
  assert.deepEqual(Object.keys(asked[0]!.fields ?? {}), ['size', 'note']);
  assert.deepEqual(asked[0]!.required, ['size']);
  const declined = await registry.execute(
    'shop__order',
    {},
    { ask: async (): Promise<AskAnswer> => ({ answered: false, reason: 'cancelled' }) },
  );
  assert.deepEqual(JSON.parse(declined.data), { action: 'decline' });
});

test("a server's sampling request is answered by the call's model only once the person allows it", async (t) => {
  const registry = await open(t, await askingServer(t), true);
  const sampled: SampleRequest[] = [];
  const sample = async (request: SampleRequest): Promise<SampleResult> => {
    sampled.push(request);
    return {
      role: 'assistant',
      content: { type: 'text', text: 'Water finds its way' },
      model: 'test:model',
      stopReason: 'endTurn',
    };
  };
  const asked: AskQuestion[] = [];
  const allowed = await registry.execute(
    'shop__poem',
    {},
    {
      sample,
      ask: async (question): Promise<AskAnswer> => {
        asked.push(question);
        return { answered: true, text: 'Allow' };
      },
    },
  );
  assert.deepEqual(JSON.parse(allowed.data), {
    role: 'assistant',
    content: { type: 'text', text: 'Water finds its way' },
    model: 'test:model',
    stopReason: 'endTurn',
  });
  assert.match(
    asked[0]!.question,
    /MCP server "shop" asks to use Riverse's model for a reply of at most 60 tokens:\nuser: A haiku about rivers/,
  );
  assert.deepEqual(asked[0]!.choices, ['Allow', 'Decline']);
  assert.deepEqual(sampled[0]!.messages, [{ role: 'user', content: { type: 'text', text: 'A haiku about rivers' } }]);

  const declined = await registry.execute(
    'shop__poem',
    {},
    { sample, ask: async (): Promise<AskAnswer> => ({ answered: true, text: 'Decline' }) },
  );
  assert.match(declined.data, /^refused: .*declined shop's request to use Riverse's model; the model was not asked/);
  // Where no one can be asked, the model is not asked either.
  const unasked = await registry.execute('shop__poem', {}, { sample });
  assert.match(unasked.data, /^refused: .*no one can be asked to allow it here/);
  assert.equal(sampled.length, 1, 'the model answered only the allowed request');
});

test("a server's roots/list is answered with the call's roots, else the folders Riverse works in", async (t) => {
  const registry = await open(t, await askingServer(t), true);
  const given = await registry.execute(
    'shop__folders',
    {},
    { roots: async () => ({ roots: [{ uri: 'file:///srv/notes', name: 'notes' }] }) },
  );
  assert.deepEqual(JSON.parse(given.data), { roots: [{ uri: 'file:///srv/notes', name: 'notes' }] });
  const own = await registry.execute('shop__folders', {});
  assert.deepEqual(JSON.parse(own.data), { roots: [{ uri: pathToFileURL(process.cwd()).href, name: 'project' }] });
});

test('a call that cannot ask declines; a process where no one can answer does not offer elicitation', async (t) => {
  const url = await askingServer(t);
  const asking = await open(t, url, true);
  const unasked = await asking.execute('shop__order', {});
  assert.deepEqual(JSON.parse(unasked.data), { action: 'decline' });
  const offered = JSON.parse((await asking.execute('shop__capabilities', {})).data);
  assert.deepEqual(offered.elicitation, { form: { applyDefaults: true }, url: {} });
  assert.deepEqual(offered.sampling, {}, 'sampling, where a person can allow it');
  assert.deepEqual(offered.roots, {});
  const mute = await open(t, url, false);
  const muted = JSON.parse((await mute.execute('shop__capabilities', {})).data);
  assert.equal(muted.elicitation, undefined);
  assert.equal(muted.sampling, undefined, 'no sampling where no one can allow it');
});
