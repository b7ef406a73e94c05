import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client, StreamableHTTPClientTransport, type Tool } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startTestService } from '../server/server-test-support.ts';
import { tempDir, writeFiles } from '../tool-runtime/test-support.ts';

const ADD = `import { BaseTool, ToolResult } from 'riverse';
export class AddTool extends BaseTool {
  manifest() {
    return {
      name: 'add',
      description: 'Adds two numbers.',
      parameters: { a: { type: 'number', required: true, description: 'the first' }, b: { type: 'number', required: true, description: 'the second' } },
      examples: ['what is 2 plus 3', 'add 4 and 5'],
      annotations: { title: 'Add', readOnlyHint: true },
    };
  }
  execute(params) {
    console.log('printed by a tool: not the protocol');
    return ToolResult.ok(String(params.a + params.b));
  }
}
`;
const BROKEN = `import { BaseTool } from 'riverse';
export class BrokenTool extends BaseTool {
  manifest() { return { name: 'broken', description: 'Throws.', examples: ['break it', 'fail now'] }; }
  execute() { throw new RangeError('the gauge is off'); }
}
`;
const LATER = `import { BaseTool, ToolResult } from 'riverse';
export class LaterTool extends BaseTool {
  manifest() { return { name: 'later', description: 'Added while a client was connected.', examples: ['the later tool', 'run later'] }; }
  execute() { return ToolResult.ok('later ran'); }
}
`;

/** A client that resolves `changed` each time the server says its tools changed (with the new list). */
function newClient() {
  const lists: Tool[][] = [];
  let heard: () => void = () => {};
  const client = new Client(
    { name: 'riverse-test', version: '1.0.0' },
    { listChanged: { tools: { debounceMs: 0, onChanged: (_error, tools) => tools && (lists.push(tools), heard()) } } },
  );
  const changed = (check: (tools: Tool[]) => boolean) =>
    new Promise<Tool[]>((resolve) => {
      const look = () => {
        const found = lists.find(check);
        if (found !== undefined) resolve(found);
      };
      heard = look;
      look();
    });
  return { client, changed };
}

/** What both transports must show: manifests as MCP tools, failures as isError results, an unknown name as -32602, reloads as list_changed. */
async function exercise(
  client: Client,
  changed: (check: (tools: Tool[]) => boolean) => Promise<Tool[]>,
  addLater: () => Promise<void>,
): Promise<void> {
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((tool) => tool.name),
    ['add', 'broken'],
  );
  const add = tools[0]!;
  assert.equal(add.description, 'Adds two numbers.\n\nExamples:\n- what is 2 plus 3\n- add 4 and 5');
  assert.equal(add.title, 'Add');
  assert.deepEqual(add.annotations, { title: 'Add', readOnlyHint: true });
  assert.deepEqual(add.inputSchema, {
    type: 'object',
    properties: { a: { type: 'number', description: 'the first' }, b: { type: 'number', description: 'the second' } },
    required: ['a', 'b'],
    additionalProperties: false,
  });
  assert.deepEqual(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }), {
    content: [{ type: 'text', text: '5' }],
  });
  // Refused arguments and a throw are results the client's model reads; a name not listed is the protocol's -32602.
  const refused = await client.callTool({ name: 'add', arguments: { a: 'two' } });
  assert.equal(refused.isError, true);
  assert.match(
    (refused.content as Array<{ text: string }>)[0]!.text,
    /missing required parameter "b"[\s\S]*Expected: add\(a: number, b: number\)[\s\S]*\(invalid-params\)/,
  );
  const thrown = await client.callTool({ name: 'broken', arguments: {} });
  assert.equal(thrown.isError, true);
  assert.match((thrown.content as Array<{ text: string }>)[0]!.text, /RangeError: the gauge is off/);
  await assert.rejects(client.callTool({ name: 'ad', arguments: {} }), (error: { code?: number; message?: string }) => {
    assert.equal(error.code, -32602);
    assert.match(error.message ?? '', /Unknown tool "ad" \(did you mean "add"\?\)/);
    return true;
  });
  // A file saved while connected: the client is told, and lists it.
  await addLater();
  const listed = await changed((list) => list.some((tool) => tool.name === 'later'));
  assert.deepEqual(
    listed.map((tool) => tool.name),
    ['add', 'broken', 'later'],
  );
  assert.deepEqual(await client.callTool({ name: 'later', arguments: {} }), {
    content: [{ type: 'text', text: 'later ran' }],
  });
}

test('/mcp in riverse serve: the SDK client over streamable HTTP, behind the token, with a reload while connected', async (t) => {
  const service = await startTestService(t, {
    files: { 'add.ts': ADD, 'broken.ts': BROKEN },
    watch: true,
    server: { token: 's3cret' },
  });
  const url = new URL('/mcp', service.url);
  const refused = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{}',
  });
  assert.equal(refused.status, 401);
  assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'token-required');
  const { client, changed } = newClient();
  await client.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: 'Bearer s3cret' } } }),
  );
  t.after(() => client.close());
  await exercise(client, changed, () => writeFile(join(service.tools, 'later.ts'), LATER));
  // A session the service does not know is a 404, as the protocol says, so that clients begin anew.
  const stale = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: 'Bearer s3cret',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': 'nope',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  assert.equal(stale.status, 404);
});

test('riverse mcp: the SDK client over stdio, with a reload while connected; what tools print stays off the protocol', async (t) => {
  const dir = await tempDir(t, 'riverse-mcp-stdio-');
  const tools = join(dir, 'agent', 'tools');
  await writeFiles(tools, { 'add.ts': ADD, 'broken.ts': BROKEN });
  await writeFiles(dir, { 'riverse.yaml': 'tools:\n  isolation: process\n' });
  const bin = new URL('../../bin/riverse.js', import.meta.url).pathname;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp'],
    cwd: dir,
    env: { ...process.env, RIVERSE_CACHE_DIR: join(dir, 'cache') } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const { client, changed } = newClient();
  await client.connect(transport);
  t.after(() => client.close());
  await exercise(client, changed, () => writeFile(join(tools, 'later.ts'), LATER));
  assert.match(stderr, /serving 2 tools over MCP on stdio/);
  assert.match(stderr, /printed by a tool: not the protocol/);
});

test('/mcp speaks the newest revision too (2026-07-28, stateless) to a client that negotiates it', async (t) => {
  const service = await startTestService(t, { files: { 'add.ts': ADD } });
  const client = new Client({ name: 'riverse-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', service.url)));
  t.after(() => client.close());
  assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
  assert.deepEqual(
    (await client.listTools()).tools.map((tool) => tool.name),
    ['add'],
  );
  assert.deepEqual((await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).content, [
    { type: 'text', text: '2' },
  ]);
});

const GUARDED = `import { BaseTool, ToolResult } from 'riverse';
export class WipeTool extends BaseTool {
  manifest() { return { name: 'wipe', description: 'Deletes the notes.', examples: ['wipe my notes', 'delete everything'], approval: 'always' }; }
  execute() { return ToolResult.ok('wiped'); }
}
`;

test('a tool that needs approval is asked about through the client (elicitation), and does not run unasked', async (t) => {
  const service = await startTestService(t, { files: { 'wipe.ts': GUARDED } });
  const url = new URL('/mcp', service.url);
  const plain = new Client({ name: 'no-elicitation', version: '1.0.0' });
  await plain.connect(new StreamableHTTPClientTransport(url));
  t.after(() => plain.close());
  const refused = await plain.callTool({ name: 'wipe', arguments: {} });
  assert.equal(refused.isError, true);
  assert.match((refused.content as Array<{ text: string }>)[0]!.text, /cannot ask them[\s\S]*\(approval-unavailable\)/);

  const answers: boolean[] = [true, false];
  const asked: string[] = [];
  const asking = new Client({ name: 'elicits', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  asking.setRequestHandler('elicitation/create', async (request) => {
    asked.push(String(request.params.message));
    return { action: 'accept', content: { approve: answers.shift()! } };
  });
  await asking.connect(new StreamableHTTPClientTransport(url));
  t.after(() => asking.close());
  assert.deepEqual((await asking.callTool({ name: 'wipe', arguments: {} })).content, [{ type: 'text', text: 'wiped' }]);
  const denied = await asking.callTool({ name: 'wipe', arguments: {} });
  assert.equal(denied.isError, true);
  assert.match((denied.content as Array<{ text: string }>)[0]!.text, /did not approve[\s\S]*\(denied\)/);
  assert.deepEqual(asked, ['Riverse: run wipe with {}?', 'Riverse: run wipe with {}?']);
});

test('in the 2026-07-28 revision the approval is an input-required round: asked, answered, bound to its call', async (t) => {
  const service = await startTestService(t, { files: { 'wipe.ts': GUARDED } });
  const url = new URL('/mcp', service.url);
  const answers: boolean[] = [true, false];
  const asked: string[] = [];
  const asking = new Client(
    { name: 'elicits', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
  );
  asking.setRequestHandler('elicitation/create', async (request) => {
    asked.push(String(request.params.message));
    return { action: 'accept', content: { approve: answers.shift()! } };
  });
  await asking.connect(new StreamableHTTPClientTransport(url));
  t.after(() => asking.close());
  assert.equal(asking.getNegotiatedProtocolVersion(), '2026-07-28');
  assert.deepEqual((await asking.callTool({ name: 'wipe', arguments: {} })).content, [{ type: 'text', text: 'wiped' }]);
  const denied = await asking.callTool({ name: 'wipe', arguments: {} });
  assert.equal(denied.isError, true);
  assert.match((denied.content as Array<{ text: string }>)[0]!.text, /did not approve[\s\S]*\(denied\)/);
  assert.deepEqual(asked, ['Riverse: run wipe with {}?', 'Riverse: run wipe with {}?']);

  // Over the wire: the question comes back as the result, and a state this server did not sign is refused.
  const call = async (params: Record<string, unknown>) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'wipe',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: {
          name: 'wipe',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': params.capabilities ?? { elicitation: { form: {} } },
          },
          ...params,
          capabilities: undefined,
        },
      }),
    });
    const text = await response.text();
    const data = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)![1]!;
    return { status: response.status, body: JSON.parse(data) };
  };
  const first = await call({});
  assert.equal(first.body.result.resultType, 'input_required');
  assert.equal(first.body.result.inputRequests.approve.method, 'elicitation/create');
  const forged = await call({
    inputResponses: { approve: { action: 'accept', content: { approve: true } } },
    requestState: 'made-up',
  });
  assert.equal(forged.body.error.code, -32602);
  assert.match(forged.body.error.message, /requestState was not issued by this server for this call to wipe/);
  const approved = await call({
    inputResponses: { approve: { action: 'accept', content: { approve: true } } },
    requestState: first.body.result.requestState,
  });
  assert.deepEqual(approved.body.result.content, [{ type: 'text', text: 'wiped' }]);
  // A client that declared no elicitation: the protocol's -32021, naming what it lacks.
  const unable = await call({ capabilities: {} });
  assert.equal(unable.status, 400);
  assert.equal(unable.body.error.code, -32021);
  assert.deepEqual(Object.keys(unable.body.error.data.requiredCapabilities), ['elicitation']);
});

test('/mcp refuses a JSON-RPC batch in every revision, as riverse mcp does on stdio', async (t) => {
  const service = await startTestService(t, { files: { 'add.ts': ADD } });
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'batcher', version: '1' } },
  };
  for (const batch of [[initialize], [{ jsonrpc: '2.0', id: 2, method: 'tools/list' }]]) {
    const response = await fetch(new URL('/mcp', service.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(batch),
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { id: unknown; error: { code: number; message: string } };
    assert.equal(body.error.code, -32600);
    assert.match(
      body.error.message,
      /^JSON-RPC batches are not accepted: MCP removed batching in its 2025-06-18 revision/,
    );
  }
});

const ASKS = `import { BaseTool, ToolResult } from 'riverse';
export class PickTool extends BaseTool {
  manifest() { return { name: 'pick', description: 'Asks which colour.', examples: ['pick a colour', 'choose one'] }; }
  async execute(_params, context) {
    const answer = await context.ask('Which colour?', { choices: ['red', 'blue'] });
    return ToolResult.ok(answer.answered ? 'picked ' + answer.text : 'no answer: ' + answer.reason);
  }
}
`;

test("a tool's context.ask reaches the person through the client's elicitation; without it, unavailable", async (t) => {
  const service = await startTestService(t, { files: { 'pick.ts': ASKS } });
  const url = new URL('/mcp', service.url);
  const forms: unknown[] = [];
  const asking = new Client({ name: 'elicits', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  asking.setRequestHandler('elicitation/create', async (request) => {
    forms.push(request.params);
    return { action: 'accept', content: { answer: 'green' } };
  });
  await asking.connect(new StreamableHTTPClientTransport(url));
  t.after(() => asking.close());
  assert.deepEqual((await asking.callTool({ name: 'pick', arguments: {} })).content, [
    { type: 'text', text: 'picked green' },
  ]);
  assert.deepEqual(forms, [
    {
      mode: 'form',
      message: 'Which colour?',
      requestedSchema: {
        type: 'object',
        properties: { answer: { type: 'string', title: 'Answer', description: 'For example: red / blue' } },
        required: ['answer'],
      },
    },
  ]);
  const plain = new Client({ name: 'no-elicitation', version: '1.0.0' });
  await plain.connect(new StreamableHTTPClientTransport(url));
  t.after(() => plain.close());
  assert.deepEqual((await plain.callTool({ name: 'pick', arguments: {} })).content, [
    { type: 'text', text: 'no answer: unavailable' },
  ]);
});

const TWO_QUESTIONS = `import { BaseTool, ToolResult } from 'riverse';
let runs = 0;
export class TripTool extends BaseTool {
  manifest() { return { name: 'trip', description: 'Asks where and when.', examples: ['plan a trip', 'book travel'] }; }
  async execute(_params, context) {
    runs++;
    const where = await context.ask('Where to?');
    const when = await context.ask('When?', { choices: ['today', 'tomorrow'] });
    return ToolResult.ok([where, when].map((answer) => (answer.answered ? answer.text : answer.reason)).join(', ') + ' (run ' + runs + ')');
  }
}
`;

test("in the 2026-07-28 revision a tool's context.ask is an input-required round: the call runs again with every answer so far", async (t) => {
  const service = await startTestService(t, { files: { 'trip.ts': TWO_QUESTIONS } });
  const url = new URL('/mcp', service.url);
  const asked: string[] = [];
  const client = new Client(
    { name: 'elicits', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(String(request.params.message));
    return { action: 'accept', content: { answer: asked.length === 1 ? 'Kyoto' : 'tomorrow' } };
  });
  await client.connect(new StreamableHTTPClientTransport(url));
  t.after(() => client.close());
  assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
  // Three runs: stopped at the first question, at the second, then through with both answers.
  assert.deepEqual((await client.callTool({ name: 'trip', arguments: {} })).content, [
    { type: 'text', text: 'Kyoto, tomorrow (run 3)' },
  ]);
  assert.deepEqual(asked, ['Where to?', 'When?']);
  // A client that declared no elicitation: the tool hears that no one can be asked, as in 2025.
  const plain = new Client({ name: 'plain', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await plain.connect(new StreamableHTTPClientTransport(url));
  t.after(() => plain.close());
  assert.deepEqual((await plain.callTool({ name: 'trip', arguments: {} })).content, [
    { type: 'text', text: 'unavailable, unavailable (run 4)' },
  ]);
});

const FORM = `import { BaseTool, ToolResult } from 'riverse';
export class BookTool extends BaseTool {
  manifest() { return { name: 'book', description: 'Books a table.', examples: ['book a table', 'reserve'] }; }
  async execute(_params, context) {
    const answer = await context.ask('Book a table', {
      key: 'booking',
      fields: {
        name: { type: 'string' },
        guests: { type: 'integer', minimum: 1, maximum: 8, default: 2 },
        room: { type: 'string', enum: ['in', 'out'], enumNames: ['Inside', 'Terrace'] },
      },
      required: ['name'],
    });
    return ToolResult.ok(answer.answered ? JSON.stringify(answer.values) : 'no answer: ' + answer.reason);
  }
}
`;
const BOOK_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    guests: { type: 'integer', minimum: 1, maximum: 8, default: 2 },
    room: { type: 'string', enum: ['in', 'out'], enumNames: ['Inside', 'Terrace'] },
  },
  required: ['name'],
};

test("a tool's form (context.ask with fields) is the elicitation's requestedSchema, in both revisions; the values come back checked, defaults filled in", async (t) => {
  const service = await startTestService(t, { files: { 'book.ts': FORM } });
  const url = new URL('/mcp', service.url);
  for (const mode of ['off', 'auto'] as const) {
    const forms: Array<{ requestedSchema?: unknown }> = [];
    // The first answer leaves `guests` out (its default counts); in 2026 a second call answers with a value that does not fit.
    const contents: Array<Record<string, string | number>> = [{ name: 'Ada', room: 'out' }];
    const client = new Client(
      { name: 'forms', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, ...(mode === 'auto' ? { versionNegotiation: { mode } } : {}) },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      forms.push(request.params as { requestedSchema?: unknown });
      return { action: 'accept', content: contents.shift() ?? { name: 'Grace' } };
    });
    await client.connect(new StreamableHTTPClientTransport(url));
    t.after(() => client.close());
    assert.equal(client.getNegotiatedProtocolVersion() === '2026-07-28', mode === 'auto');
    assert.deepEqual((await client.callTool({ name: 'book', arguments: {} })).content, [
      { type: 'text', text: '{"name":"Ada","guests":2,"room":"out"}' },
    ]);
    assert.deepEqual(forms[0]?.requestedSchema, BOOK_SCHEMA, mode);
  }

  // Over the wire in 2026: the question under the tool's key; content that does not fit is asked again.
  const call = async (params: Record<string, unknown>) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'book',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'book',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
          },
          ...params,
        },
      }),
    });
    const text = await response.text();
    return JSON.parse(text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)![1]!);
  };
  const first = await call({});
  assert.deepEqual(Object.keys(first.result.inputRequests), ['booking']);
  assert.deepEqual(first.result.inputRequests.booking.params.requestedSchema, BOOK_SCHEMA);
  const unfit = await call({
    inputResponses: { booking: { action: 'accept', content: { name: 'Ada', guests: 12 } } },
    requestState: first.result.requestState,
  });
  assert.equal(unfit.result.resultType, 'input_required', 'guests over its maximum: asked again');
  assert.deepEqual(Object.keys(unfit.result.inputRequests), ['booking']);
  const fit = await call({
    inputResponses: { booking: { action: 'accept', content: { name: 'Ada', guests: 4, room: 'in' } } },
    requestState: unfit.result.requestState,
  });
  assert.deepEqual(fit.result.content, [{ type: 'text', text: '{"name":"Ada","guests":4,"room":"in"}' }]);
});

const SUMMARY = `import { BaseTool, ContextUnavailable, ToolResult } from 'riverse';
export class SummaryTool extends BaseTool {
  manifest() { return { name: 'summary', description: "Sums up the client's folders with its model.", examples: ['sum up my folders', 'what do I work on'] }; }
  async execute(_params, context) {
    try {
      const [{ roots }, reply] = await Promise.all([
        context.roots(),
        context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Sum up' } }], maxTokens: 30, systemPrompt: 'Be brief.' }),
      ]);
      return ToolResult.ok(reply.content.text + ' (' + reply.model + ') in ' + roots.map((root) => root.name).join(', '));
    } catch (error) {
      if (error instanceof ContextUnavailable) return ToolResult.fail('unavailable: ' + error.message);
      throw error;
    }
  }
}
`;

for (const era of ['2025-11-25', '2026-07-28'] as const)
  test(`${era}: context.sample and context.roots reach the client's model and roots; a client without them gets an error the tool can catch`, async (t) => {
    const service = await startTestService(t, { files: { 'summary.ts': SUMMARY } });
    const url = new URL('/mcp', service.url);
    const sampled: Array<{ system?: string; maxTokens: number }> = [];
    const client = new Client(
      { name: 'samples', version: '1.0.0' },
      {
        capabilities: { sampling: {}, roots: {} },
        ...(era === '2026-07-28' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
      },
    );
    client.setRequestHandler('sampling/createMessage', async (request) => {
      sampled.push({
        ...(request.params.systemPrompt === undefined ? {} : { system: request.params.systemPrompt }),
        maxTokens: request.params.maxTokens,
      });
      return {
        role: 'assistant',
        content: { type: 'text', text: 'Two notes' },
        model: 'client-model',
        stopReason: 'endTurn',
      };
    });
    client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///home/ada/notes', name: 'notes' }] }));
    await client.connect(new StreamableHTTPClientTransport(url));
    t.after(() => client.close());
    assert.equal(client.getNegotiatedProtocolVersion(), era);
    const result = await client.callTool({ name: 'summary', arguments: {} });
    assert.deepEqual(result.content, [{ type: 'text', text: 'Two notes (client-model) in notes' }]);
    assert.deepEqual(sampled, [{ system: 'Be brief.', maxTokens: 30 }]);

    const plain = new Client(
      { name: 'plain', version: '1.0.0' },
      era === '2026-07-28' ? { versionNegotiation: { mode: 'auto' as const } } : {},
    );
    await plain.connect(new StreamableHTTPClientTransport(url));
    t.after(() => plain.close());
    if (era === '2025-11-25') {
      const refused = await plain.callTool({ name: 'summary', arguments: {} });
      assert.equal(refused.isError, true);
      assert.match(
        (refused.content as Array<{ text: string }>)[0]!.text,
        /unavailable: summary asked for the MCP client's roots \(context\.roots\), and this client offers none/,
      );
    } else {
      // 2026: a call that failed for want of them is the protocol's -32021, naming what it needed.
      await assert.rejects(
        plain.callTool({ name: 'summary', arguments: {} }),
        (error: { code?: number; data?: unknown; message?: string }) => {
          assert.equal(error.code, -32021);
          assert.deepEqual(error.data, { requiredCapabilities: { roots: {}, sampling: {} } });
          assert.match(error.message ?? '', /this client offers no sampling/);
          return true;
        },
      );
    }
  });
