// A turn's trace, recorded from a real turn: the local OpenAI-protocol server (a 503 first, so
// that the adapter retries), two tool files (one needing approval), the real SQLite store.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replies } from '../models/testing/wire-server.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import type { TraceSpan } from '../store/turn-trace.ts';
import { Assistant } from './assistant.ts';
import type { TurnEvent } from './turn-events.ts';
import { eventually, loadRegistry, modelServer, tempDir, testModel, type Cleanup } from './turn-test-support.ts';

const NOTE_TOOL = `import { BaseTool, ToolResult } from 'riverse';
export class NoteTool extends BaseTool {
  manifest() {
    return { name: 'write_note', description: 'Writes a note', approval: 'always', examples: ['Note the milk'],
      parameters: { text: { type: 'string', required: true, description: 'The note' } } };
  }
  async execute(params) { return ToolResult.ok('written: ' + params.text); }
}
`;
const CLOCK_TOOL = `import { BaseTool, ToolResult } from 'riverse';
export class ClockTool extends BaseTool {
  manifest() {
    return { name: 'clock', description: 'Tells the time', examples: ['What time is it?'], parameters: {} };
  }
  async execute() { return ToolResult.fail('the clock stopped'); }
}
`;

async function setUp(t: Cleanup, options: Parameters<typeof SqliteStore.open>[1] = {}) {
  const registry = await loadRegistry(t, {
    files: { 'write-note.ts': NOTE_TOOL, 'clock.ts': CLOCK_TOOL },
    config: { tools: { isolation: 'none' } },
  });
  const store = SqliteStore.open(await tempDir(t), options);
  t.after(async () => await store.close());
  return { registry, store };
}

const spansOf = (spans: readonly TraceSpan[], kind: TraceSpan['kind']) => spans.filter((span) => span.kind === kind);

describe('the trace of a turn', () => {
  it('a retried request and two tool calls (one approved by a person): the whole tree', async (t) => {
    const { registry, store } = await setUp(t);
    const server = await modelServer(
      t,
      replies([
        { status: 503, error: 'busy' },
        {
          toolCalls: [
            { id: 'call_note', name: 'write_note', arguments: { text: 'milk' } },
            { id: 'call_clock', name: 'clock', arguments: {} },
          ],
          usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
        },
        { text: 'Noted; the clock is broken.', usage: { prompt_tokens: 200, completion_tokens: 9, total_tokens: 209 } },
      ]),
    );
    const assistant = new Assistant({ model: testModel(server), registry, store });
    const events: TurnEvent[] = [];
    const turn = assistant.turn('Note milk and tell me the time', {
      session: 'kitchen',
      onEvent: (e) => events.push(e),
    });
    await eventually(() => events.some((event) => event.type === 'approval-request'), 'an approval request');
    const asked = events.find((event) => event.type === 'approval-request')!;
    assert.equal(asked.type, 'approval-request');
    await assistant.approvals.answer(asked.approvalId, { decision: 'approve' });
    const result = await turn;
    assert.equal(result.stopReason, 'answer');

    const [summary] = await store.turnTraces.list({ session: 'kitchen' });
    assert.ok(summary !== undefined, 'a trace of the turn');
    const trace = (await store.turnTraces.get(summary.id))!;
    assert.equal(trace.outcome, 'success');
    assert.equal(trace.stopReason, 'answer');
    assert.deepEqual(trace.tools, ['write_note', 'clock']);
    assert.equal(trace.session, 'kitchen');
    assert.match(trace.traceId, /^[0-9a-f]{32}$/);
    const [root, ...rest] = trace.spans;
    assert.equal(root!.kind, 'turn');
    assert.equal(root!.name, 'invoke_agent');
    assert.equal(root!.parentId, undefined);
    for (const span of rest) {
      assert.match(span.spanId, /^[0-9a-f]{16}$/);
      assert.ok(
        trace.spans.some((parent) => parent.spanId === span.parentId),
        `${span.name} has its parent`,
      );
      assert.ok(span.endMs >= span.startMs, `${span.name} ends after it starts`);
    }

    const routing = spansOf(trace.spans, 'routing');
    assert.equal(routing.length, 1);
    assert.equal(routing[0]!.attributes['riverse.routing.routed'], false);
    assert.deepEqual(routing[0]!.attributes['riverse.routing.offered'], ['clock', 'write_note']);

    const requests = spansOf(trace.spans, 'model-request');
    assert.deepEqual(
      requests.map((span) => [
        span.attributes['riverse.request'],
        span.attributes['riverse.attempt'],
        span.attributes['riverse.retry'],
        span.status,
        span.errorCode,
      ]),
      [
        [1, 1, false, 'error', 'server-error'],
        [1, 2, true, 'ok', undefined],
        [2, 1, false, 'ok', undefined],
      ],
    );
    const answered = requests[1]!.attributes;
    assert.equal(answered['gen_ai.provider.name'], 'openai');
    assert.equal(answered['gen_ai.request.model'], 'test-model');
    assert.equal(answered['gen_ai.usage.input_tokens'], 120);
    assert.equal(answered['gen_ai.usage.output_tokens'], 30);
    assert.deepEqual(answered['gen_ai.response.finish_reasons'], ['tool-calls']);
    assert.equal(typeof answered['riverse.time_to_first_token_ms'], 'number');
    assert.deepEqual(requests[2]!.attributes['gen_ai.response.finish_reasons'], ['stop']);

    const calls = spansOf(trace.spans, 'tool-call');
    assert.deepEqual(
      calls.map((span) => [span.name, span.attributes['gen_ai.tool.call.id'], span.status, span.errorCode]),
      [
        ['execute_tool write_note', 'call_note', 'ok', undefined],
        ['execute_tool clock', 'call_clock', 'error', undefined],
      ],
    );
    assert.equal(calls[0]!.attributes['riverse.isolation'], 'none');
    assert.equal(calls[0]!.attributes['riverse.result.chars'], 'written: milk'.length);
    assert.equal(typeof calls[0]!.attributes['riverse.approval.wait_ms'], 'number');
    assert.equal(calls[1]!.attributes['riverse.approval.wait_ms'], undefined, 'the clock needs no approval');
    const approvals = spansOf(trace.spans, 'approval');
    assert.equal(approvals.length, 1);
    assert.equal(approvals[0]!.parentId, calls[0]!.spanId, 'the wait sits under its call');
    assert.equal(approvals[0]!.attributes['riverse.approval.decision'], 'approved');
  });

  it("a call's parts (bytes capped) and its progress are kept on its span", async (t) => {
    const PICTURE_TOOL = `import { BaseTool, ToolResult } from 'riverse';
export class PictureTool extends BaseTool {
  manifest() {
    return { name: 'picture', description: 'Draws a picture', examples: ['Draw'], parameters: {} };
  }
  async execute(params, context) {
    for (let step = 1; step <= 3; step++) context.progress(step, 3, 'drawing ' + step);
    return { success: true, data: 'drawn', content: [
      { type: 'text', text: 'drawn' },
      { type: 'image', data: new Uint8Array([1, 2, 3]), mimeType: 'image/png' },
      { type: 'image', data: new Uint8Array(100000), mimeType: 'image/jpeg' },
    ] };
  }
}
`;
    const registry = await loadRegistry(t, {
      files: { 'picture.ts': PICTURE_TOOL },
      config: { tools: { isolation: 'none' } },
    });
    const store = SqliteStore.open(await tempDir(t));
    t.after(async () => await store.close());
    const server = await modelServer(
      t,
      replies([{ toolCalls: [{ id: 'call_pic', name: 'picture', arguments: {} }] }, { text: 'Here it is.' }]),
    );
    const assistant = new Assistant({ model: testModel(server), registry, store });
    assert.equal((await assistant.turn('Draw', { session: 'art' })).stopReason, 'answer');
    const trace = (await store.turnTraces.last(false))!;
    const [call] = spansOf(trace.spans, 'tool-call');
    assert.deepEqual(call!.parts, [
      { type: 'text', text: 'drawn' },
      { type: 'image', data: 'AQID', mimeType: 'image/png' },
      { type: 'image', mimeType: 'image/jpeg', bytes: 100000, omitted: true },
    ]);
    assert.ok((call!.progress?.length ?? 0) >= 1, 'progress is kept');
    for (const update of call!.progress ?? []) {
      assert.equal(update.total, 3);
      assert.ok(update.atMs >= call!.startMs && update.atMs <= call!.endMs, 'within the call');
    }
  });

  it('many turns are written in one batch, when something reads them', async (t) => {
    // The batch's timer never fires during the test: the read is what writes.
    const { registry, store } = await setUp(t, { traceBatchMs: 3_600_000 });
    const server = await modelServer(t, { text: 'Hi.' });
    const assistant = new Assistant({ model: testModel(server), registry, store });
    for (let i = 0; i < 5; i++) await assistant.turn(`hello ${i}`, { session: 'batch' });
    assert.equal(store.turnTraces.writes, 0, 'nothing written during the turns');
    const traces = await store.turnTraces.list({ session: 'batch' });
    assert.equal(traces.length, 5);
    assert.equal(store.turnTraces.writes, 1, 'five turns, one write');
    assert.deepEqual(
      traces.map((trace) => [trace.modelRequests, trace.toolCalls, trace.outcome]),
      Array(5).fill([1, 0, 'success']),
    );
  });

  it("the turns' tool calls are written with their traces, in the same batch", async (t) => {
    const { registry, store } = await setUp(t, { traceBatchMs: 3_600_000 });
    const turns = 3;
    const server = await modelServer(
      t,
      replies(
        Array.from({ length: turns }, (_, i) => [
          { toolCalls: [{ id: `call_${i}`, name: 'clock', arguments: {} }] },
          { text: 'The clock is broken.' },
        ]).flat(),
      ),
    );
    const assistant = new Assistant({ model: testModel(server), registry, store });
    for (let i = 0; i < turns; i++) await assistant.turn(`what time is it? ${i}`, { session: 'calls' });
    const { DatabaseSync } = await import('node:sqlite');
    const other = new DatabaseSync(store.file);
    t.after(() => other.close());
    assert.equal(other.prepare('SELECT count(*) AS n FROM tool_calls').get()?.n, 0, 'no write during the turns');
    const session = await store.session('calls');
    assert.deepEqual(
      (await store.toolCalls(session.id)).map((call) => [call.callId, call.tool, call.success]),
      Array.from({ length: turns }, (_, i) => [`call_${i}`, 'clock', false]),
      'every call recorded, in order',
    );
    assert.equal(store.turnTraces.writes, 1, 'the traces in one write, with the calls');
    assert.deepEqual(
      (await store.turnTraces.list({ session: 'calls' })).map((trace) => trace.toolCalls),
      Array(turns).fill(1),
    );
  });

  it('a store that fails to write traces is reported and the turn is not broken', async (t) => {
    const reported: unknown[] = [];
    const { registry, store } = await setUp(t, { onTraceError: (error) => reported.push(error) });
    const server = await modelServer(t, { text: 'Still here.' });
    const assistant = new Assistant({ model: testModel(server), registry, store });
    // The table goes away under the store: every write of a batch fails.
    const { DatabaseSync } = await import('node:sqlite');
    const other = new DatabaseSync(store.file);
    other.exec('DROP TABLE turn_traces');
    other.close();
    const result = await assistant.turn('hello', { session: 'broken' });
    assert.equal(result.stopReason, 'answer');
    assert.equal(result.text, 'Still here.');
    await store.turnTraces.flush();
    assert.equal(reported.length, 1);
    assert.match(String(reported[0]), /turn_traces/);
    assert.equal((await assistant.history('broken')).length, 2, 'the conversation is stored');
  });

  it('keeps traces by count and by age', async (t) => {
    const { registry, store } = await setUp(t, { traceRetention: { maxCount: 3 } });
    const server = await modelServer(t, { text: 'Hi.' });
    const assistant = new Assistant({ model: testModel(server), registry, store });
    for (let i = 0; i < 5; i++) {
      await assistant.turn(`hello ${i}`, { session: 'kept' });
      await store.turnTraces.flush();
    }
    assert.equal((await store.turnTraces.list()).length, 3);
    const [newest] = await store.turnTraces.list();
    const old = (await store.turnTraces.get(newest!.id))!;
    // A trace from 15 days ago (past the default 14) goes with the next write.
    store.turnTraces.queue({ ...old, id: 'old-turn', startedAt: new Date(Date.now() - 15 * 86_400_000).toISOString() });
    await store.turnTraces.flush();
    assert.equal(await store.turnTraces.get('old-turn'), undefined);
    assert.equal((await store.turnTraces.list()).length, 3);
  });
});
