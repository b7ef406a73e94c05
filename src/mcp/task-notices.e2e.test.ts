// notifications/tasks at /mcp (2026-07-28, raw JSON-RPC): a client that names its tasks on a
// subscriptions/listen stream hears each status change (a question, its answer, the end with the
// result inlined), and the stream ends, answered, once they have all ended; one that does not
// name any gets the SDK's own stream, with no task notices.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestService } from '../server/server-test-support.ts';
import { postStateless, STATELESS_META, statelessRpc, streamedMessages } from './testing/stateless-rpc.ts';

const TOOLS = `import { BaseTool, ToolResult } from 'riverse';
export class PackTool extends BaseTool {
  manifest() {
    return { name: 'pack', description: 'Packs the boxes, asking which first.', examples: ['pack the boxes', 'pack up'], long_running: 'required' };
  }
  async execute(_params, context) {
    const answer = await context.ask('Which box first?');
    await new Promise((resolve) => setTimeout(resolve, 50));
    return ToolResult.ok('Packed, ' + (answer.answered ? answer.text : 'any') + ' first.');
  }
}
`;
type Message = { id?: unknown; method?: string; result?: Record<string, any>; params?: Record<string, any> };

const rpc = async (url: string, method: string, params: Record<string, unknown>) =>
  (await statelessRpc(url, method, params)).result as Record<string, any>;

const messages = (body: ReadableStream<Uint8Array>) => streamedMessages(body) as AsyncGenerator<Message>;

test('notifications/tasks on subscriptions/listen: each status of the named tasks, the result inlined, then the stream ends', {
  timeout: 60_000,
}, async (t) => {
  const service = await startTestService(t, { files: { 'pack.ts': TOOLS } });
  const url = new URL('/mcp', service.url).href;
  const created = await rpc(url, 'tools/call', { name: 'pack', arguments: {} });
  assert.equal(created.resultType, 'task', JSON.stringify(created));
  const controller = new AbortController();
  t.after(() => controller.abort());
  const listen = await postStateless(
    url,
    'subscriptions/listen',
    { notifications: { taskIds: [created.taskId, 'no-such-task'] } },
    controller.signal,
  );
  assert.equal(listen.status, 200);
  assert.match(listen.headers.get('content-type') ?? '', /text\/event-stream/);
  const seen: Message[] = [];
  for await (const message of messages(listen.body!)) {
    seen.push(message);
    const params = message.params ?? {};
    // Waiting on its question: answered through tasks/update, as a poller would.
    if (message.method === 'notifications/tasks' && params.status === 'input_required') {
      const [key] = Object.keys(params.inputRequests);
      await rpc(url, 'tasks/update', {
        taskId: created.taskId,
        inputResponses: { [key!]: { action: 'accept', content: { answer: 'the red one' } } },
      });
    }
  }
  const [ack, ...rest] = seen;
  assert.equal(ack!.method, 'notifications/subscriptions/acknowledged');
  assert.deepEqual(ack!.params!.notifications, { taskIds: [created.taskId] }, 'an unknown id is not followed');
  assert.equal(ack!.params!._meta['io.modelcontextprotocol/subscriptionId'], 'subscriptions/listen-1');
  const notices = rest.filter((message) => message.method === 'notifications/tasks');
  // Its state when the stream opened (working, or already asking), then each change, once each.
  const statuses = notices.map((notice) => notice.params!.status as string);
  assert.deepEqual(statuses.slice(statuses.indexOf('input_required')), ['input_required', 'working', 'completed']);
  assert.ok(statuses.indexOf('input_required') <= 1, statuses.join(', '));
  for (const notice of notices) {
    assert.equal(notice.params!.taskId, created.taskId);
    assert.equal(notice.params!._meta['io.modelcontextprotocol/subscriptionId'], 'subscriptions/listen-1');
    assert.equal('resultType' in notice.params!, false);
  }
  assert.deepEqual(notices.at(-1)!.params!.result.content, [{ type: 'text', text: 'Packed, the red one first.' }]);
  // It ends answered: the listen request's result closes it.
  assert.equal(seen.at(-1)!.id, 'subscriptions/listen-1');
  assert.equal(seen.at(-1)!.result!.resultType, 'complete');
});

test('a listen stream that names no task is the SDK’s, with no task notices', { timeout: 30_000 }, async (t) => {
  const service = await startTestService(t, { files: { 'pack.ts': TOOLS } });
  const url = new URL('/mcp', service.url).href;
  const controller = new AbortController();
  t.after(() => controller.abort());
  const listen = await postStateless(
    url,
    'subscriptions/listen',
    { notifications: { toolsListChanged: true } },
    controller.signal,
  );
  for await (const message of messages(listen.body!)) {
    assert.equal(message.method, 'notifications/subscriptions/acknowledged');
    assert.deepEqual(message.params!.notifications, { toolsListChanged: true });
    break;
  }
});

const WAIT_TOOL = `import { existsSync } from 'node:fs';
import { BaseTool, ToolResult } from 'riverse';
export class WaitTool extends BaseTool {
  manifest() {
    return { name: 'wait_for_go', description: 'Waits for its go file.', parameters: { go: { type: 'string', required: true, description: 'The file' } }, examples: ['wait for go', 'wait a while'], long_running: 'required' };
  }
  async execute(params, context) {
    while (!existsSync(params.go)) {
      if (context.signal.aborted) return ToolResult.fail('stopped');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return ToolResult.ok('Went.');
  }
}
`;

test('riverse mcp: the same over stdio', { timeout: 60_000 }, async (t) => {
  const { spawn } = await import('node:child_process');
  const { writeFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { tempDir, writeFiles } = await import('../tool-runtime/test-support.ts');
  const dir = await tempDir(t, 'riverse-mcp-task-notices-');
  await writeFiles(join(dir, 'agent', 'tools'), { 'wait.ts': WAIT_TOOL });
  await writeFiles(dir, { 'riverse.yaml': 'data_dir: ./data\ntools:\n  isolation: none\n' });
  const child = spawn(process.execPath, [new URL('../../bin/riverse.js', import.meta.url).pathname, 'mcp'], {
    cwd: dir,
    env: { ...process.env, RIVERSE_CACHE_DIR: join(dir, 'cache') },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  t.after(() => child.kill());
  const lines = (async function* () {
    let pending = '';
    for await (const chunk of child.stdout) {
      pending += String(chunk);
      const parts = pending.split('\n');
      pending = parts.pop()!;
      for (const part of parts) if (part.trim().startsWith('{')) yield JSON.parse(part) as Message;
    }
  })();
  const send = (message: Record<string, unknown>) =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const next = async (until: (message: Message) => boolean) => {
    for (;;) {
      const { value, done } = await lines.next();
      if (done) throw new Error('riverse mcp ended');
      if (until(value)) return value;
    }
  };
  const go = join(dir, 'go');
  send({ id: 1, method: 'tools/call', params: { name: 'wait_for_go', arguments: { go }, _meta: STATELESS_META } });
  const created = (await next((message) => message.id === 1)).result!;
  assert.equal(created.resultType, 'task', JSON.stringify(created));
  send({
    id: 'listen-1',
    method: 'subscriptions/listen',
    params: { notifications: { taskIds: [created.taskId] }, _meta: STATELESS_META },
  });
  const ack = await next((message) => message.method === 'notifications/subscriptions/acknowledged');
  assert.deepEqual(ack.params!.notifications, { taskIds: [created.taskId] });
  assert.equal(ack.params!._meta['io.modelcontextprotocol/subscriptionId'], 'listen-1');
  const working = await next((message) => message.method === 'notifications/tasks');
  assert.equal(working.params!.status, 'working');
  await writeFile(go, '');
  const completed = await next((message) => message.method === 'notifications/tasks');
  assert.equal(completed.params!.status, 'completed');
  assert.deepEqual(completed.params!.result.content, [{ type: 'text', text: 'Went.' }]);
  const end = await next((message) => message.id === 'listen-1');
  assert.equal(end.result!.resultType, 'complete');
});
