// Approvals in a turn, against the real local OpenAI-protocol server with a real tool file that
// appends to a log: whether the tool ran is read from its log, never from what Riverse says.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { replies } from '../models/testing/wire-server.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import { ToolRouter } from '../routing/tool-router.ts';
import { Assistant } from './assistant.ts';
import type { TurnEvent } from './turn-events.ts';
import {
  eventually,
  loadRegistry,
  logLines,
  modelServer,
  tempDir,
  testModel,
  toolMessagesOf,
  type Cleanup,
} from './turn-test-support.ts';

/** `write_note(text)`: appends the text to `tools.write_note.log_file`; needs approval. */
const WRITE_NOTE = `import { appendFileSync } from 'node:fs';
import { BaseTool, ToolResult } from 'riverse';

export class WriteNoteTool extends BaseTool {
  manifest() {
    return {
      name: 'write_note',
      description: 'Writes a note to the notes file',
      parameters: { text: { type: 'string', required: true, description: 'The note' } },
      examples: ['Note that the milk is gone', 'Write down: call Ann'],
      approval: 'always',
    };
  }

  async execute(params, context) {
    if (params.text === 'explode') throw new Error('the pen broke');
    appendFileSync(context.config.log_file, params.text + '\\n');
    return ToolResult.ok('written: ' + params.text);
  }
}
`;

const call = (text: string, id?: string) => ({
  name: 'write_note',
  arguments: { text },
  ...(id === undefined ? {} : { id }),
});

async function setUp(
  t: Cleanup,
  options: { approval?: unknown; approvalTimeoutMs?: number; store?: SqliteStore; stream?: boolean } = {},
) {
  const dir = await tempDir(t);
  const log = join(dir, 'notes.log');
  const registry = await loadRegistry(t, {
    files: { 'write-note.ts': WRITE_NOTE },
    config: {
      tools: {
        isolation: 'none',
        write_note: { log_file: log, ...(options.approval === undefined ? {} : { approval: options.approval }) },
      },
    },
  });
  return { dir, log, registry };
}

/** The turn's events, and a promise of each approval request as it comes. */
function watch() {
  const events: TurnEvent[] = [];
  const requests = () => events.filter((event) => event.type === 'approval-request');
  return {
    events,
    onEvent: (event: TurnEvent) => void events.push(event),
    requests,
    next: async (count: number) => (
      await eventually(() => requests().length >= count, `${count} approval request(s)`), requests()[count - 1]!
    ),
  };
}

describe('approvals in a turn', () => {
  for (const stream of [true, false]) {
    it(`approved once (${stream ? 'streaming' : 'not streaming'}): the call runs after the answer, with the parameters shown`, async (t) => {
      const { log, registry } = await setUp(t);
      const server = await modelServer(t, replies([{ toolCalls: [call('buy milk', 'call_a')] }, { text: 'Noted.' }]));
      const assistant = new Assistant({ model: testModel(server), registry, stream });
      const seen = watch();
      const turn = assistant.turn('Note: buy milk', { onEvent: seen.onEvent });
      const request = await seen.next(1);
      assert.deepEqual(
        { callId: request.callId, tool: request.tool, params: request.params },
        { callId: 'call_a', tool: 'write_note', params: { text: 'buy milk' } },
      );
      assert.deepEqual(logLines(log), [], 'nothing runs before the answer');
      const answered = await assistant.approvals.answer(request.approvalId, {
        decision: 'approve',
        callId: 'call_a',
        tool: 'write_note',
        params: { text: 'buy milk' },
      });
      assert.equal(answered.ok, true);
      const result = await turn;
      assert.equal(result.stopReason, 'answer');
      assert.deepEqual(logLines(log), ['buy milk']);
      assert.equal(result.toolCalls[0]!.result.success, true);
      assert.deepEqual(
        seen.events
          .filter((event) => event.type.startsWith('approval'))
          .map((event) => event.type === 'approval-answered' && event.decision),
        [false, 'approved'],
      );
    });
  }

  it("the call's duration does not count the wait for the person's answer", async (t) => {
    const { registry } = await setUp(t);
    const server = await modelServer(t, replies([{ toolCalls: [call('buy tea', 'call_w')] }, { text: 'Noted.' }]));
    const assistant = new Assistant({ model: testModel(server), registry });
    let clock = performance.now();
    t.mock.method(performance, 'now', () => clock); // moves only when the test says: a minute passes while asked
    const seen = watch();
    const turn = assistant.turn('Note: buy tea', { onEvent: seen.onEvent });
    const request = await seen.next(1);
    clock += 60_000;
    await assistant.approvals.answer(request.approvalId, { decision: 'approve' });
    const result = await turn;
    assert.equal(result.toolCalls[0]!.result.success, true);
    assert.ok(result.toolCalls[0]!.durationMs < 60_000, `${result.toolCalls[0]!.durationMs} ms counts the wait`);
  });

  it('a model without native tool calling (the text protocol): asked, and a denial keeps the tool from running', async (t) => {
    const { log, registry } = await setUp(t);
    const server = await modelServer(
      t,
      replies([
        { text: '```json\n{"tool": "write_note", "arguments": {"text": "typed"}}\n```' },
        { text: 'Not written.' },
      ]),
    );
    const assistant = new Assistant({ model: testModel(server), registry, toolCalling: 'text' });
    const seen = watch();
    const turn = assistant.turn('Write it', { onEvent: seen.onEvent });
    const request = await seen.next(1);
    assert.deepEqual(request.params, { text: 'typed' });
    await assistant.approvals.answer(request.approvalId, { decision: 'deny' });
    const result = await turn;
    assert.equal(result.toolCalls[0]!.result.code, 'denied');
    assert.deepEqual(logLines(log), []);
  });

  it('denied with a reason: never runs, and the model reads the denial and the reason (code denied)', async (t) => {
    const { log, registry } = await setUp(t);
    const server = await modelServer(
      t,
      replies([{ toolCalls: [call('rm everything')] }, { text: 'All right, I will not.' }]),
    );
    const assistant = new Assistant({ model: testModel(server), registry });
    const seen = watch();
    const turn = assistant.turn('Write it', { onEvent: seen.onEvent });
    const request = await seen.next(1);
    await assistant.approvals.answer(request.approvalId, { decision: 'deny', reason: 'not today' });
    const result = await turn;
    assert.deepEqual(logLines(log), []);
    assert.equal(result.toolCalls[0]!.result.code, 'denied');
    const sent = toolMessagesOf(server.requests[1]!)[0]!;
    assert.match(String(sent.content), /denied this call to write_note; it did not run\. Their reason: "not today"/);
  });

  it('no answer within assistant.approval_timeout_ms: a denial with code approval-timeout; a late answer is refused', async (t) => {
    const { log, registry } = await setUp(t);
    const server = await modelServer(t, replies([{ toolCalls: [call('late')] }, { text: 'No answer came.' }]));
    const assistant = new Assistant({ model: testModel(server), registry, approvalTimeoutMs: 50 });
    const seen = watch();
    const result = await assistant.turn('Write it', { onEvent: seen.onEvent });
    assert.equal(result.toolCalls[0]!.result.code, 'approval-timeout');
    assert.deepEqual(logLines(log), []);
    const late = await assistant.approvals.answer(seen.requests()[0]!.approvalId, { decision: 'approve' });
    assert.deepEqual(late.ok ? 'accepted' : late.code, 'not-pending');
    assert.deepEqual(logLines(log), []);
  });

  it('parallel calls each wait for their own answer, given in any order', async (t) => {
    const { log, registry } = await setUp(t);
    const server = await modelServer(
      t,
      replies([
        { toolCalls: [call('first', 'call_1'), call('second', 'call_2'), call('third', 'call_3')] },
        { text: 'Done.' },
      ]),
    );
    const assistant = new Assistant({ model: testModel(server), registry });
    const seen = watch();
    const turn = assistant.turn('Write three', { onEvent: seen.onEvent });
    await seen.next(3);
    const byCall = new Map(seen.requests().map((request) => [request.callId, request.approvalId]));
    // An answer naming another call's id (or changed parameters) is refused and decides nothing.
    const crossed = await assistant.approvals.answer(byCall.get('call_1')!, { decision: 'approve', callId: 'call_2' });
    assert.equal(crossed.ok ? 'accepted' : crossed.code, 'approval-mismatch');
    const changed = await assistant.approvals.answer(byCall.get('call_1')!, {
      decision: 'approve',
      params: { text: 'something else' },
    });
    assert.equal(changed.ok ? 'accepted' : changed.code, 'approval-mismatch');
    await assistant.approvals.answer(byCall.get('call_3')!, { decision: 'approve' });
    await assistant.approvals.answer(byCall.get('call_1')!, { decision: 'deny', reason: 'no' });
    await eventually(() => logLines(log).length === 1, 'the third call');
    await assistant.approvals.answer(byCall.get('call_2')!, { decision: 'approve' });
    const result = await turn;
    assert.deepEqual(logLines(log), ['third', 'second']);
    assert.deepEqual(
      result.toolCalls.map((record) => [record.callId, record.result.code ?? 'ran']),
      [
        ['call_1', 'denied'],
        ['call_2', 'ran'],
        ['call_3', 'ran'],
      ],
    );
  });

  it('"always for this tool in this session": later calls of the session run without asking, another session is asked', async (t) => {
    const { log, registry } = await setUp(t);
    const server = await modelServer(t, (request) =>
      request.body.messages.at(-1)?.role === 'tool'
        ? { text: 'ok' }
        : { toolCalls: [call(`note ${request.body.messages.length}`)] },
    );
    const assistant = new Assistant({ model: testModel(server), registry, approvalTimeoutMs: 100 });
    const seen = watch();
    const first = assistant.turn('one', { session: 'a', onEvent: seen.onEvent });
    await assistant.approvals.answer((await seen.next(1)).approvalId, { decision: 'always' });
    await first;
    await assistant.turn('two', { session: 'a', onEvent: seen.onEvent });
    assert.equal(seen.requests().length, 1, 'not asked again in session a');
    assert.equal(logLines(log).length, 2);
    const other = await assistant.turn('three', { session: 'b', onEvent: seen.onEvent });
    assert.equal(seen.requests().length, 2, 'session b is asked');
    assert.equal(other.toolCalls[0]!.result.code, 'approval-timeout');
    assert.equal(logLines(log).length, 2);
  });

  it('a rule on the parameters (tools.<name>.approval) asks only for the calls it matches', async (t) => {
    const { log, registry } = await setUp(t, { approval: { when: { param: 'text', matches: '^rm' } } });
    const server = await modelServer(
      t,
      replies([{ toolCalls: [call('hello'), call('rm -rf notes')] }, { text: 'ok' }]),
    );
    const assistant = new Assistant({ model: testModel(server), registry, approvalTimeoutMs: 100 });
    const seen = watch();
    const result = await assistant.turn('go', { onEvent: seen.onEvent });
    assert.deepEqual(
      seen.requests().map((request) => request.params),
      [{ text: 'rm -rf notes' }],
    );
    assert.deepEqual(logLines(log), ['hello']);
    assert.equal(result.toolCalls[1]!.result.code, 'approval-timeout');
  });

  it('a tool found through find_tools in a routed turn is asked for like any other', async (t) => {
    const { log, registry } = await setUp(t);
    const server = await modelServer(
      t,
      replies([
        { toolCalls: [{ name: 'find_tools', arguments: { query: 'write a note' } }] },
        { toolCalls: [call('found it')] },
        { text: 'ok' },
      ]),
    );
    const assistant = new Assistant({
      model: testModel(server),
      registry,
      approvalTimeoutMs: 100,
      routing: { max_tools: 1, max_tool_tokens: 1 },
      router: new ToolRouter(),
    });
    const seen = watch();
    const result = await assistant.turn('something', { onEvent: seen.onEvent });
    assert.deepEqual(
      server.requests[0]!.body.tools?.map((tool) => tool.function.name),
      ['find_tools'],
      'a routed turn',
    );
    assert.equal(seen.requests().length, 1);
    assert.equal(result.toolCalls.at(-1)!.result.code, 'approval-timeout');
    assert.deepEqual(logLines(log), []);
  });

  it('a failure after approval keeps the answer: stored as approved, the run marked begun and done', async (t) => {
    const dir = await tempDir(t);
    const store = SqliteStore.open(join(dir, 'data'));
    t.after(async () => await store.close());
    const { registry } = await setUp(t);
    const server = await modelServer(t, replies([{ toolCalls: [call('explode')] }, { text: 'It failed.' }]));
    const assistant = new Assistant({ model: testModel(server), registry, store });
    const seen = watch();
    const turn = assistant.turn('go', { onEvent: seen.onEvent });
    const { approvalId } = await seen.next(1);
    await assistant.approvals.answer(approvalId, { decision: 'approve' });
    const result = await turn;
    assert.equal(result.toolCalls[0]!.result.code, 'threw');
    assert.deepEqual(pick((await store.approvals.get(approvalId))!), { status: 'approved', run: 'done' });
  });

  it('a pending approval survives a restart: answered afterwards, the call runs then, and the conversation gets its result', async (t) => {
    const dir = await tempDir(t);
    const { log, registry } = await setUp(t);
    const server = await modelServer(t, (request) =>
      request.body.messages.some((message) => message.role === 'tool')
        ? { text: 'It is written.' }
        : { toolCalls: [call('survivor', 'call_s'), { name: 'write_note', arguments: { text: 'x' }, id: 'call_t' }] },
    );
    const before = SqliteStore.open(join(dir, 'data'));
    const stop = new AbortController();
    const seen = watch();
    const first = new Assistant({ model: testModel(server), registry, store: before }).turn('write it', {
      signal: stop.signal,
      onEvent: seen.onEvent,
    });
    await seen.next(2);
    // The service goes away while the calls wait: its turn ends, its store is closed.
    stop.abort();
    await first;
    before.close();

    const after = SqliteStore.open(join(dir, 'data'));
    t.after(() => after.close());
    const assistant = new Assistant({ model: testModel(server), registry, store: after });
    const pending = await assistant.approvals.pending();
    assert.deepEqual(
      pending.map((entry) => entry.kind === 'approval' && [entry.callId, entry.params]),
      [
        ['call_s', { text: 'survivor' }],
        ['call_t', { text: 'x' }],
      ],
    );
    const answered = await assistant.approvals.answer(pending[0]!.id, { decision: 'approve' });
    assert.equal(answered.ok && answered.result?.data, 'written: survivor');
    assert.deepEqual(logLines(log), ['survivor'], 'ran once, after the restart');
    await assistant.approvals.answer(pending[1]!.id, { decision: 'deny', reason: 'only one' });
    assert.deepEqual(logLines(log), ['survivor']);
    // The conversation goes on with what happened: the real result and the denial, not "interrupted".
    await assistant.turn('thanks', {});
    const sent = toolMessagesOf(server.requests.at(-1)!).map((message) => String(message.content));
    assert.equal(sent[0], 'written: survivor');
    assert.match(sent[1]!, /denied .* Their reason: "only one"/);
  });

  it('two processes on one store: the answer given through the other runs the call there, and the waiting turn does not run it again', async (t) => {
    const dir = await tempDir(t);
    const { log, registry } = await setUp(t);
    const server = await modelServer(t, (request) =>
      request.body.messages.some((message) => message.role === 'tool') ? { text: 'ok' } : { toolCalls: [call('once')] },
    );
    const here = SqliteStore.open(join(dir, 'data'));
    const there = SqliteStore.open(join(dir, 'data'));
    t.after(() => (here.close(), there.close()));
    const seen = watch();
    const turn = new Assistant({ model: testModel(server), registry, store: here, approvalTimeoutMs: 300 }).turn(
      'write',
      { onEvent: seen.onEvent },
    );
    const { approvalId } = await seen.next(1);
    const other = new Assistant({ model: testModel(server), registry, store: there });
    const answered = await other.approvals.answer(approvalId, { decision: 'approve' });
    assert.equal(answered.ok && answered.result?.data, 'written: once');
    const result = await turn;
    assert.match(result.toolCalls[0]!.result.error ?? '', /approved and run by another Riverse process/);
    assert.deepEqual(logLines(log), ['once'], 'run once, not twice');
  });

  it('an approval given before a restart whose run never began runs once at resume()', async (t) => {
    const dir = await tempDir(t);
    const { log, registry } = await setUp(t);
    const store = SqliteStore.open(join(dir, 'data'));
    t.after(async () => await store.close());
    const session = await store.session('default');
    await store.approvals.add({
      id: 'a1',
      sessionId: session.id,
      turnId: 't1',
      callId: 'c1',
      tool: 'write_note',
      params: { text: 'kept' },
      createdAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    await store.approvals.decide('a1', 'approved');
    const server = await modelServer(t, { text: 'ok' });
    const assistant = new Assistant({ model: testModel(server), registry, store });
    await assistant.approvals.resume();
    await assistant.approvals.resume();
    assert.deepEqual(logLines(log), ['kept']);
  });

  it('an /v1-style turn (complete) refuses calls that need approval by default, with approval-unavailable', async (t) => {
    const { log, registry } = await setUp(t);
    const server = await modelServer(t, (request) =>
      request.body.messages.at(-1)?.role === 'tool' ? { text: 'ok' } : { toolCalls: [call('from v1')] },
    );
    const assistant = new Assistant({ model: testModel(server), registry });
    const result = await assistant.complete({ messages: [{ role: 'user', content: 'write' }] });
    assert.equal(result.toolCalls[0]!.result.code, 'approval-unavailable');
    assert.deepEqual(logLines(log), []);
    const allowed = await assistant.complete({ messages: [{ role: 'user', content: 'write' }], approvals: 'allow' });
    assert.equal(allowed.toolCalls[0]!.result.success, true);
    assert.deepEqual(logLines(log), ['from v1']);
  });
});

function pick(record: { status: string; run: string }) {
  return { status: record.status, run: record.run };
}
