// The OpenTelemetry export end to end: a real turn (the local OpenAI-protocol server, a tool file,
// the real SQLite store) exported by the official OTLP/HTTP exporters to a receiver started here
// (testing/otlp-receiver.ts), in both protocols; a collector that fails; the content opt-in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Assistant } from '../assistant/assistant.ts';
import { loadRegistry, modelServer, tempDir, testModel, type Cleanup } from '../assistant/turn-test-support.ts';
import { parseTraceparent } from '../core/trace-context.ts';
import { replies } from '../models/testing/wire-server.ts';
import type { RecordedRequest } from '../models/testing/openai-wire.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import { createOtlpExport } from './otlp-export.ts';
import { telemetryPlan } from './telemetry-settings.ts';
import { startOtlpReceiver, type ReceivedSpan } from './testing/otlp-receiver.ts';

const CLOCK_TOOL = `import { BaseTool, ToolResult } from 'riverse';
export class ClockTool extends BaseTool {
  manifest() {
    return { name: 'clock', description: 'Tells the time', examples: ['What time is it?'],
      parameters: { zone: { type: 'string', description: 'A time zone' } } };
  }
  async execute(params) { return params.zone === 'Mars' ? ToolResult.fail('no clocks on Mars') : ToolResult.ok('12:00 in ' + params.zone); }
}
`;

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const OTLP_KIND = { internal: 1, client: 3 } as const;
const OTLP_STATUS = { unset: 0, error: 2 } as const;

/** A turn calling `clock` once (with `zone`), then answering; the model's requests are kept. */
async function turnSetUp(t: Cleanup, zone = 'UTC') {
  const registry = await loadRegistry(t, {
    files: { 'clock.ts': CLOCK_TOOL },
    config: { tools: { isolation: 'none' } },
  });
  const store = SqliteStore.open(await tempDir(t));
  t.after(async () => await store.close());
  const requests: RecordedRequest[] = [];
  const answer = replies([
    {
      toolCalls: [{ id: 'call_clock', name: 'clock', arguments: { zone } }],
      usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
    },
    { text: 'It is noon.', usage: { prompt_tokens: 200, completion_tokens: 9, total_tokens: 209 } },
  ]);
  const server = await modelServer(t, (request, index) => {
    requests.push(request);
    return answer(request, index);
  });
  return { registry, store, server, requests };
}

const byName = (spans: ReceivedSpan[], name: string) => {
  const span = spans.find((candidate) => candidate.name === name);
  assert.ok(span !== undefined, `a span named ${name} (got ${spans.map((s) => s.name).join(', ')})`);
  return span;
};

for (const protocol of ['http/protobuf', 'http/json'] as const) {
  describe(`OTLP over ${protocol}`, () => {
    it('a turn with a model request and a tool call arrives as GenAI spans, under the caller’s traceparent', async (t) => {
      const receiver = await startOtlpReceiver();
      t.after(() => receiver.close());
      const { registry, store, server, requests } = await turnSetUp(t);
      const plan = telemetryPlan(undefined, {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=secret%20one,x-team=riverse',
        OTEL_SERVICE_NAME: 'riverse-test',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test,service.namespace=home',
      });
      assert.ok(plan !== undefined, 'an endpoint turns the export on');
      const telemetry = await createOtlpExport(plan, { delayMs: 20 });
      const assistant = new Assistant({
        model: testModel(server),
        registry,
        store,
        telemetry,
        stream: protocol === 'http/json',
      });
      const result = await assistant.turn('What time is it?', {
        session: 'clock',
        traceContext: parseTraceparent(`00-${CALLER_TRACE}-${CALLER_SPAN}-01`, 'vendor=abc'),
      });
      assert.equal(result.stopReason, 'answer');
      await telemetry.shutdown();

      const spans = receiver.spans();
      const turn = byName(spans, 'invoke_agent');
      const chats = spans.filter((span) => span.name === 'chat test-model');
      const tool = byName(spans, 'execute_tool clock');
      assert.equal(chats.length, 2, 'two model requests');
      // One trace, the caller's; the turn under the caller's span, the rest under the turn.
      for (const span of spans) assert.equal(span.traceId, CALLER_TRACE);
      assert.equal(turn.parentSpanId, CALLER_SPAN);
      assert.equal(turn.traceState, 'vendor=abc');
      for (const span of [...chats, tool]) assert.equal(span.parentSpanId, turn.spanId);
      assert.equal(turn.kind, OTLP_KIND.internal);
      assert.equal(chats[0]!.kind, OTLP_KIND.client);
      assert.equal(tool.kind, OTLP_KIND.internal);
      assert.ok(
        turn.startNanos <= chats[0]!.startNanos && chats[1]!.endNanos <= turn.endNanos,
        'the turn spans its requests',
      );

      assert.equal(turn.attributes['gen_ai.operation.name'], 'invoke_agent');
      assert.equal(turn.attributes['session.id'], (await store.session('clock')).id);
      assert.equal(turn.attributes['gen_ai.conversation.id'], (await store.session('clock')).id);
      assert.equal(turn.attributes['gen_ai.agent.name'], 'riverse');
      const [first, second] = chats as [ReceivedSpan, ReceivedSpan];
      assert.equal(first.attributes['gen_ai.operation.name'], 'chat');
      assert.equal(first.attributes['gen_ai.provider.name'], 'openai');
      assert.equal(first.attributes['gen_ai.request.model'], 'test-model');
      assert.equal(first.attributes['gen_ai.usage.input_tokens'], 120);
      assert.equal(first.attributes['gen_ai.usage.output_tokens'], 30);
      assert.deepEqual(first.attributes['gen_ai.response.finish_reasons'], ['tool-calls']);
      assert.deepEqual(second.attributes['gen_ai.response.finish_reasons'], ['stop']);
      assert.equal(tool.attributes['gen_ai.operation.name'], 'execute_tool');
      assert.equal(tool.attributes['gen_ai.tool.name'], 'clock');
      assert.equal(tool.attributes['gen_ai.tool.call.id'], 'call_clock');
      assert.equal(tool.attributes['gen_ai.tool.type'], 'function');
      assert.equal(tool.status.code, OTLP_STATUS.unset);
      // Content is off by default.
      for (const span of spans) {
        assert.equal(span.attributes['gen_ai.input.messages'], undefined);
        assert.equal(span.attributes['gen_ai.tool.call.arguments'], undefined);
      }

      // Each model request carried its own span as the traceparent.
      assert.equal(requests.length, 2);
      for (const [index, request] of requests.entries())
        assert.equal(request.headers.traceparent, `00-${CALLER_TRACE}-${chats[index]!.spanId}-01`);

      // Headers, resource and the protocol's content type.
      const sent = receiver.exports[0]!;
      assert.equal(sent.path, '/v1/traces');
      assert.match(sent.contentType, protocol === 'http/json' ? /application\/json/ : /application\/x-protobuf/);
      assert.equal(sent.headers['x-api-key'], 'secret one');
      assert.equal(sent.headers['x-team'], 'riverse');
      assert.equal(sent.resource['service.name'], 'riverse-test');
      assert.equal(sent.resource['deployment.environment'], 'test');
      assert.equal(sent.resource['service.namespace'], 'home');
      assert.equal(sent.resource['telemetry.sdk.language'], 'nodejs');
      assert.equal(tool.scope, 'riverse');

      // The stored tree has the same trace and span ids: the dashboard and `riverse trace` show what the collector has.
      const stored = (await store.turnTraces.last())!;
      assert.equal(stored.traceId, CALLER_TRACE);
      assert.deepEqual(stored.spans.map((span) => span.spanId).sort(), spans.map((span) => span.spanId).sort());
    });
  });
}

describe('OTLP export, faults and options', () => {
  it('a failing tool call is an error status with error.type; with content capture, arguments and messages are on the spans', async (t) => {
    const receiver = await startOtlpReceiver();
    t.after(() => receiver.close());
    const { registry, store, server } = await turnSetUp(t, 'Mars');
    const plan = telemetryPlan(
      { endpoint: receiver.url, capture_message_content: true },
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
    )!;
    const telemetry = await createOtlpExport(plan, { delayMs: 20 });
    const assistant = new Assistant({ model: testModel(server), registry, store, telemetry });
    await assistant.turn('What time is it on Mars?', { session: 'mars' });
    await telemetry.shutdown();
    const spans = receiver.spans();
    const tool = byName(spans, 'execute_tool clock');
    assert.equal(tool.status.code, OTLP_STATUS.error);
    assert.equal(tool.attributes['error.type'], '_OTHER', 'a plain failure: the conventions’ fallback');
    assert.equal(tool.attributes['gen_ai.tool.call.arguments'], '{"zone":"Mars"}');
    assert.match(String(tool.attributes['gen_ai.tool.call.result']), /no clocks on Mars/);
    const chat = spans.find((span) => span.name === 'chat test-model')!;
    const input = JSON.parse(String(chat.attributes['gen_ai.input.messages']));
    assert.deepEqual(input.at(-1), { role: 'user', parts: [{ type: 'text', content: 'What time is it on Mars?' }] });
    const output = JSON.parse(String(chat.attributes['gen_ai.output.messages']));
    assert.equal(output[0].parts[0].type, 'tool_call');
    assert.equal(output[0].parts[0].name, 'clock');
    // Content is never stored: the tree in the store has no messages.
    const stored = JSON.stringify((await store.turnTraces.last())!.spans);
    assert.ok(!stored.includes('gen_ai.input.messages') && !stored.includes('Mars?'), 'no content in the store');
  });

  it('a collector that refuses every export: the turns go on, and it is said once', async (t) => {
    const receiver = await startOtlpReceiver({ status: 400 });
    t.after(() => receiver.close());
    const { registry, store, server } = await turnSetUp(t);
    const said: string[] = [];
    const plan = telemetryPlan({ endpoint: receiver.url }, {})!;
    const telemetry = await createOtlpExport(plan, { delayMs: 5, report: (line) => said.push(line) });
    const assistant = new Assistant({ model: testModel(server), registry, store, telemetry });
    const first = await assistant.turn('What time is it?', { session: 'a' });
    assert.equal(first.stopReason, 'answer');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await telemetry.shutdown();
    assert.equal(said.length, 1, `said once: ${said.join(' | ')}`);
    assert.match(said[0]!, new RegExp(`could not be exported to ${receiver.url}/v1/traces`));
    assert.equal((await store.turnTraces.list()).length, 1, 'the store kept the trace');
  });

  it('a collector that is down: the turn is not affected, and shutting down waits a bounded time', async (t) => {
    const receiver = await startOtlpReceiver();
    const url = receiver.url;
    await receiver.close(); // nothing listens there now
    const { registry, store, server } = await turnSetUp(t);
    const plan = telemetryPlan({ endpoint: url }, {})!;
    const telemetry = await createOtlpExport(plan, {
      delayMs: 5,
      exportTimeoutMs: 300,
      shutdownMs: 200,
      report: () => {},
    });
    const assistant = new Assistant({ model: testModel(server), registry, store, telemetry });
    const result = await assistant.turn('What time is it?', { session: 'b' });
    assert.equal(result.stopReason, 'answer');
    await telemetry.shutdown();
    // After the shutdown, exports are dropped, not queued.
    telemetry.export((await store.turnTraces.last())!);
  });

  it('a caller that does not sample its trace: the turn continues its trace id but is not exported', async (t) => {
    const receiver = await startOtlpReceiver();
    t.after(() => receiver.close());
    const { registry, store, server, requests } = await turnSetUp(t);
    const telemetry = await createOtlpExport(telemetryPlan({ endpoint: receiver.url }, {})!, { delayMs: 5 });
    const assistant = new Assistant({ model: testModel(server), registry, store, telemetry });
    await assistant.turn('What time is it?', {
      traceContext: parseTraceparent(`00-${CALLER_TRACE}-${CALLER_SPAN}-00`),
    });
    await telemetry.shutdown();
    assert.equal(receiver.spans().length, 0);
    assert.equal((await store.turnTraces.last())!.traceId, CALLER_TRACE);
    assert.match(String(requests[0]!.headers.traceparent), new RegExp(`^00-${CALLER_TRACE}-[0-9a-f]{16}-00$`));
  });

  it('the console exporter writes each span as a line of JSON on stderr, not on stdout', async (t) => {
    const { registry, store, server } = await turnSetUp(t);
    const telemetry = await createOtlpExport(telemetryPlan({ exporter: 'console' }, {})!, { delayMs: 5 });
    const assistant = new Assistant({ model: testModel(server), registry, store, telemetry });
    await assistant.turn('What time is it?', { session: 'console' });
    const lines: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => lines.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      await telemetry.shutdown();
    } finally {
      process.stderr.write = write;
    }
    const spans = lines.map((line) => JSON.parse(line) as { name: string; traceId: string });
    assert.deepEqual(spans.map((span) => span.name).sort(), [
      'chat test-model',
      'chat test-model',
      'execute_tool clock',
      'invoke_agent',
      'route_tools',
    ]);
    assert.equal(spans[0]!.traceId, (await store.turnTraces.last())!.traceId);
  });
});
