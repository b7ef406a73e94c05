// The tasks extension at /mcp, request by request (2026-07-28, raw JSON-RPC): a long_running call's
// approval in a round before its task exists, the task polled to its end, a refusal without a task.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestService } from '../server/server-test-support.ts';
import { statelessRpc } from './testing/stateless-rpc.ts';

const TOOLS = `import { BaseTool, ToolResult } from 'riverse';
export class ArchiveTool extends BaseTool {
  manifest() {
    return { name: 'archive', description: 'Archives the mailbox, slowly.', examples: ['archive my mail', 'clean the inbox'], long_running: 'required', approval: 'always' };
  }
  async execute() {
    await new Promise((resolve) => setTimeout(resolve, 200));
    return ToolResult.ok('Archived 12 mails.');
  }
}
`;
const TASKS = 'io.modelcontextprotocol/tasks';
test('a long_running call that needs approval: asked in a round before its task exists, then a task to its end; a no is no task', async (t) => {
  const service = await startTestService(t, { files: { 'archive.ts': TOOLS } });
  const url = new URL('/mcp', service.url).href;

  const first = (await statelessRpc(url, 'tools/call', { name: 'archive', arguments: {} })).result!;
  assert.equal(first.resultType, 'input_required');
  assert.equal('taskId' in first, false);
  assert.equal(first.inputRequests.approve.method, 'elicitation/create');

  const yes = { approve: { action: 'accept', content: { approve: true } } };
  const created = (
    await statelessRpc(url, 'tools/call', {
      name: 'archive',
      arguments: {},
      inputResponses: yes,
      requestState: first.requestState,
    })
  ).result!;
  assert.equal(created.resultType, 'task', JSON.stringify(created));
  assert.equal('requestState' in created, false);
  let task = (await statelessRpc(url, 'tasks/get', { taskId: created.taskId })).result!;
  while (task.status === 'working') {
    await new Promise((resolve) => setTimeout(resolve, 50));
    task = (await statelessRpc(url, 'tasks/get', { taskId: created.taskId })).result!;
  }
  assert.equal(task.status, 'completed');
  assert.deepEqual(task.result.content, [{ type: 'text', text: 'Archived 12 mails.' }]);
  assert.equal(
    (await service.context.tasks.get(created.taskId))?.origin,
    'mcp',
    'a Riverse task, listed with the others',
  );

  const no = { approve: { action: 'accept', content: { approve: false } } };
  const refused = (
    await statelessRpc(url, 'tools/call', {
      name: 'archive',
      arguments: {},
      inputResponses: no,
      requestState: first.requestState,
    })
  ).result!;
  assert.equal(refused.isError, true);
  assert.equal('taskId' in refused, false);
  assert.match(refused.content[0].text, /did not approve/);
  assert.equal((await service.context.tasks.list()).length, 1, 'the refused call made no task');
});

const ASKS_FIRST = `import { BaseTool, ToolResult } from 'riverse';
export class PlanTool extends BaseTool {
  manifest() {
    return { name: 'plan', description: 'Plans a trip, slowly, for a place asked first.', examples: ['plan a trip', 'make a travel plan'], long_running: 'required', asks_first: [{ key: 'place', question: 'Where to?' }] };
  }
  async execute(_params, context) {
    const place = await context.ask('Where to?', { key: 'place' });
    return ToolResult.ok('A plan for ' + (place.answered ? place.text : place.reason) + '.');
  }
}
`;

test('2025-11-25: asks_first goes over elicitation before the task exists; the call is then answered with the task', async (t) => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const { z } = await import('zod');
  const service = await startTestService(t, { files: { 'plan.ts': ASKS_FIRST } });
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} }, extensions: { [TASKS]: {} } } as never },
  );
  const asked: Array<{ message: string; tasks: number }> = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push({ message: String(request.params.message), tasks: (await service.context.tasks.list()).length });
    return { action: 'accept', content: { answer: 'Kyoto' } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', service.url)));
  t.after(() => client.close());
  assert.equal(client.getServerCapabilities()?.extensions?.[TASKS] !== undefined, true, 'the server offers tasks');
  const created = (await client.request(
    { method: 'tools/call', params: { name: 'plan', arguments: {} } },
    z.object({}).passthrough(),
  )) as Record<string, any>;
  assert.deepEqual(asked, [{ message: 'Where to?', tasks: 0 }], 'asked before any task existed');
  assert.equal(created.resultType, 'task', JSON.stringify(created));
  const ended = await service.context.tasks.waitForEnd(created.taskId);
  assert.equal(ended.result?.data, 'A plan for Kyoto.', 'the tool had the answer at once');
});
