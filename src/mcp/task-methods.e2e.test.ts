// The tasks extension at /mcp, request by request (2026-07-28, raw JSON-RPC): a long_running call's
// approval in a round before its task exists, the task polled to its end, a refusal without a task.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestService } from '../server/server-test-support.ts';

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
const REVISION = '2026-07-28';

/** One stateless request, as a 2026 client with elicitation and the tasks extension sends it; its result or error. */
async function rpc(url: string, method: string, params: Record<string, unknown>) {
  const name = (params.name ?? params.taskId) as string | undefined;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': REVISION,
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': REVISION,
          'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { [TASKS]: {} } },
        },
      },
    }),
  });
  const text = await response.text();
  const json = text.startsWith('{')
    ? text
    : (text.split('\n').find((line) => line.startsWith('data: ')) ?? '').slice(6);
  return JSON.parse(json) as { result?: Record<string, any>; error?: { code: number; message: string } };
}

test('a long_running call that needs approval: asked in a round before its task exists, then a task to its end; a no is no task', async (t) => {
  const service = await startTestService(t, { files: { 'archive.ts': TOOLS } });
  const url = new URL('/mcp', service.url).href;

  const first = (await rpc(url, 'tools/call', { name: 'archive', arguments: {} })).result!;
  assert.equal(first.resultType, 'input_required');
  assert.equal('taskId' in first, false);
  assert.equal(first.inputRequests.approve.method, 'elicitation/create');

  const yes = { approve: { action: 'accept', content: { approve: true } } };
  const created = (
    await rpc(url, 'tools/call', {
      name: 'archive',
      arguments: {},
      inputResponses: yes,
      requestState: first.requestState,
    })
  ).result!;
  assert.equal(created.resultType, 'task', JSON.stringify(created));
  assert.equal('requestState' in created, false);
  let task = (await rpc(url, 'tasks/get', { taskId: created.taskId })).result!;
  while (task.status === 'working') {
    await new Promise((resolve) => setTimeout(resolve, 50));
    task = (await rpc(url, 'tasks/get', { taskId: created.taskId })).result!;
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
    await rpc(url, 'tools/call', {
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
