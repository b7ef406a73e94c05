// The PostgreSQL store against a real throwaway cluster (one for the file): the Store contract
// (store-contract.ts, each test on a fresh database), then what two replicas rely on (one answer of
// an approval counts, one run begins, a cancel stands), the store recovering by itself when the
// database restarts between two turns' writes, and a slow database as a bounded wait.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { ChatMessage } from '../../models/chat-message.ts';
import { SessionNameTakenError } from '../store-records.ts';
import { StoreError } from '../store-error.ts';
import type { Store } from '../store.ts';
import type { TurnTrace } from '../turn-trace.ts';
import { storeContract } from '../store-contract.ts';
import { openPostgresStore } from './open-postgres-store.ts';
import { type PgCluster, startPgCluster } from './testing/pg-cluster.ts';

let cluster: PgCluster;
let databases = 0;
before(async () => {
  cluster = await startPgCluster();
});
after(() => cluster.stop());

storeContract('PostgreSQL', async () =>
  openPostgresStore(await cluster.createDatabase(`contract_${++databases}`), { traceBatchMs: 5 }),
);

describe('the PostgreSQL store shared by two replicas', () => {
  let url: string;
  let a: Store;
  let b: Store;
  before(async () => {
    url = await cluster.createDatabase('store');
    [a, b] = await Promise.all([
      openPostgresStore(url, { traceBatchMs: 5 }),
      openPostgresStore(url, { traceBatchMs: 5 }),
    ]);
  });
  after(async () => {
    await Promise.allSettled([a?.close(), b?.close()]);
  });

  it('names its database without the password', () => {
    assert.equal(a.kind, 'postgres');
    assert.equal(a.where, url);
  });

  it('keeps messages exactly as appended, NUL characters included, and another replica reads them', async () => {
    const session = await a.session('nul');
    const messages: ChatMessage[] = [
      { role: 'user', content: 'hi\u0000there' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"text":"x\\u0000"}' }] },
      { role: 'tool', toolCallId: 'c1', name: 'echo', content: 'out\u0000put', isError: false },
      { role: 'tool', toolCallId: 'c2', name: 'echo', content: 'plain' },
      { role: 'assistant', content: '日本語 and 中文' },
    ];
    await a.appendMessages(session.id, messages, 'turn-1');
    assert.deepEqual(await b.messages(session.id), messages);
    assert.deepEqual(await b.messageTurns(session.id), ['turn-1', 'turn-1', 'turn-1', 'turn-1', 'turn-1']);
    const listed = (await b.listSessions()).find((one) => one.name === 'nul');
    assert.equal(listed?.messageCount, 2, 'the person’s message and the reply with text');
  });

  it('keeps the order of many messages appended at once, and of appends one after another', async () => {
    const session = await a.session('order');
    const many: ChatMessage[] = Array.from({ length: 300 }, (_, index) => ({ role: 'user', content: `m${index}` }));
    await a.appendMessages(session.id, many.slice(0, 250), 'turn-1');
    for (const message of many.slice(250)) await b.appendMessages(session.id, [message], 'turn-2');
    assert.deepEqual(await a.messages(session.id), many);
  });

  it('appends all or none: a bad message leaves the session as it was', async () => {
    const session = await a.session('atomic');
    await assert.rejects(
      a.appendMessages(session.id, [{ role: 'user', content: 'ok' }, { role: 'nobody' } as unknown as ChatMessage]),
      TypeError,
    );
    await assert.rejects(a.appendMessages('no-such-id', [{ role: 'user', content: 'x' }]), /No session with id/);
    assert.deepEqual(await a.messages(session.id), []);
  });

  it('renames, refuses a taken name, sets the language, and deletes with everything in it', async () => {
    const one = await a.session('first');
    await a.session('second');
    await assert.rejects(a.renameSession('first', 'second'), SessionNameTakenError);
    const renamed = await a.renameSession('first', 'third');
    assert.equal(renamed?.id, one.id);
    await a.setLanguage(one.id, 'ja');
    assert.equal((await b.findSession('third'))?.language, 'ja');
    await a.appendMessages(one.id, [{ role: 'user', content: 'x' }]);
    assert.equal(await b.deleteSession('third'), true);
    assert.deepEqual(await a.messages(one.id), []);
    assert.equal(await a.findSession('third'), undefined);
  });

  it('of two answers to one approval from two replicas, only the first counts; its run begins once', async () => {
    const session = await a.session('approvals');
    const now = new Date();
    await a.approvals.add({
      id: 'ap-1',
      sessionId: session.id,
      turnId: 't',
      callId: 'c',
      tool: 'write_file',
      params: { path: 'a.txt' },
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 60_000).toISOString(),
    });
    assert.deepEqual(
      (await b.approvals.pending()).map((record) => record.id),
      ['ap-1'],
    );
    const answers = await Promise.all([
      a.approvals.decide('ap-1', 'approved'),
      b.approvals.decide('ap-1', 'denied', { reason: 'no' }),
      a.approvals.decide('ap-1', 'denied'),
      b.approvals.decide('ap-1', 'approved', { always: true }),
    ]);
    assert.equal(answers.filter(Boolean).length, 1, JSON.stringify(answers));
    const runs = await Promise.all([a.approvals.setRun('ap-1', 'started'), b.approvals.setRun('ap-1', 'started')]);
    assert.equal(runs.filter(Boolean).length, 1);
    assert.equal(await a.approvals.setRun('ap-1', 'done'), true);
    await a.approvals.allowAlways(session.id, 'write_file');
    assert.equal(await b.approvals.alwaysAllowed(session.id, 'write_file'), true);
    assert.equal(await b.approvals.alwaysAllowed(session.id, 'other'), false);
  });

  it('writes a turn’s tool calls and trace in a batch, and reads them back (lists, prefix, annotation)', async () => {
    const session = await a.session('traces');
    const startedAt = new Date().toISOString();
    a.queueToolCall({
      sessionId: session.id,
      turnId: 'turn-trace-1',
      callId: 'c1',
      tool: 'echo',
      params: { text: 'hi' },
      success: true,
      data: 'hi\u0000',
      durationMs: 3.5,
      startedAt,
    });
    const trace: TurnTrace = {
      id: 'turn-trace-1',
      traceId: '0'.repeat(32),
      sessionId: session.id,
      startedAt,
      durationMs: 12,
      outcome: 'success',
      stopReason: 'answer',
      tools: ['echo'],
      spans: [
        {
          spanId: '1'.repeat(16),
          kind: 'turn',
          name: 'invoke_agent',
          startMs: 0,
          endMs: 12,
          status: 'ok',
          attributes: {},
        },
        {
          spanId: '2'.repeat(16),
          parentId: '1'.repeat(16),
          kind: 'tool-call',
          name: 'execute_tool echo',
          startMs: 1,
          endMs: 4,
          status: 'ok',
          attributes: { 'gen_ai.tool.call.id': 'c1' },
        },
      ],
    };
    a.turnTraces.queue(trace);
    const calls = await a.toolCalls(session.id);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.data, 'hi\u0000');
    assert.deepEqual(calls[0]!.params, { text: 'hi' });
    const [listed] = await b.turnTraces.list({ tool: 'echo', session: 'traces' });
    assert.equal(listed?.id, 'turn-trace-1');
    assert.equal(listed?.toolCalls, 1);
    assert.equal(listed?.session, 'traces');
    assert.equal((await b.turnTraces.get('turn-trace'))?.spans.length, 2, 'found by the start of its id');
    assert.equal(await b.turnTraces.annotateCall('turn-trace-1', 'c1', { 'riverse.task.status': 'completed' }), true);
    const annotated = await a.turnTraces.get('turn-trace-1');
    assert.equal(annotated?.spans[1]?.attributes['riverse.task.status'], 'completed');
    const traces = await b.traces({ tool: 'echo', outcome: 'success' });
    assert.equal(traces[0]?.session, 'traces');
    const stats = await b.toolStats({ tool: 'echo' });
    assert.equal(stats.tools[0]?.calls, 1);
    assert.equal(stats.tools[0]?.p50Ms, 3.5);
    const hand = await a.recordHandRun(
      {
        turnId: 'hand-1',
        callId: 'h',
        tool: 'echo',
        params: {},
        success: false,
        data: '',
        error: 'boom',
        code: 'threw',
        durationMs: 1,
        startedAt,
      },
      'cli',
    );
    assert.equal(hand.byHand, 'cli');
    await a.turnTraces.flush(); // another replica sees a queued trace once its batch is written
    const last = await b.turnTraces.last(true);
    assert.equal(last?.id, 'hand-1');
    assert.equal(last?.session, '');
    assert.equal((await b.traces({ tool: 'echo', outcome: 'failure' }))[0]?.byHand, true);
  });

  it('keeps a response chain any replica continues', async () => {
    const session = await a.session('responses');
    const createdAt = new Date().toISOString();
    await a.responses.add({
      id: 'resp_1',
      sessionId: session.id,
      messages: [{ role: 'user', content: 'one' }],
      body: '{}',
      createdAt,
    });
    await b.responses.add({
      id: 'resp_2',
      sessionId: session.id,
      previousId: 'resp_1',
      messages: [{ role: 'assistant', content: 'two' }],
      body: '{"id":"resp_2"}',
      createdAt,
    });
    assert.deepEqual(await a.responses.conversation('resp_2'), [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
    ]);
    assert.equal((await a.responses.get('resp_2'))?.previousId, 'resp_1');
    assert.equal(await b.responses.delete('resp_1'), true);
    assert.deepEqual(await a.responses.conversation('resp_2'), [{ role: 'assistant', content: 'two' }]);
    assert.equal(await a.responses.conversation('resp_x'), undefined);
  });

  it('keeps tasks: a cancel by one replica stands against a late write of another; interrupts once', async () => {
    const base = {
      tool: 'slow',
      callId: 'c',
      origin: 'turn' as const,
      arguments: { n: 1 },
      createdAt: 1,
      updatedAt: 1,
    };
    await a.tasks.put({ ...base, id: 'task-1', status: 'working' }, 'host:1:1');
    await b.tasks.put({ ...base, id: 'task-1', status: 'cancelled', updatedAt: 2 });
    await a.tasks.put({ ...base, id: 'task-1', status: 'working', updatedAt: 3, progress: { progress: 1 } });
    assert.equal((await b.tasks.get('task-1'))?.status, 'cancelled');
    await a.tasks.put({ ...base, id: 'task-2', status: 'working', createdAt: 2 }, 'host:2:2');
    const [first, second] = await Promise.all([
      a.tasks.interruptRunning('gone', 5, () => true),
      b.tasks.interruptRunning('gone', 5, () => true),
    ]);
    assert.equal(first.length + second.length, 1);
    assert.deepEqual(
      [...(await a.tasks.statuses(['task-1', 'task-2', 'none']))],
      [
        ['task-1', 'cancelled'],
        ['task-2', 'interrupted'],
      ],
    );
    assert.deepEqual(
      (await b.tasks.list({ status: ['interrupted', 'cancelled'] })).map((task) => task.id),
      ['task-2', 'task-1'],
    );
    assert.equal(await a.tasks.prune(10_000_000_000, { ttlMs: 1, maxEnded: 10 }), 2);
  });

  it("tells every replica watching the switches that one was set (a NOTIFY), the setter's too", async () => {
    const heard: string[] = [];
    const stops = await Promise.all([
      a.toolSwitches.watch(() => heard.push('a')),
      b.toolSwitches.watch(() => heard.push('b')),
    ]);
    await a.toolSwitches.set('weather', false);
    while (heard.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(heard.sort(), ['a', 'b']);
    assert.deepEqual(
      [...(await b.toolSwitches.all())].filter(([name]) => name === 'weather'),
      [['weather', false]],
    );
    for (const stop of stops) stop();
    await a.toolSwitches.set('weather', undefined);
  });

  it('keeps the dashboard’s tool switches and MCP sign-ins for every replica', async () => {
    await a.toolSwitches.set('shell', false);
    await a.toolSwitches.set('echo', true);
    assert.deepEqual(
      [...(await b.toolSwitches.all())],
      [
        ['echo', true],
        ['shell', false],
      ],
    );
    await b.toolSwitches.set('shell', undefined);
    assert.deepEqual([...(await a.toolSwitches.all())], [['echo', true]]);
    await a.oauth.saveClient('https://issuer', { client_id: 'abc' });
    assert.deepEqual(await b.oauth.client('https://issuer'), { client_id: 'abc' });
    await a.oauth.saveTokens('https://issuer', 'https://mcp', {
      tokens: { access_token: 't1', token_type: 'Bearer' },
      savedAt: 10,
    });
    await a.oauth.saveTokens('https://other', 'https://mcp', {
      tokens: { access_token: 't2', token_type: 'Bearer' },
      savedAt: 20,
      expiresAt: 99,
    });
    assert.equal((await b.oauth.latest('https://mcp'))?.issuer, 'https://other');
    assert.equal((await b.oauth.tokens('https://issuer', 'https://mcp'))?.tokens.access_token, 't1');
    await b.oauth.saveTokens('https://other', 'https://mcp', undefined);
    assert.equal((await a.oauth.latest('https://mcp'))?.issuer, 'https://issuer');
  });

  it('lost mid-turn: calls reject with a StoreError (store-failed); after a restart the next turn’s write works', async () => {
    const session = await a.session('restart');
    await a.appendMessages(session.id, [{ role: 'user', content: 'before' }], 'turn-a');
    await cluster.down();
    const lost = await a
      .appendMessages(session.id, [{ role: 'user', content: 'lost' }], 'turn-b')
      .catch((error: unknown) => error);
    assert.ok(lost instanceof StoreError, String(lost));
    assert.equal(lost.code, 'store-failed');
    assert.ok(!lost.message.includes('undefined'));
    await cluster.up();
    await a.appendMessages(session.id, [{ role: 'user', content: 'after' }], 'turn-c');
    assert.deepEqual(
      (await b.messages(session.id)).map((message) => message.content),
      ['before', 'after'],
    );
  });

  it('a slow database is a bounded wait: a write blocked past the statement timeout fails with store-failed', async () => {
    const slow = await openPostgresStore(url, { pool: { statementTimeoutMs: 300 } });
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    try {
      const session = await slow.session('slow');
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE');
      const blocked = await slow
        .appendMessages(session.id, [{ role: 'user', content: 'waits' }])
        .catch((error: unknown) => error);
      assert.ok(blocked instanceof StoreError, String(blocked));
      assert.match(blocked.message, /57014|statement timeout/);
      await blocker.query('ROLLBACK');
      await slow.appendMessages(session.id, [{ role: 'user', content: 'then works' }]);
      assert.equal((await slow.messages(session.id)).length, 1);
    } finally {
      await blocker.end();
      await slow.close();
    }
  });
});
