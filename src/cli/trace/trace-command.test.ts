// `riverse trace` as a person runs it: a real `riverse ask` against the local OpenAI-protocol
// server (the weather tool against the local wttr.in), then the trace printed; and the tree's
// exact lines for a trace of known times.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TurnTrace } from '../../store/turn-trace.ts';
import { cliSetup, runRiverse, weatherModel } from '../assistant-cli-test-support.ts';
import { renderTrace } from './render-trace.ts';
import { TRACE_TEXT } from './trace-text.ts';

const T0 = Date.parse('2026-12-01T09:00:00.000Z');
const TRACE: TurnTrace & { session: string } = {
  id: 'turn-1',
  traceId: '0123456789abcdef0123456789abcdef',
  sessionId: 's',
  session: 'kitchen',
  startedAt: '2026-12-01T09:00:00.000Z',
  durationMs: 2_500,
  outcome: 'success',
  stopReason: 'answer',
  tools: ['write_note'],
  spans: [
    { spanId: 'a', kind: 'turn', name: 'invoke_agent', startMs: T0, endMs: T0 + 2_500, status: 'ok', attributes: {} },
    {
      spanId: 'b',
      parentId: 'a',
      kind: 'routing',
      name: 'route_tools',
      startMs: T0,
      endMs: T0,
      status: 'ok',
      attributes: {
        'riverse.routing.offered_count': 2,
        'riverse.routing.offered': ['clock', 'write_note'],
        'riverse.routing.routed': false,
      },
    },
    {
      spanId: 'c',
      parentId: 'a',
      kind: 'model-request',
      name: 'chat gpt-x',
      startMs: T0,
      endMs: T0 + 40,
      status: 'error',
      errorCode: 'server-error',
      attributes: { 'riverse.request': 1, 'riverse.attempt': 1 },
    },
    {
      spanId: 'd',
      parentId: 'a',
      kind: 'model-request',
      name: 'chat gpt-x',
      startMs: T0 + 40,
      endMs: T0 + 400,
      status: 'ok',
      attributes: {
        'riverse.request': 1,
        'riverse.attempt': 2,
        'riverse.retry_delay_ms': 100,
        'riverse.time_to_first_token_ms': 180,
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 30,
        'gen_ai.response.finish_reasons': ['tool-calls'],
      },
    },
    {
      spanId: 'e',
      parentId: 'a',
      kind: 'tool-call',
      name: 'execute_tool write_note',
      startMs: T0 + 400,
      endMs: T0 + 2_000,
      status: 'ok',
      attributes: {
        'gen_ai.tool.call.id': 'call_1',
        'riverse.duration_ms': 12.5,
        'riverse.result.chars': 13,
        'riverse.isolation': 'process',
      },
    },
    {
      spanId: 'f',
      parentId: 'e',
      kind: 'approval',
      name: 'approval write_note',
      startMs: T0 + 400,
      endMs: T0 + 1_980,
      status: 'ok',
      attributes: { 'riverse.approval.decision': 'approved' },
    },
    {
      spanId: 'g',
      parentId: 'a',
      kind: 'model-request',
      name: 'chat gpt-x',
      startMs: T0 + 2_000,
      endMs: T0 + 2_500,
      status: 'ok',
      attributes: {
        'riverse.request': 2,
        'riverse.attempt': 1,
        'gen_ai.usage.input_tokens': 200,
        'gen_ai.usage.output_tokens': 9,
        'gen_ai.usage.cache_read.input_tokens': 64,
        'gen_ai.response.finish_reasons': ['stop'],
      },
    },
  ],
};

describe('riverse trace', () => {
  it('prints the tree: each span under its parent, with what it took and how it ended', () => {
    assert.equal(
      renderTrace(TRACE, TRACE_TEXT.en),
      [
        'turn turn-1 · session kitchen · 2026-12-01 09:00:00Z · 2.50 s · answer',
        '├─ route_tools · 2 tool(s) offered: clock, write_note',
        '├─ chat gpt-x · request 1 · 40 ms · failed: server-error',
        '├─ chat gpt-x · request 1, attempt 2 (retry) · 360 ms · after waiting 100 ms · first token 180 ms · tokens in 120 · out 30 · stop: tool-calls',
        '├─ execute_tool write_note · call_1 · 13 ms · ok · 13 chars · isolation process',
        '│  └─ approval write_note · waited 1.58 s for a person: approved',
        '└─ chat gpt-x · request 2 · 500 ms · tokens in 200 · out 9 · cached 64 · stop: stop',
        '',
      ].join('\n'),
    );
    const zh = renderTrace(TRACE, TRACE_TEXT.zh);
    assert.match(zh, /^回合 turn-1 · 会话 kitchen/);
    assert.match(zh, /等待用户 1\.58 s：approved/);
    assert.match(renderTrace(TRACE, TRACE_TEXT.ja), /人の承認を 1\.58 s 待機：approved/);
  });

  it("prints a call's parts under it: type and size, a text part's text cut to 200 characters", () => {
    const call = {
      spanId: 'c',
      parentId: 'a',
      kind: 'tool-call' as const,
      name: 'execute_tool chart',
      startMs: T0,
      endMs: T0 + 20,
      status: 'ok' as const,
      attributes: { 'gen_ai.tool.call.id': 'call_9' },
      parts: [
        { type: 'text' as const, text: `Sales\nby month ${'x'.repeat(300)}`, chars: 5_000 },
        { type: 'image' as const, data: Buffer.alloc(3_000).toString('base64'), mimeType: 'image/png' },
        { type: 'audio' as const, mimeType: 'audio/wav', bytes: 90_000, omitted: true as const },
        { type: 'resource' as const, uri: 'file:///tmp/sales.csv', mimeType: 'text/csv', text: 'month,total' },
      ],
    };
    const trace = { ...TRACE, spans: [TRACE.spans[0]!, call] };
    const lines = renderTrace(trace, TRACE_TEXT.en).trimEnd().split('\n');
    assert.equal(lines[1], '└─ execute_tool chart · call_9 · 20 ms · ok');
    assert.equal(lines[2], `   ├─ part 1: text · 5000 chars · "Sales by month ${'x'.repeat(184)}…"`);
    assert.equal(lines[3], '   ├─ part 2: image · image/png · 2.9 kB');
    assert.equal(lines[4], '   ├─ part 3: audio · audio/wav · 87.9 kB · not kept in the trace');
    assert.equal(lines[5], '   └─ part 4: resource · file:///tmp/sales.csv · text/csv · 11 chars · "month,total"');
    assert.match(
      renderTrace(trace, TRACE_TEXT.ja),
      /パート 3：audio · audio\/wav · 87\.9 kB · トレースには保存されていません/,
    );
  });

  it('after `riverse ask`: the last turn as a tree, as JSON, by id; a run by hand; none and unknown ids are errors', async (t) => {
    const setup = await cliSetup(t, weatherModel);
    const options = { cwd: setup.project, env: setup.env };
    const none = await runRiverse(['trace'], options);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^error: no turn has been traced yet in /);
    // Its advice, run as it is written, leaves a turn to print (a plain `ask` keeps none).
    const advice = /\(npx riverse (ask [^,)]*)/.exec(none.stderr)?.[1] ?? '';
    const words = (advice.match(/"[^"]*"|\S+/g) ?? []).map((word) => word.replace(/^"|"$/g, ''));
    assert.equal((await runRiverse(words, options)).code, 0, `the advice ${advice} runs`);
    assert.equal((await runRiverse(['trace'], options)).code, 0, `after ${advice}, a trace`);
    const ask = await runRiverse(['ask', '--session', 'cli', "What's the weather in Tokyo?"], options);
    assert.equal(ask.code, 0, ask.stderr);

    const tree = await runRiverse(['trace'], options);
    assert.equal(tree.code, 0, tree.stderr);
    const lines = tree.stdout.trimEnd().split('\n');
    assert.match(
      lines[0]!,
      /^turn [0-9a-f-]{36} · session cli · \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ · [\d.]+ (ms|s) · answer$/,
    );
    assert.match(lines[1]!, /^├─ route_tools · 1 tool\(s\) offered: weather$/);
    assert.match(lines[2]!, /^├─ chat test-model · request 1 · .* · stop: tool-calls$/);
    assert.match(lines[3]!, /^├─ execute_tool weather · \S+ · [\d.]+ (ms|s) · ok · \d+ chars · isolation process$/);
    assert.match(lines[4]!, /^└─ chat test-model · request 2 · .* · stop: stop$/);
    assert.equal(lines.length, 5);

    const json = JSON.parse((await runRiverse(['trace', 'last', '--json'], options)).stdout);
    assert.equal(json.session, 'cli');
    const byId = await runRiverse(['trace', json.id.slice(0, 8), '--lang', 'ja'], options);
    assert.match(byId.stdout, new RegExp(`^ターン ${json.id} · セッション cli`));

    const run = await runRiverse(['tools', 'run', 'weather', 'city=Oslo'], options);
    assert.equal(run.code, 0, run.stderr);
    const hand = await runRiverse(['trace', 'last'], options);
    assert.match(hand.stdout, /^run by hand \S+ · riverse tools run · /);
    assert.match(hand.stdout, /└─ execute_tool weather · /);

    const unknown = await runRiverse(['trace', 'zzzzzzzz', '--lang', 'zh'], options);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /没有 id 为 "zzzzzzzz" 的追踪/);
  });
});
