// The turns' traces over HTTP: real turns against the scripted OpenAI-protocol server, a run by
// hand, then the list's filters and one whole tree.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelServer, testModel } from '../../assistant/turn-test-support.ts';
import { replies } from '../../models/testing/wire-server.ts';
import { toolSource } from '../../tool-runtime/test-support.ts';
import { chat, raw, startTestService } from '../server-test-support.ts';

const ECHO = toolSource('echo', { execute: 'return ToolResult.ok(`said ${params.text ?? ""}`);' });
const FAILING = toolSource('failing', { execute: "return ToolResult.fail('the service is down');" });

describe('GET /api/traces/turns and /api/traces/:id', () => {
  it('lists the turns by session, tool, outcome, time and hand; gives one whole tree; refuses what it cannot read', async (t) => {
    const model = await modelServer(
      t,
      replies([
        { toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'hi' } }] },
        { text: 'Echoed.' },
        { status: 400, error: 'no such thing' },
      ]),
    );
    const { url, port } = await startTestService(t, {
      files: { 'echo.ts': ECHO, 'failing.ts': FAILING },
      model: testModel(model),
    });
    const before = new Date().toISOString();
    assert.equal((await chat(url, { session: 'one', message: 'echo hi' })).status, 200);
    assert.equal((await chat(url, { session: 'two', message: 'fail please' })).status, 200);
    await raw(port, '/api/tools/failing/run', { method: 'POST', body: {} });

    const list = async (query: string) => (await raw(port, `/api/traces/turns${query}`)).json.traces as any[];
    const all = await list('');
    assert.equal(all.length, 3);
    assert.equal(all[0].byHand, 'api', 'the newest: the run by hand');
    assert.equal(all[0].session, '');
    assert.deepEqual(
      (await list('?session=one')).map((trace) => [
        trace.session,
        trace.outcome,
        trace.tools,
        trace.modelRequests,
        trace.toolCalls,
      ]),
      [['one', 'success', ['echo'], 2, 1]],
    );
    assert.deepEqual(
      (await list('?outcome=failure')).map((trace) => trace.byHand ?? trace.session),
      ['api', 'two'],
    );
    assert.deepEqual(
      (await list('?tool=failing')).map((trace) => trace.byHand),
      ['api'],
    );
    assert.deepEqual(
      (await list('?byHand=false')).map((trace) => trace.session),
      ['two', 'one'],
    );
    assert.equal((await list(`?since=${before}`)).length, 3);
    assert.equal((await list(`?until=${before}`)).length, 0);
    const one = (await list('?session=one'))[0];
    assert.deepEqual(
      (await list(`?turn=${one.id}`)).map((trace) => trace.id),
      [one.id],
    );
    assert.equal((await list('?limit=1')).length, 1);

    const whole = await raw(port, `/api/traces/${one.id}`);
    assert.equal(whole.status, 200);
    const { trace } = whole.json;
    assert.equal(trace.id, one.id);
    assert.deepEqual(
      trace.spans.map((span: any) => span.name),
      ['invoke_agent', 'route_tools', 'chat test-model', 'execute_tool echo', 'chat test-model'],
    );
    const failed = (await raw(port, '/api/traces/last')).json.trace;
    assert.equal(failed.byHand, 'api');
    const two = (await list('?session=two'))[0];
    const model400 = (await raw(port, `/api/traces/${two.id}`)).json.trace.spans.find(
      (span: any) => span.kind === 'model-request',
    );
    assert.equal(model400.status, 'error');
    assert.equal(model400.errorCode, 'bad-request');

    const missing = await raw(port, '/api/traces/no-such-turn');
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error.code, 'trace-not-found');
    for (const [query, param] of [
      ['?outcome=maybe', 'outcome'],
      ['?since=yesterday', 'since'],
      ['?limit=5000', 'limit'],
      ['?byHand=yes', 'byHand'],
    ]) {
      const bad = await raw(port, `/api/traces/turns${query}`);
      assert.equal(bad.status, 400, query);
      assert.equal(bad.json.error.param, param);
    }
    // The tool calls' list the dashboard reads is as it was.
    const calls = (await raw(port, '/api/traces')).json.traces as any[];
    assert.deepEqual(
      calls.map((call) => call.tool),
      ['failing', 'echo'],
    );
  });
});

describe('GET /api/traces/tools', () => {
  it('per tool: calls in buckets, failures, p50 and p95 of the run time; the window and its bad values', async (t) => {
    const { port, context } = await startTestService(t, {});
    const { store } = context;
    const session = (await store.session('chart')).id;
    const call = async (tool: string, minute: number, durationMs: number, success = true) =>
      await store.recordToolCall({
        sessionId: session,
        turnId: `turn-${minute}`,
        callId: `c-${tool}-${minute}`,
        tool,
        params: {},
        success,
        data: success ? 'ok' : '',
        ...(success ? {} : { error: 'down', code: 'threw' as const }),
        durationMs,
        startedAt: new Date(Date.parse('2026-03-01T10:00:00Z') + minute * 60_000).toISOString(),
      });
    // weather: ten calls over the first hour (one failed, one slow); clock: two in the last minutes.
    for (let minute = 0; minute < 10; minute++)
      await call('weather', minute * 6, minute === 9 ? 900 : 100 + minute, minute !== 3);
    await call('clock', 58, 5);
    await call('clock', 59, 7, false);
    await call('weather', -600, 1); // before the window

    const stats = await raw(port, '/api/traces/tools?since=2026-03-01T10:00:00Z&until=2026-03-01T11:00:00Z&buckets=6');
    assert.equal(stats.status, 200);
    const { since, until, bucketMs, tools } = stats.json;
    assert.deepEqual([since, until, bucketMs], ['2026-03-01T10:00:00.000Z', '2026-03-01T11:00:00.000Z', 600_000]);
    assert.deepEqual(
      tools.map((tool: any) => [tool.tool, tool.calls, tool.failures, tool.p50Ms, tool.p95Ms]),
      [
        ['weather', 10, 1, 104, 900],
        ['clock', 2, 1, 5, 7],
      ],
    );
    assert.deepEqual(
      tools[0].buckets.map((bucket: any) => [bucket.calls, bucket.failures]),
      [
        [2, 0],
        [2, 1],
        [1, 0],
        [2, 0],
        [2, 0],
        [1, 0],
      ],
    );
    assert.equal(tools[0].buckets[0].start, '2026-03-01T10:00:00.000Z');
    assert.deepEqual(tools[1].buckets[5], {
      start: '2026-03-01T10:50:00.000Z',
      calls: 2,
      failures: 1,
      p50Ms: 5,
      p95Ms: 7,
    });
    assert.deepEqual(tools[1].buckets[0], { start: '2026-03-01T10:00:00.000Z', calls: 0, failures: 0 });

    const clock = (
      await raw(port, '/api/traces/tools?tool=clock&since=2026-03-01T00:00:00Z&until=2026-03-02T00:00:00Z')
    ).json;
    assert.deepEqual(
      clock.tools.map((tool: any) => tool.tool),
      ['clock'],
    );
    assert.equal(clock.since, '2026-03-01T10:58:00.000Z', 'the window starts at its first call');
    assert.equal(clock.tools[0].buckets.length, 24);
    assert.deepEqual((await raw(port, '/api/traces/tools?until=2020-01-01T00:00:00Z')).json.tools, []);
    for (const [query, param] of [
      ['?buckets=0', 'buckets'],
      ['?buckets=500', 'buckets'],
      ['?since=soon', 'since'],
    ]) {
      const bad = await raw(port, `/api/traces/tools${query}`);
      assert.equal(bad.status, 400, query);
      assert.equal(bad.json.error.param, param);
    }
  });

  it("a run by hand keeps its result's parts on its call's span, as a turn's call does", async (t) => {
    const PICTURE = toolSource('picture', {
      execute:
        "return { success: true, data: 'drawn', content: [{ type: 'image', data: 'iVBORw==', mimeType: 'image/png' }] };",
    });
    const { port } = await startTestService(t, { files: { 'picture.ts': PICTURE } });
    assert.equal((await raw(port, '/api/tools/picture/run', { method: 'POST', body: {} })).status, 200);
    const { trace } = (await raw(port, '/api/traces/last')).json;
    const call = trace.spans.find((span: any) => span.kind === 'tool-call');
    assert.deepEqual(call.parts, [{ type: 'image', data: 'iVBORw==', mimeType: 'image/png' }]);
    assert.equal(call.attributes['riverse.result.parts'], 1);
  });

  it('a session read gives each message its turn, so that a reply links to its trace', async (t) => {
    const { port, context } = await startTestService(t, {});
    const id = (await context.store.session('linked')).id;
    await context.store.appendMessages(
      id,
      [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ],
      'turn-1',
    );
    const read = await raw(port, '/api/sessions/linked');
    assert.deepEqual(
      read.json.messages.map((message: any) => [message.role, message.turnId]),
      [
        ['user', 'turn-1'],
        ['assistant', 'turn-1'],
      ],
    );
  });
});
