// /api/tasks over real HTTP, with a long_running tool called in a chat: the chat's client goes
// away and the task keeps running; it is listed, read, cancelled, and its changes and its result's
// delivery reach /api/events. Against the real local OpenAI-protocol server.
import assert from 'node:assert/strict';
import { stoppedRunner } from '../../tasks/testing/stopped-runner.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { eventually, modelServer, tempDir, testModel } from '../../assistant/turn-test-support.ts';
import type { ReplyHandler } from '../../models/testing/openai-wire.ts';
import { openEvents, raw, sseMessages, startTestService } from '../server-test-support.ts';

const REPORT_TOOL = `import { existsSync } from 'node:fs';
import { BaseTool, ToolResult } from 'riverse';

export class QuarterlyReportTool extends BaseTool {
  manifest() {
    return {
      name: 'quarterly_report',
      description: 'Builds the quarterly report',
      examples: ['Build the report', 'Make the quarterly report'],
      long_running: 'optional',
    };
  }

  async execute(_params, context) {
    context.progress(1, 4, 'gathering');
    while (!existsSync(context.config.go)) {
      if (context.signal.aborted) return ToolResult.fail('stopped');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return ToolResult.ok('The report is ready: 12 pages.');
  }
}
`;

/** Calls the tool, then says "Started." after its result. */
const reportModel: ReplyHandler = (request) =>
  request.body.messages.at(-1)!.role === 'tool'
    ? { text: 'Started.' }
    : { toolCalls: [{ name: 'quarterly_report', arguments: {}, id: `call_${request.body.messages.length}` }] };

async function service(t: Parameters<typeof startTestService>[0]) {
  const server = await modelServer(t, reportModel);
  const go = join(await tempDir(t, 'riverse-task-go-'), 'go');
  const started = await startTestService(t, {
    model: testModel(server),
    files: { 'quarterly-report.ts': REPORT_TOOL },
    yaml: `tools:\n  isolation: none\n  quarterly_report:\n    go: ${JSON.stringify(go)}\n`,
  });
  return { ...started, go };
}

/** Starts a chat and reads it until the tool's result, then goes away (the connection is closed). */
async function chatAndLeave(url: string, session: string): Promise<{ taskId: string; data: string }> {
  const controller = new AbortController();
  const response = await fetch(`${url}api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'Build the quarterly report', session }),
    signal: controller.signal,
  });
  let found: { taskId: string; data: string } | undefined;
  for await (const message of sseMessages(response)) {
    if (message.event === 'tool-result') {
      found = { taskId: message.data.taskId, data: message.data.data };
      break;
    }
  }
  controller.abort();
  if (found === undefined) throw new Error('the chat ended without a tool result');
  return found;
}

const ASKING_TOOL = `import { existsSync } from 'node:fs';
import { BaseTool, ToolResult } from 'riverse';

export class QuarterlyReportTool extends BaseTool {
  manifest() {
    return { name: 'quarterly_report', description: 'Builds the quarterly report', examples: ['Build the report', 'Make the quarterly report'], long_running: 'optional' };
  }

  async execute(_params, context) {
    while (!existsSync(context.config.go)) await new Promise((resolve) => setTimeout(resolve, 20));
    const answer = await context.ask('Which region first?', { choices: ['north', 'south'] });
    return ToolResult.ok(answer.answered ? 'Report for ' + answer.text + ' is ready.' : 'No answer.');
  }
}
`;

describe('/api/tasks', () => {
  it("a task's question after its chat has gone reaches the event stream, is answered on /api/approvals, and the task goes on", async (t) => {
    const server = await modelServer(t, reportModel);
    const go = join(await tempDir(t, 'riverse-task-go-'), 'go');
    const { url, port, context } = await startTestService(t, {
      model: testModel(server),
      files: { 'quarterly-report.ts': ASKING_TOOL },
      yaml: `tools:\n  isolation: none\n  quarterly_report:\n    go: ${JSON.stringify(go)}\n`,
    });
    const events = await openEvents(t, url);
    const { taskId } = await chatAndLeave(url, 'ask');
    writeFileSync(go, '');
    const asked = await events.next(
      (message) => message.event === 'task-call' && message.data.event.type === 'question',
      'the question',
    );
    assert.equal(asked.data.taskId, taskId);
    assert.equal(asked.data.session, 'ask');
    assert.equal(asked.data.event.question, 'Which region first?');
    assert.deepEqual(asked.data.event.choices, ['north', 'south']);
    assert.equal((await context.tasks.get(taskId))?.status, 'input_required');
    const listed = await raw(port, '/api/approvals');
    assert.equal(
      listed.json.approvals.find((entry: { kind: string }) => entry.kind === 'question')?.id,
      asked.data.event.questionId,
    );
    const answered = await raw(port, `/api/approvals/${asked.data.event.questionId}`, {
      method: 'POST',
      body: { answer: 'north' },
    });
    assert.equal(answered.status, 200);
    const ended = await context.tasks.waitForEnd(taskId);
    assert.equal(ended.status, 'completed');
    assert.equal(ended.result?.data, 'Report for north is ready.');
  });

  it('lists a task that outlived its chat, shows its progress, and delivers its result into the session', async (t) => {
    const { url, port, go, context } = await service(t);
    const events = await openEvents(t, url);
    const { taskId, data } = await chatAndLeave(url, 'work');
    assert.ok(taskId, 'the tool-result names the task');
    assert.match(data, new RegExp(`running as task ${taskId}`));
    await events.next(
      (message) =>
        message.event === 'task' &&
        message.data.task.id === taskId &&
        message.data.task.progress?.message === 'gathering',
      'the task progress',
    );
    // The client went away; the task did not.
    const listed = await raw(port, '/api/tasks?status=working');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.json.tasks.map((task: { id: string; tool: string; status: string; origin: string }) => [
        task.id,
        task.tool,
        task.status,
        task.origin,
      ]),
      [[taskId, 'quarterly_report', 'working', 'turn']],
    );
    assert.equal((await raw(port, '/api/tasks?session=work')).json.tasks.length, 1);
    assert.deepEqual((await raw(port, '/api/tasks?session=nobody')).json.tasks, []);
    assert.deepEqual((await raw(port, '/api/tasks?tool=other')).json.tasks, []);

    writeFileSync(go, '');
    const delivered = await events.next((message) => message.event === 'task-delivered', 'the delivery');
    assert.equal(delivered.data.task.id, taskId);
    assert.equal(delivered.data.task.status, 'completed');
    assert.equal(
      delivered.data.message.content,
      `Task ${taskId} (quarterly_report) finished: The report is ready: 12 pages.`,
    );
    const one = await raw(port, `/api/tasks/${taskId}`);
    assert.equal(one.json.task.status, 'completed');
    assert.equal(one.json.task.result.data, 'The report is ready: 12 pages.');
    assert.match(one.json.task.created, /^\d{4}-\d{2}-\d{2}T/);
    const session = await raw(port, '/api/sessions/work');
    assert.equal(session.json.messages.at(-1).content, delivered.data.message.content);
    assert.equal(context.tasks.running, 0);
  });

  it('cancels a running task (its call stops), then refuses to cancel it again', async (t) => {
    const { url, port } = await service(t);
    const events = await openEvents(t, url);
    const { taskId } = await chatAndLeave(url, 'stop');
    const cancelled = await raw(port, `/api/tasks/${taskId}/cancel`, { method: 'POST' });
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.json.task.status, 'cancelled');
    await events.next(
      (message) =>
        message.event === 'task' && message.data.task.id === taskId && message.data.task.status === 'cancelled',
      'the cancel event',
    );
    // Riverse's words about it, in the reader's language.
    const read = await raw(port, `/api/tasks/${taskId}?lang=ja`);
    assert.equal(read.json.task.statusText, 'quarterly_report を実行していたタスクは取り消されました。');
    assert.equal(read.json.task.statusMessage, 'The task running quarterly_report was cancelled.');
    const again = await raw(port, `/api/tasks/${taskId}/cancel`, { method: 'POST' });
    assert.equal(again.status, 409);
    assert.equal(again.json.error.code, 'task-already-ended');
    assert.match(again.json.error.message, /has ended already \(cancelled\)/);
  });

  it('answers 404 task-not-found for an unknown id, and 400 for a status that is not one', async (t) => {
    const { port } = await service(t);
    const missing = await raw(port, '/api/tasks/nope');
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error.code, 'task-not-found');
    const cancel = await raw(port, '/api/tasks/nope/cancel', { method: 'POST' });
    assert.equal(cancel.json.error.code, 'task-not-found');
    const wrong = await raw(port, '/api/tasks?status=done');
    assert.equal(wrong.status, 400);
    assert.equal(wrong.json.error.code, 'invalid-request');
    assert.match(wrong.json.error.message, /"status" takes working, input_required, completed/);
  });

  it('marks a task left working by a stopped service as interrupted when the next one starts', async (t) => {
    const { context } = await service(t);
    // A row as a service that died mid-task leaves it: working, its process (of this host) gone.
    const now = Date.now();
    await context.store.tasks.put(
      {
        id: 'left',
        tool: 'quarterly_report',
        callId: 'c',
        origin: 'turn',
        status: 'working',
        arguments: {},
        createdAt: now,
        updatedAt: now,
      },
      stoppedRunner(),
    );
    // One of another host's (a replica on another machine) cannot be seen to be gone: it is left running.
    await context.store.tasks.put(
      {
        id: 'remote-host',
        tool: 'quarterly_report',
        callId: 'd',
        origin: 'turn',
        status: 'working',
        arguments: {},
        createdAt: now,
        updatedAt: now,
      },
      'another-machine:1:1',
    );
    const { sharedTasks } = await import('../../config/assistant-options.ts');
    const next = sharedTasks({ store: context.store, tools: context.tools });
    t.after(async () => await next.close());
    await eventually(async () => (await next.get('left'))?.status === 'interrupted', 'the task was interrupted');
    assert.equal((await next.get('left'))?.errorCode, 'interrupted');
    assert.equal((await next.get('remote-host'))?.status, 'working', "another machine's task is not ended");
  });
});
