import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteStore } from '../store/sqlite-store.ts';
import { memoryTasks, type TaskRecords } from '../store/task-store.ts';
import type { CheckedToolResult } from '../tools/tool-result.ts';
import { cancelStored, LocalTaskRunner, type TaskCallHooks } from './task-runner.ts';
import type { StartTaskRequest, TaskRecord } from './task-types.ts';
import { stoppedRunner } from './testing/stopped-runner.ts';

let root: string;
let counter = 0;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'riverse-tasks-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

/** A call the test ends by hand: its hooks and a function that answers it. */
function heldCalls() {
  const calls: Array<{ request: StartTaskRequest; hooks: TaskCallHooks; answer: (result: CheckedToolResult) => void }> =
    [];
  const run = (request: StartTaskRequest, hooks: TaskCallHooks) =>
    new Promise<CheckedToolResult>((resolve) => {
      calls.push({ request, hooks, answer: resolve });
      hooks.signal.addEventListener('abort', () =>
        resolve({ success: false, data: '', error: 'aborted', code: 'aborted' }),
      );
    });
  return { calls, run };
}

const request = (sessionId?: string): StartTaskRequest => ({
  tool: 'slow_report',
  arguments: { pages: 3 },
  callId: 'call_1',
  origin: 'turn',
  ...(sessionId === undefined ? {} : { sessionId }),
});

const settle = () => new Promise((resolve) => setImmediate(resolve));

for (const [kind, open] of [
  ['SQLite', () => SqliteStore.open(join(root, `data-${++counter}`)).tasks],
  ['memory', () => memoryTasks()],
] as Array<[string, () => TaskRecords]>) {
  describe(`LocalTaskRunner over the ${kind} store`, () => {
    it('answers a working record at once, reports progress, and ends completed with the result', async () => {
      const { calls, run } = heldCalls();
      const runner = new LocalTaskRunner({ records: open(), run });
      const seen: TaskRecord[] = [];
      runner.onChange((task) => seen.push(task));
      const task = await runner.start(request('s1'));
      assert.equal(task.status, 'working');
      assert.equal(task.tool, 'slow_report');
      await settle();
      assert.equal(calls.length, 1);
      calls[0]!.hooks.progress({ progress: 1, total: 3, message: 'page 1' });
      assert.deepEqual((await runner.get(task.id))?.progress, { progress: 1, total: 3, message: 'page 1' });
      assert.deepEqual(
        (await runner.list({ status: 'working' })).map((t) => t.id),
        [task.id],
      );
      const ended = runner.waitForEnd(task.id);
      calls[0]!.answer({ success: true, data: 'three pages' });
      const done = await ended;
      assert.equal(done.status, 'completed');
      assert.equal(done.result?.data, 'three pages');
      assert.equal((await runner.get(task.id))?.status, 'completed');
      assert.deepEqual(
        seen.map((t) => t.status),
        ['working', 'working', 'completed'],
      );
      assert.deepEqual(
        (await runner.undelivered('s1')).map((t) => t.id),
        [task.id],
      );
      assert.equal(await runner.markDelivered(task.id), true);
      assert.equal(await runner.markDelivered(task.id), false);
      assert.deepEqual(await runner.undelivered('s1'), []);
    });

    it('cancels a running task: its signal fires, it ends cancelled, and a late result does not change it', async () => {
      const { calls, run } = heldCalls();
      const runner = new LocalTaskRunner({ records: open(), run });
      const task = await runner.start(request());
      await settle();
      const cancelled = await runner.cancel(task.id);
      assert.equal(cancelled?.status, 'cancelled');
      assert.equal(calls[0]!.hooks.signal.aborted, true);
      calls[0]!.answer({ success: true, data: 'too late' });
      await settle();
      assert.equal((await runner.get(task.id))?.status, 'cancelled');
      assert.equal((await runner.get(task.id))?.result, undefined);
      // Cancelling again, or an unknown id: the record as it is, and undefined.
      assert.equal((await runner.cancel(task.id))?.status, 'cancelled');
      assert.equal(await runner.cancel('no-such-task'), undefined);
      await assert.rejects(runner.waitForEnd('no-such-task'), /There is no task no-such-task/);
    });

    it('ends a task failed when its host crashed, and completed when the tool itself failed', async () => {
      const { calls, run } = heldCalls();
      const runner = new LocalTaskRunner({ records: open(), run });
      const crashed = await runner.start(request());
      const own = await runner.start(request());
      await settle();
      calls[0]!.answer({ success: false, data: '', error: 'the host exited', code: 'crashed' });
      calls[1]!.answer({ success: false, data: '', error: 'no such report' });
      const [a, b] = await Promise.all([runner.waitForEnd(crashed.id), runner.waitForEnd(own.id)]);
      assert.equal(a.status, 'failed');
      assert.equal(a.errorCode, 'crashed');
      assert.equal(b.status, 'completed');
      assert.equal(b.result?.success, false);
    });

    it('marks input_required while the call asks the person', async () => {
      const { calls, run } = heldCalls();
      const runner = new LocalTaskRunner({ records: open(), run });
      const task = await runner.start(request());
      await settle();
      calls[0]!.hooks.asking(true);
      assert.equal((await runner.get(task.id))?.status, 'input_required');
      calls[0]!.hooks.asking(false);
      assert.equal((await runner.get(task.id))?.status, 'working');
      await runner.close();
    });

    it('takes over a call already running, which then ends the task', async () => {
      const runner = new LocalTaskRunner({ records: open(), run: heldCalls().run });
      let answer: (result: CheckedToolResult) => void = () => {};
      const result = new Promise<CheckedToolResult>((resolve) => (answer = resolve));
      const { task, progress } = runner.adopt(request('s2'), { result, cancel: () => {} });
      assert.equal(task.status, 'working');
      progress({ progress: 5 });
      assert.equal((await runner.get(task.id))?.progress?.progress, 5);
      answer({ success: true, data: 'late but whole' });
      assert.equal((await runner.waitForEnd(task.id)).result?.data, 'late but whole');
    });
  });
}

describe('LocalTaskRunner across a restart', () => {
  it('ends as interrupted the tasks a stopped process left working, and runs none of them again', async () => {
    const dir = join(root, `data-${++counter}`);
    const first = SqliteStore.open(dir);
    // A row as a process that died left it: working, its runner a pid that is not running.
    const now = Date.now();
    await first.tasks.put(
      {
        id: 'left-over',
        tool: 'slow_report',
        callId: 'call_9',
        sessionId: 'sess',
        origin: 'turn',
        status: 'working',
        arguments: {},
        createdAt: now,
        updatedAt: now,
      },
      stoppedRunner(),
    );
    await first.close();
    using store = SqliteStore.open(dir);
    let runs = 0;
    const runner = new LocalTaskRunner({
      records: store.tasks,
      run: async () => {
        runs++;
        return { success: true, data: '' };
      },
    });
    const task = await runner.get('left-over');
    assert.equal(task?.status, 'interrupted');
    assert.equal(task?.errorCode, 'interrupted');
    assert.match(task?.statusMessage ?? '', /Riverse stopped while this task was running/);
    assert.deepEqual(
      (await runner.ready).map((t) => t.id),
      ['left-over'],
    );
    assert.equal(runs, 0);
    // The interruption is delivered to its session like any end.
    assert.deepEqual(
      (await runner.undelivered('sess')).map((t) => t.id),
      ['left-over'],
    );
  });

  it('leaves alone the tasks of a process that is still running', async () => {
    using store = SqliteStore.open(join(root, `data-${++counter}`));
    const runner = new LocalTaskRunner({ records: store.tasks, run: heldCalls().run });
    // This process's runner holds a working task; a second runner (another start on the same file) must not end it.
    const task = await runner.start(request());
    const second = new LocalTaskRunner({ records: store.tasks, run: heldCalls().run });
    assert.equal((await second.get(task.id))?.status, 'working');
    // Closing ends it as interrupted: nothing is left working behind.
    await runner.close();
    assert.equal((await second.get(task.id))?.status, 'interrupted');
  });

  it('stops a call when another process cancelled its task in the store', async () => {
    using store = SqliteStore.open(join(root, `data-${++counter}`));
    const { calls, run } = heldCalls();
    const runner = new LocalTaskRunner({ records: store.tasks, run, watchMs: 5 });
    const task = await runner.start(request());
    await settle();
    assert.equal((await cancelStored(store.tasks, task.id))?.status, 'cancelled');
    const ended = await runner.waitForEnd(task.id);
    assert.equal(ended.status, 'cancelled');
    assert.equal(calls[0]!.hooks.signal.aborted, true);
    // An ended task's row does not change: a progress write after the cancel does not bring it back.
    calls[0]!.hooks.progress({ progress: 9 });
    assert.equal((await store.tasks.get(task.id))?.status, 'cancelled');
  });

  it('a task cancelled through another runner of the store (another replica) stops where it runs', async () => {
    using store = SqliteStore.open(join(root, `data-${++counter}`));
    using other = SqliteStore.open(store.file.replace(/\/[^/]+$/, ''));
    const { calls, run } = heldCalls();
    const runner = new LocalTaskRunner({ records: store.tasks, run, watchMs: 5 });
    const elsewhere = new LocalTaskRunner({ records: other.tasks, run: heldCalls().run, watchMs: 5 });
    const task = await runner.start(request());
    await settle();
    assert.equal((await elsewhere.cancel(task.id))?.status, 'cancelled');
    assert.equal((await runner.waitForEnd(task.id)).status, 'cancelled');
    assert.equal(calls[0]!.hooks.signal.aborted, true);
    await elsewhere.close();
    await runner.close();
  });

  it('keeps ended tasks by their ttlMs, and prunes those past it', async () => {
    using store = SqliteStore.open(join(root, `data-${++counter}`));
    const base = { tool: 't', callId: 'c', origin: 'api' as const, arguments: {}, createdAt: 0 };
    await store.tasks.put({ ...base, id: 'old', status: 'completed', updatedAt: 1_000, ttlMs: 10 });
    await store.tasks.put({ ...base, id: 'kept', status: 'completed', updatedAt: 1_000 });
    await store.tasks.put({ ...base, id: 'running', status: 'working', updatedAt: 0, ttlMs: 1 });
    assert.equal(await store.tasks.prune(2_000), 1);
    assert.deepEqual((await store.tasks.list()).map((t) => t.id).sort(), ['kept', 'running']);
  });
});
