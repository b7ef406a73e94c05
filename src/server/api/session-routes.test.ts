// /api/sessions and /api/traces over real HTTP, against a real store in a temp folder.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { raw, startTestService, type TestService } from '../server-test-support.ts';

/** Two sessions with messages and traces, written as turns would write them; the trip last. */
async function seed(service: TestService): Promise<{ work: string; trip: string }> {
  const { store } = service.context;
  const work = (await store.session('work')).id;
  const trip = (await store.session('東京 trip')).id;
  await store.appendMessages(work, [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'hello' },
  ]);
  await new Promise((resolve) => setTimeout(resolve, 5)); // a later updatedAt (they are kept to the millisecond)
  await store.appendMessages(trip, [
    { role: 'user', content: '天気は？' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"東京"}' }] },
    { role: 'tool', toolCallId: 'c1', name: 'weather', content: 'sunny' },
  ]);
  const trace = { turnId: 't', params: { city: '東京' }, data: 'sunny', durationMs: 5 };
  await store.recordToolCall({
    ...trace,
    sessionId: trip,
    callId: 'c1',
    tool: 'weather',
    success: true,
    startedAt: '2026-01-01T10:00:00.000Z',
  });
  await store.recordToolCall({
    ...trace,
    sessionId: trip,
    callId: 'c2',
    tool: 'clock',
    success: false,
    data: '',
    error: 'no clock',
    code: 'threw',
    startedAt: '2026-01-01T11:00:00.000Z',
  });
  await store.recordToolCall({
    ...trace,
    sessionId: work,
    callId: 'c3',
    tool: 'weather',
    success: true,
    startedAt: '2026-01-02T10:00:00.000Z',
  });
  return { work, trip };
}

describe('/api/sessions', () => {
  it('lists sessions newest first, with their message counts, and reads one', async (t) => {
    const service = await startTestService(t);
    const { trip } = await seed(service);
    const list = await raw(service.port, '/api/sessions');
    assert.deepEqual(
      list.json.sessions.map(({ name, messageCount }: { name: string; messageCount: number }) => ({
        name,
        messageCount,
      })),
      [
        { name: '東京 trip', messageCount: 1 }, // the question: its tool call and result are not counted
        { name: 'work', messageCount: 2 },
      ],
    );
    const read = await raw(service.port, `/api/sessions/${encodeURIComponent('東京 trip')}`);
    assert.equal(read.status, 200);
    assert.equal(read.json.session.id, trip);
    assert.deepEqual(read.json.messages[1], {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"東京"}' }],
    });
    assert.deepEqual(read.json.messages[2], { role: 'tool', toolCallId: 'c1', name: 'weather', content: 'sunny' });
    const missing = await raw(service.port, '/api/sessions/nobody');
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error.code, 'session-not-found');
  });

  it('renames (409 when the name is taken, 404 when there is none) and deletes with its traces', async (t) => {
    const service = await startTestService(t);
    const { work } = await seed(service);
    const renamed = await raw(service.port, '/api/sessions/work', { method: 'PATCH', body: { name: 'Work stuff' } });
    assert.equal(renamed.status, 200);
    assert.deepEqual(
      { id: renamed.json.session.id, name: renamed.json.session.name },
      { id: work, name: 'Work stuff' },
    );
    const taken = await raw(service.port, '/api/sessions/Work%20stuff', {
      method: 'PATCH',
      body: { name: '東京 trip' },
    });
    assert.equal(taken.status, 409);
    assert.equal(taken.json.error.code, 'session-exists');
    assert.equal((await raw(service.port, '/api/sessions/work', { method: 'PATCH', body: { name: 'x' } })).status, 404);
    assert.equal(
      (await raw(service.port, '/api/sessions/Work%20stuff', { method: 'PATCH', body: { name: '' } })).json.error.param,
      'name',
    );
    const deleted = await raw(service.port, '/api/sessions/Work%20stuff', { method: 'DELETE' });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assert.equal((await raw(service.port, '/api/sessions/Work%20stuff', { method: 'DELETE' })).status, 404);
    assert.deepEqual(
      (await raw(service.port, '/api/traces')).json.traces.map((trace: { callId: string }) => trace.callId),
      ['c2', 'c1'],
    );
  });
});

describe('GET /api/traces', () => {
  it('lists tool calls newest first, filtered by tool, outcome, session and time, limited', async (t) => {
    const service = await startTestService(t);
    const { trip } = await seed(service);
    const calls = async (query: string) =>
      (await raw(service.port, `/api/traces${query}`)).json.traces.map((trace: { callId: string }) => trace.callId);
    assert.deepEqual(await calls(''), ['c3', 'c2', 'c1']);
    const [first] = (await raw(service.port, '/api/traces?tool=clock')).json.traces;
    assert.deepEqual(first, {
      id: first.id,
      session: '東京 trip',
      sessionId: trip,
      turnId: 't',
      callId: 'c2',
      tool: 'clock',
      params: { city: '東京' },
      success: false,
      data: '',
      error: 'no clock',
      code: 'threw',
      durationMs: 5,
      startedAt: '2026-01-01T11:00:00.000Z',
    });
    assert.deepEqual(await calls('?outcome=success'), ['c3', 'c1']);
    assert.deepEqual(await calls(`?session=${encodeURIComponent('東京 trip')}&outcome=success`), ['c1']);
    assert.deepEqual(await calls('?since=2026-01-01T10:30:00Z&until=2026-01-02T00:00:00Z'), ['c2']);
    assert.deepEqual(await calls('?limit=2'), ['c3', 'c2']);
    assert.deepEqual(await calls('?tool=&outcome='), ['c3', 'c2', 'c1']);
  });

  it('names a filter it cannot read', async (t) => {
    const { port } = await startTestService(t);
    for (const [query, param] of [
      ['outcome=maybe', 'outcome'],
      ['since=yesterday', 'since'],
      ['until=2026-13-45', 'until'],
      ['limit=1001', 'limit'],
      ['limit=-1', 'limit'],
      ['limit=2.5', 'limit'],
    ] as const) {
      const response = await raw(port, `/api/traces?${query}`);
      assert.equal(response.status, 400, query);
      assert.equal(response.json.error.param, param, query);
    }
  });
});
