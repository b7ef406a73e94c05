import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteStore } from '../store/sqlite-store.ts';
import { TaskInputs } from './task-inputs.ts';
import { LocalTaskRunner } from './task-runner.ts';
import { stoppedRunner } from './testing/stopped-runner.ts';
import type { TaskRecord } from './task-types.ts';

let root: string;
let counter = 0;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'riverse-task-inputs-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

/** Two processes' stores on one SQLite file (replicas on one machine), with an MCP task's row in it. */
async function twoStores(runner = 'host:1:1') {
  const here = SqliteStore.open(join(root, `data-${++counter}`));
  const elsewhere = SqliteStore.open(here.file.replace(/\/[^/]+$/, ''));
  const now = Date.now();
  const task: TaskRecord = {
    id: `task-${counter}`,
    tool: 'plan',
    callId: 'c1',
    origin: 'mcp',
    status: 'input_required',
    arguments: {},
    createdAt: now,
    updatedAt: now,
  };
  await here.tasks.put(task, runner);
  return { here, elsewhere, task };
}

const WHERE = { method: 'elicitation/create', params: { mode: 'form', message: 'Where to?' } };
const KYOTO = { action: 'accept', content: { answer: 'Kyoto' } };

describe("a task's input requests across processes on one store", () => {
  it('asked in one process, shown and answered in another: the first response per key counts, the call goes on with it', async () => {
    const { here, elsewhere, task } = await twoStores();
    using _here = here;
    using _elsewhere = elsewhere;
    const asking = new TaskInputs(here.taskInputs, 5);
    const other = new TaskInputs(elsewhere.taskInputs, 5);
    let stored = false;
    const asked = asking.ask(task.id, 'place', WHERE, 60_000, new AbortController().signal, () => (stored = true));
    await waitFor(() => stored);
    assert.deepEqual(await other.requests(task.id), { place: WHERE });
    await other.answer(task.id, { place: KYOTO, unknown: { action: 'accept' }, bad: 'not an object' });
    await other.answer(task.id, { place: { action: 'decline' } });
    assert.deepEqual(await asked, KYOTO, 'found in the store by the watch');
    assert.equal(await other.requests(task.id), undefined, 'answered: no longer shown');
    assert.deepEqual((await elsewhere.taskInputs.get(task.id, 'place'))?.response, KYOTO, 'the first response stays');
    assert.equal(await elsewhere.taskInputs.get(task.id, 'unknown'), undefined, 'a key not asked is ignored');
  });

  it('answered in the process that asked: the call goes on at once', async () => {
    const { here, elsewhere, task } = await twoStores();
    using _here = here;
    using _elsewhere = elsewhere;
    const asking = new TaskInputs(here.taskInputs, 60_000); // no watch round in the test's time
    let stored = false;
    const asked = asking.ask(task.id, 'place', WHERE, 60_000, new AbortController().signal, () => (stored = true));
    await waitFor(() => stored);
    await asking.answer(task.id, { place: KYOTO });
    assert.deepEqual(await asked, KYOTO);
  });

  it('its time limit and its task cancelled end the stored request: no process takes a response then', async () => {
    const { here, elsewhere, task } = await twoStores();
    using _here = here;
    using _elsewhere = elsewhere;
    const asking = new TaskInputs(here.taskInputs, 5);
    const other = new TaskInputs(elsewhere.taskInputs, 5);
    assert.deepEqual(await asking.ask(task.id, 'soon', WHERE, 20, new AbortController().signal), { action: 'timeout' });
    const cancel = new AbortController();
    let stored = false;
    const cancelled = asking.ask(task.id, 'later', WHERE, 60_000, cancel.signal, () => (stored = true));
    await waitFor(() => stored);
    cancel.abort();
    assert.deepEqual(await cancelled, { action: 'cancel' });
    await other.answer(task.id, { soon: KYOTO, later: KYOTO });
    for (const key of ['soon', 'later'])
      assert.equal((await elsewhere.taskInputs.get(task.id, key))?.status, 'ended', `${key} takes no response`);
    assert.equal(await other.requests(task.id), undefined);
  });

  it('a task whose process died is interrupted at a start, and its requests end with it', async () => {
    const { here, elsewhere, task } = await twoStores(stoppedRunner());
    using _here = here;
    using _elsewhere = elsewhere;
    const now = Date.now();
    await here.taskInputs.add({
      taskId: task.id,
      key: 'place',
      request: WHERE,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + 60_000).toISOString(),
    });
    const runner = new LocalTaskRunner({
      records: elsewhere.tasks,
      inputs: elsewhere.taskInputs,
      run: async () => ({ success: true, data: '' }),
    });
    assert.deepEqual(
      (await runner.ready).map((interrupted) => interrupted.id),
      [task.id],
    );
    assert.equal((await here.taskInputs.get(task.id, 'place'))?.status, 'ended');
    assert.equal(await runner.inputs.requests(task.id), undefined);
    await runner.close();
  });
});

describe("a task's input requests without a store", () => {
  it('kept in memory: shown, answered in the process, and gone when the task ends', async () => {
    const inputs = new TaskInputs();
    let stored = false;
    const asked = inputs.ask('t1', 'place', WHERE, 60_000, new AbortController().signal, () => (stored = true));
    await waitFor(() => stored);
    assert.deepEqual(await inputs.requests('t1'), { place: WHERE });
    await inputs.answer('t1', { place: KYOTO });
    assert.deepEqual(await asked, KYOTO);
    const cancel = new AbortController();
    const left = inputs.ask('t1', 'when', WHERE, 60_000, cancel.signal);
    await inputs.endTask('t1');
    assert.equal(await inputs.requests('t1'), undefined);
    await inputs.answer('t1', { when: KYOTO });
    cancel.abort();
    assert.deepEqual(await left, { action: 'cancel' }, 'an answer after its task ended reaches no one');
  });
});

async function waitFor(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 1));
}
