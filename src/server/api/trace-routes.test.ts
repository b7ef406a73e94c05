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
