// Riverse as the client of a server whose tools run only as tasks (the tasks extension): here
// Riverse's own /mcp (the service's task runner), which speaks the wire the conformance suite tests.
import assert from 'node:assert/strict';
import { stoppedRunner } from '../tasks/testing/stopped-runner.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestService } from '../server/server-test-support.ts';
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { tempDir, writeFiles } from '../tool-runtime/test-support.ts';
import { McpTools } from './mcp-tools.ts';

const REMOTE = `import { BaseTool, ToolResult } from 'riverse';
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export class ReportTool extends BaseTool {
  manifest() {
    return { name: 'report', description: 'Writes a report, slowly.', examples: ['write the report', 'make a report'], long_running: 'required' };
  }
  async execute(_params, context) {
    context.progress(1, 2, 'half done');
    await pause(300);
    return { success: true, content: [{ type: 'text', text: 'The report.' }], structured: { pages: 3 } };
  }
}
export class GreetLaterTool extends BaseTool {
  manifest() {
    return { name: 'greet_later', description: 'Asks a name, then greets.', examples: ['greet me later', 'ask my name'], long_running: 'required' };
  }
  async execute(_params, context) {
    const answer = await context.ask('Your name?');
    return ToolResult.ok(answer.answered ? 'Hello, ' + answer.text + '!' : 'no name: ' + answer.reason);
  }
}
`;

test("a remote tool that runs only as a task: called as one, polled to its end, its status on the call's progress, its question put to the person", async (t) => {
  const service = await startTestService(t, { files: { 'remote.ts': REMOTE } });
  const url = new URL('/mcp', service.url).href;
  const dir = await tempDir(t, 'riverse-client-');
  const tools = await McpTools.start({
    config: { mcp: { servers: { remote: { url, timeout_ms: 20_000 } } } },
    baseDir: dir,
  });
  t.after(() => tools.close());
  const registry = await ToolRegistry.load({ folders: [join(dir, 'none')], sources: [tools] });

  const reports: string[] = [];
  const result = await registry.execute(
    'remote__report',
    {},
    { onProgress: (report) => reports.push(report.message ?? '') },
  );
  assert.equal(result.success, true, result.error);
  assert.equal(result.data, 'The report.\n{"pages":3}');
  assert.deepEqual(result.structured, { pages: 3 });
  assert.match(reports[0]!, /^report: working/);
  assert.equal(reports.at(-1), 'report: completed');
  // Known from then on as long_running: a turn's call of it becomes a Riverse task.
  const reloaded = await ToolRegistry.load({ folders: [join(dir, 'none')], sources: [tools] });
  assert.equal(reloaded.get('remote__report')?.manifest.long_running, 'required');
  assert.equal(reloaded.get('remote__greet_later')?.manifest.long_running, undefined);

  const asked: string[] = [];
  const greeted = await registry.execute(
    'remote__greet_later',
    {},
    {
      ask: async (question) => {
        asked.push(question.question);
        // The server's form (one field, `answer`) comes as one question with its fields (036).
        return question.fields === undefined
          ? { answered: true, text: question.choices?.[0] ?? 'Ada' }
          : { answered: true, text: 'Ada', values: { answer: 'Ada' } };
      },
    },
  );
  assert.equal(greeted.data, 'Hello, Ada!', greeted.error);
  assert.match(asked.join('\n'), /Your name\?/);
});

test('riverse mcp over stdio runs a required tool as a task (its store opened in the data folder); Riverse as its client waits for it', async (t) => {
  const project = await tempDir(t, 'riverse-mcp-tasks-');
  await writeFiles(join(project, 'agent', 'tools'), { 'remote.ts': REMOTE });
  await writeFiles(project, { 'riverse.yaml': 'data_dir: ./data\ntools:\n  isolation: none\n' });
  const dir = await tempDir(t, 'riverse-client-');
  const tools = await McpTools.start({
    config: {
      mcp: {
        servers: {
          stdio: {
            command: process.execPath,
            args: [new URL('../../bin/riverse.js', import.meta.url).pathname, 'mcp'],
            cwd: project,
            env: { RIVERSE_CACHE_DIR: join(project, 'cache') },
            timeout_ms: 20_000,
          },
        },
      },
    },
    baseDir: dir,
  });
  t.after(() => tools.close());
  const registry = await ToolRegistry.load({ folders: [join(dir, 'none')], sources: [tools] });
  const reports: string[] = [];
  const result = await registry.execute(
    'stdio__report',
    {},
    { onProgress: (report) => reports.push(report.message ?? '') },
  );
  assert.equal(result.success, true, result.error);
  assert.equal(result.data, 'The report.\n{"pages":3}');
  assert.equal(reports.at(-1), 'report: completed');
  assert.ok(existsSync(join(project, 'data')), 'the tasks store is in the data folder');
});

const JOB = `import { existsSync } from 'node:fs';
import { BaseTool, ToolResult } from 'riverse';
export class JobTool extends BaseTool {
  manifest() {
    return { name: 'job', description: 'A long job that waits for its go file.', parameters: { go: { type: 'string', required: true, description: 'The file' } }, examples: ['run the job', 'start the job'], long_running: 'required' };
  }
  async execute(params, context) {
    while (!existsSync(params.go)) {
      if (context.signal.aborted) return ToolResult.fail('stopped');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return ToolResult.ok('The job is done.');
  }
}
`;

test('a remote task our client waited on is picked up again after Riverse restarts (its id kept with our task), or interrupted with the reason when the server forgot it', {
  timeout: 60_000,
}, async (t) => {
  const { sharedTasks } = await import('../config/assistant-options.ts');
  const { SqliteStore } = await import('../store/sqlite-store.ts');
  const service = await startTestService(t, { files: { 'job.ts': JOB } });
  const url = new URL('/mcp', service.url).href;
  const dir = await tempDir(t, 'riverse-client-');
  const tools = await McpTools.start({
    config: { mcp: { servers: { remote: { url, timeout_ms: 20_000 } } } },
    baseDir: dir,
  });
  t.after(() => tools.close());
  const registry = await ToolRegistry.load({ folders: [join(dir, 'none')], sources: [tools] });
  const store = SqliteStore.open(join(dir, 'data'));
  t.after(() => store.close());
  const eventually = async (check: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 500 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(await check(), what);
  };

  // Our task keeps the id of the server's task its call waits on, as soon as the server makes it.
  const first = sharedTasks({ store, tools: { current: registry }, sources: [tools] });
  const go = join(dir, 'go-1');
  const started = await first.start({ tool: 'remote__job', arguments: { go }, callId: 'call_1', origin: 'api' });
  await eventually(async () => (await store.tasks.get(started.id))?.remote !== undefined, 'the remote task id is kept');
  const remote = (await store.tasks.get(started.id))!.remote!;
  assert.equal(remote.server, 'remote');
  assert.equal(remote.tool, 'job');
  assert.equal((await service.context.tasks.get(remote.taskId))?.status, 'working', "it is the server's task");
  // Riverse stops: that task is left working, and the server's is not cancelled.
  await first.close();
  assert.equal((await store.tasks.get(started.id))?.status, 'working');
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal((await service.context.tasks.get(remote.taskId))?.status, 'working', "the server's task runs on");
  // As the next process sees it: its runner is gone (this test's process is the same one).
  await store.tasks.put((await store.tasks.get(started.id))!, stoppedRunner());

  // A process that crashed while waiting left its rows working too: one on a task the server still runs, one it forgot.
  const running = await service.context.tasks.start({
    tool: 'job',
    arguments: { go: join(dir, 'go-2') },
    callId: 'x',
    origin: 'mcp',
  });
  const now = Date.now();
  const leftOver = (id: string, taskId: string) =>
    store.tasks.put(
      {
        id,
        tool: 'remote__job',
        callId: id,
        origin: 'api',
        status: 'working',
        arguments: {},
        createdAt: now,
        updatedAt: now,
        remote: { server: 'remote', tool: 'job', taskId },
      },
      stoppedRunner(),
    );
  await leftOver('picked-up', running.id);
  await leftOver('forgotten', 'no-such-task');
  const second = sharedTasks({ store, tools: { current: registry }, sources: [tools] });
  t.after(() => second.close());
  assert.deepEqual(await second.ready, [], 'neither was interrupted at the start');
  const forgotten = await second.waitForEnd('forgotten');
  assert.equal(forgotten.status, 'interrupted');
  assert.match(forgotten.statusMessage ?? '', /^remote no longer knows its task no-such-task for job/);
  assert.equal((await second.get('picked-up'))?.status, 'working', 'picked up again, not run again');
  assert.equal((await second.get(started.id))?.status, 'working', 'the one left at the stop too');
  await writeFiles(dir, { 'go-1': '', 'go-2': '' });
  for (const id of ['picked-up', started.id]) {
    const picked = await second.waitForEnd(id);
    assert.equal(picked.status, 'completed', id);
    assert.equal(picked.result?.data, 'The job is done.');
  }
});
