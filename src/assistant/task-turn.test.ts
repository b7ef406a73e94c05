// Tool calls that outlive their turn (decision 032), through the whole Assistant: a `long_running`
// tool's call becomes a task, the turn ends, the task ends later, and its result reaches the next
// turn's model request; a call still running at the turn's deadline is handed over, not stopped.
// Against the real local OpenAI-protocol server, real tool hosts and a real SQLite store.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ReplyHandler } from '../models/testing/openai-wire.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import { LocalTaskRunner } from '../tasks/task-runner.ts';
import type { TaskRecord } from '../tasks/task-types.ts';
import { Assistant } from './assistant.ts';
import type { TaskDelivery } from './task-delivery.ts';
import { taskCall } from './task-run.ts';
import {
  eventually,
  loadRegistry,
  logLines,
  messagesOf,
  modelServer,
  tempDir,
  testModel,
  type Cleanup,
} from './turn-test-support.ts';

/** `name()`: reports progress, waits until the file `tools.<name>.go` exists (or its signal fires), then answers. */
function waitingTool(name: string, manifest: string): string {
  const className = `${name.replace(/(^|_)(\w)/g, (_, __, letter: string) => letter.toUpperCase())}Tool`;
  return `import { appendFileSync, existsSync } from 'node:fs';
import { BaseTool, ToolResult } from 'riverse';

export class ${className} extends BaseTool {
  manifest() {
    return { name: ${JSON.stringify(name)}, description: 'Builds the quarterly report', examples: ['Build the report', 'Make the quarterly report'], ${manifest} };
  }

  async execute(_params, context) {
    const { go, log_file, ask_key } = context.config;
    if (ask_key !== undefined) {
      const answer = await context.ask('Which title?', { key: ask_key });
      appendFileSync(log_file, 'title: ' + (answer.answered ? answer.text : answer.reason) + '\\n');
    }
    appendFileSync(log_file, 'started\\n');
    context.progress(1, 3, 'gathering');
    while (!existsSync(go)) {
      if (context.signal.aborted) {
        appendFileSync(log_file, 'aborted\\n');
        return ToolResult.fail('stopped');
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    context.progress(3, 3, 'done');
    appendFileSync(log_file, 'finished\\n');
    return ToolResult.ok('The report is ready: 12 pages.');
  }
}
`;
}

/** Calls the tool for "report", says "Started." after a tool result, and repeats any delivered task note. */
const reportModel =
  (tool: string): ReplyHandler =>
  (request) => {
    const messages = request.body.messages;
    const last = messages.at(-1)!;
    if (last.role === 'tool') return { text: 'Started.' };
    const note = messages.find((message) => message.role === 'user' && String(message.content).startsWith('Task '));
    if (note !== undefined) return { text: `Seen: ${String(note.content)}` };
    return { toolCalls: [{ name: tool, arguments: {}, id: `call_${messages.length}` }] };
  };

async function setUp(t: Cleanup, tool: string, manifest: string, section: Record<string, unknown> = {}) {
  const dir = await tempDir(t, 'riverse-task-turn-');
  const go = join(dir, 'go');
  const log = join(dir, 'log');
  const registry = await loadRegistry(t, {
    files: { [`${tool}.ts`]: waitingTool(tool, manifest) },
    config: { tools: { [tool]: { go, log_file: log, ...section } } },
  });
  const store = SqliteStore.open(join(dir, 'data'));
  const runner = new LocalTaskRunner({
    records: store.tasks,
    run: (request, hooks) =>
      registry.execute(request.tool, request.arguments, { signal: hooks.signal, onProgress: hooks.progress }),
  });
  t.after(async () => {
    await runner.close();
    await store.close();
  });
  return { go, log, registry, store, runner };
}

describe('Tasks in a turn', () => {
  it('a long_running call becomes a task, outlives its turn, and its result reaches the next turn', {
    timeout: 30_000,
  }, async (t) => {
    const { go, log, registry, store, runner } = await setUp(t, 'quarterly_report', "long_running: 'optional'");
    const server = await modelServer(t, reportModel('quarterly_report'));
    const deliveries: TaskDelivery[] = [];
    const changes: TaskRecord[] = [];
    runner.onChange((task) => changes.push(task));
    const assistant = new Assistant({
      model: testModel(server),
      registry,
      store,
      tasks: runner,
      onTaskDelivered: (delivery) => deliveries.push(delivery),
    });

    const first = await assistant.turn('Build the quarterly report', { session: 'work' });
    assert.equal(first.stopReason, 'answer');
    assert.equal(first.text, 'Started.');
    const call = first.toolCalls[0]!;
    assert.ok(call.taskId, 'the call became a task');
    assert.match(call.result.data, new RegExp(`quarterly_report is running as task ${call.taskId}`));
    // The model read the handle as the call's result.
    const handle = messagesOf(server.requests[1]!).find((message) => message.role === 'tool');
    assert.match(String(handle?.content), /will be delivered into this conversation/);
    // The turn is over; the task is not.
    assert.equal((await runner.get(call.taskId))?.status, 'working');
    await eventually(
      async () => (await runner.get(call.taskId!))?.progress?.message === 'gathering',
      'its progress reached the task',
    );

    writeFileSync(go, '');
    const ended = await runner.waitForEnd(call.taskId);
    assert.equal(ended.status, 'completed');
    assert.equal(ended.result?.data, 'The report is ready: 12 pages.');
    assert.deepEqual(logLines(log), ['started', 'finished']);
    // Delivered into the session as soon as it ended (no turn was running there).
    await eventually(() => deliveries.length === 1, 'the result was delivered');
    assert.equal(deliveries[0]!.task.id, call.taskId);
    const session = (await store.findSession('work'))!;
    const stored = (await store.messages(session.id)).at(-1)!;
    assert.equal(stored.role, 'user');
    assert.equal(stored.content, `Task ${call.taskId} (quarterly_report) finished: The report is ready: 12 pages.`);
    assert.ok((await store.tasks.get(call.taskId))?.deliveredAt, 'marked delivered');
    assert.ok(changes.some((task) => task.progress?.message === 'done'));
    // The turn's trace says the call became this task, and how the task ended.
    const [summary] = await store.turnTraces.list({ session: 'work' });
    const span = (await store.turnTraces.get(summary!.id))!.spans.find((one) => one.kind === 'tool-call')!;
    assert.equal(span.attributes['riverse.task.id'], call.taskId);
    assert.equal(span.attributes['riverse.task.status'], 'completed');
    assert.equal(span.attributes['riverse.task.outcome'], 'success');

    const second = await assistant.turn('Is it done?', { session: 'work' });
    assert.equal(second.text, `Seen: Task ${call.taskId} (quarterly_report) finished: The report is ready: 12 pages.`);
    const request = messagesOf(server.requests.at(-1)!);
    assert.ok(
      request.some((message) => String(message.content).includes('The report is ready: 12 pages.')),
      "the next turn's model request holds the delivered result",
    );
    // Delivered once: the third turn does not add it again.
    const count = (await store.messages(session.id)).filter((message) => message.content.startsWith('Task ')).length;
    assert.equal(count, 1);
  });

  it('hands a call still running at the turn deadline to the task runner instead of stopping it', {
    timeout: 30_000,
  }, async (t) => {
    // No long_running: an ordinary tool with its own limit of 60 s, in a turn of 1.5 s.
    const { go, log, registry, store, runner } = await setUp(t, 'slow_export', 'timeoutMs: 60000');
    const server = await modelServer(t, reportModel('slow_export'));
    const assistant = new Assistant({ model: testModel(server), registry, store, tasks: runner, turnTimeoutMs: 1_500 });
    const first = await assistant.turn('Build the report', { session: 'late' });
    assert.equal(first.stopReason, 'timeout');
    const call = first.toolCalls[0]!;
    assert.ok(call.taskId, 'the call became a task at the deadline');
    assert.match(call.result.data, /still running when the turn reached its limit \(1\.5 s\)/);
    assert.equal((await runner.get(call.taskId))?.status, 'working');
    assert.deepEqual(logLines(log), ['started'], 'not stopped');
    writeFileSync(go, '');
    assert.equal((await runner.waitForEnd(call.taskId)).status, 'completed');
    assert.deepEqual(logLines(log), ['started', 'finished']);
    const session = (await store.findSession('late'))!;
    await eventually(
      async () => (await store.messages(session.id)).some((message) => message.content.includes('12 pages')),
      'the late result was delivered',
    );
  });

  it('a call still waiting for its approval at the deadline is not handed over: it stops there, its approval pending', {
    timeout: 30_000,
  }, async (t) => {
    const { log, registry, store, runner } = await setUp(
      t,
      'quarterly_report',
      "long_running: 'optional', approval: 'always'",
    );
    const server = await modelServer(t, reportModel('quarterly_report'));
    const assistant = new Assistant({ model: testModel(server), registry, store, tasks: runner, turnTimeoutMs: 1_000 });
    const first = await assistant.turn('Build the quarterly report', { session: 'gate' });
    assert.equal(first.stopReason, 'timeout');
    assert.equal(first.toolCalls[0]?.taskId, undefined);
    assert.deepEqual(await runner.list(), [], 'no task');
    assert.deepEqual(logLines(log), [], 'it never ran');
    assert.equal((await assistant.approvals.pending()).filter((entry) => entry.kind === 'approval').length, 1);
  });

  it('a long_running call that needs approval becomes a task once it is approved', { timeout: 30_000 }, async (t) => {
    const { go, log, registry, store, runner } = await setUp(
      t,
      'quarterly_report',
      "long_running: 'optional', approval: 'always'",
    );
    const server = await modelServer(t, reportModel('quarterly_report'));
    const assistant = new Assistant({ model: testModel(server), registry, store, tasks: runner });
    const first = await assistant.turn('Build the quarterly report', {
      session: 'approved',
      onEvent: (event) => {
        if (event.type === 'approval-request')
          void assistant.approvals.answer(event.approvalId, { decision: 'approve' });
      },
    });
    assert.equal(first.stopReason, 'answer');
    const id = first.toolCalls[0]?.taskId;
    assert.ok(id, 'it became a task after the approval');
    await eventually(() => logLines(log).includes('started'), 'it runs');
    writeFileSync(go, '');
    assert.equal((await runner.waitForEnd(id)).result?.data, 'The report is ready: 12 pages.');
  });

  it("a long_running tool's asks_first is asked in the turn, before the call becomes a task, whose ask has the answer", {
    timeout: 30_000,
  }, async (t) => {
    const { go, log, registry, store, runner } = await setUp(
      t,
      'quarterly_report',
      "long_running: 'optional', asks_first: [{ key: 'title', question: 'Which title?', choices: ['Q3'] }]",
      { ask_key: 'title' },
    );
    const server = await modelServer(t, reportModel('quarterly_report'));
    const assistant = new Assistant({ model: testModel(server), registry, store, tasks: runner });
    const seen: string[] = [];
    const first = await assistant.turn('Build the quarterly report', {
      session: 'asked',
      onEvent: (event) => {
        if (event.type === 'question')
          return runner.list().then((tasks) => {
            seen.push(`question: ${event.question} (tasks: ${tasks.length})`);
            void assistant.approvals.reply(event.questionId, 'Q3 review');
          });
        if (event.type === 'tool-result') seen.push(`result: ${event.call.taskId === undefined ? 'plain' : 'task'}`);
      },
    });
    assert.equal(first.stopReason, 'answer');
    assert.deepEqual(seen, ['question: Which title? (tasks: 0)', 'result: task'], 'asked in the turn, then a task');
    const id = first.toolCalls[0]!.taskId!;
    await eventually(() => logLines(log).includes('started'), 'the task runs');
    writeFileSync(go, '');
    assert.equal((await runner.waitForEnd(id)).status, 'completed');
    // The tool's own ask of that key got the answer at once: it was not asked again.
    assert.deepEqual(logLines(log), ['title: Q3 review', 'started', 'finished']);
  });

  it('a task started through the port (as MCP starts one) runs the tool, and one that needs approval in no session is refused', {
    timeout: 30_000,
  }, async (t) => {
    const { go, registry, store } = await setUp(t, 'quarterly_report', "long_running: 'required'");
    const gated = await loadRegistry(t, {
      files: { 'gated.ts': waitingTool('gated_report', "long_running: 'optional', approval: 'always'") },
    });
    const registryFor = { current: 'main' }; // the registry as it is when each task starts
    const runner = new LocalTaskRunner({
      records: store.tasks,
      run: taskCall(() => (registryFor.current === 'gated' ? gated : registry)),
    });
    t.after(async () => await runner.close());
    writeFileSync(go, '');
    const task = await runner.start({ tool: 'quarterly_report', arguments: {}, callId: 'mcp-1', origin: 'mcp' });
    const ended = await runner.waitForEnd(task.id);
    assert.equal(ended.status, 'completed');
    assert.equal(ended.result?.data, 'The report is ready: 12 pages.');
    assert.deepEqual(ended.progress, { progress: 3, total: 3, message: 'done' });
    registryFor.current = 'gated';
    const refused = await runner.waitForEnd(
      (await runner.start({ tool: 'gated_report', arguments: {}, callId: 'mcp-2', origin: 'mcp' })).id,
    );
    assert.equal(refused.result?.code, 'approval-unavailable');
    // An unknown tool cannot run at all: the task failed, with the code.
    const unknown = await runner.waitForEnd(
      (await runner.start({ tool: 'no_such_tool', arguments: {}, callId: 'mcp-3', origin: 'mcp' })).id,
    );
    assert.equal(unknown.status, 'failed');
    assert.equal(unknown.errorCode, 'unknown-tool');
  });

  it('a cancelled task stops its call, and the session is told it was cancelled', { timeout: 30_000 }, async (t) => {
    const { log, registry, store, runner } = await setUp(t, 'quarterly_report', "long_running: 'required'");
    const server = await modelServer(t, reportModel('quarterly_report'));
    const assistant = new Assistant({ model: testModel(server), registry, store, tasks: runner });
    const first = await assistant.turn('Build the quarterly report', { session: 'stop' });
    const id = first.toolCalls[0]!.taskId!;
    await eventually(() => logLines(log).includes('started'), 'the call started');
    assert.equal((await runner.cancel(id))?.status, 'cancelled');
    await eventually(() => logLines(log).includes('aborted'), 'the tool saw its signal');
    const session = (await store.findSession('stop'))!;
    await eventually(
      async () =>
        (await store.messages(session.id)).some(
          (message) =>
            message.content ===
            `Task ${id} (quarterly_report) was cancelled: The task running quarterly_report was cancelled.`,
        ),
      'the cancel was delivered',
    );
  });
});
