import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TaskRecord } from '../tasks/task-types.ts';
import { clientOffersTasks, createTaskResult, detailedTask, longRunning, TASKS_EXTENSION } from './task-wire.ts';

const task = (fields: Partial<TaskRecord> = {}): TaskRecord => ({
  id: 't1',
  tool: 'report',
  callId: '7',
  origin: 'mcp',
  status: 'working',
  arguments: {},
  createdAt: Date.UTC(2026, 0, 1),
  updatedAt: Date.UTC(2026, 0, 1, 0, 0, 1),
  ...fields,
});
const asResult = (result: { data: string; success: boolean }) => ({
  content: [{ type: 'text', text: result.data }],
  isError: !result.success,
});

test('a CreateTaskResult is flat: ISO times, integer ttlMs and pollIntervalMs, nothing of its outcome', () => {
  assert.deepEqual(createTaskResult(task({ ttlMs: 1500.4 })), {
    resultType: 'task',
    taskId: 't1',
    status: 'working',
    createdAt: '2026-01-01T00:00:00.000Z',
    lastUpdatedAt: '2026-01-01T00:00:01.000Z',
    ttlMs: 1500,
    pollIntervalMs: 500,
  });
});

test("the failure split: a tool's own failure is completed with isError; a host that died, or a restart, is failed with an error", () => {
  const own = detailedTask(
    task({ status: 'completed', result: { success: false, data: '', error: 'no', code: 'threw' } }),
    undefined,
    asResult,
  );
  assert.equal(own.status, 'completed');
  assert.equal((own as { result?: { isError?: boolean } }).result?.isError, true);
  assert.equal('error' in own, false);
  const died = detailedTask(
    task({ status: 'completed', result: { success: false, data: '', error: 'its worker stopped', code: 'crashed' } }),
    undefined,
    asResult,
  );
  assert.equal(died.status, 'failed');
  assert.deepEqual((died as { error?: unknown }).error, {
    code: -32603,
    message: 'its worker stopped',
    data: { code: 'crashed' },
  });
  assert.equal('result' in died, false);
  const restarted = detailedTask(task({ status: 'interrupted', errorCode: 'interrupted' }), undefined, asResult);
  assert.equal(restarted.status, 'failed');
  assert.match((restarted as { error?: { message: string } }).error!.message, /was not run again/);
});

test('a working task with questions is input_required and shows them; without, it is working and shows none', () => {
  const request = { method: 'elicitation/create', params: {} };
  const waiting = detailedTask(task(), { 'ask-1': request }, asResult);
  assert.equal(waiting.status, 'input_required');
  assert.deepEqual((waiting as { inputRequests?: unknown }).inputRequests, { 'ask-1': request });
  const working = detailedTask(task({ progress: { progress: 1, message: 'half done' } }), {}, asResult);
  assert.equal(working.status, 'working');
  assert.equal(working.statusMessage, 'half done');
  assert.equal('inputRequests' in working, false);
});

test('the extension counts when declared for the request, in its _meta, or for the session; long_running as the manifest says', () => {
  const declared = { extensions: { [TASKS_EXTENSION]: {} } };
  assert.equal(clientOffersTasks(declared, undefined, undefined), true);
  assert.equal(clientOffersTasks(undefined, declared, undefined), true);
  assert.equal(clientOffersTasks(undefined, undefined, declared), true);
  assert.equal(clientOffersTasks({ extensions: {} }, {}, { elicitation: {} }), false);
  const manifest = { name: 'x', description: 'x', examples: ['a', 'b'] };
  assert.equal(longRunning({ ...manifest, long_running: 'required' } as never), 'required');
  assert.equal(longRunning({ ...manifest, long_running: 'sometimes' } as never), undefined);
  assert.equal(longRunning(manifest), undefined);
});
