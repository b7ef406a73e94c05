// Telemetry as a person sets it: `riverse ask` run as its own process with the standard OTEL_*
// variables, exporting to a real OTLP receiver (its last spans sent as the command ends), and
// refusing grpc with what to set instead, in the person's language.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startOtlpReceiver } from '../telemetry/testing/otlp-receiver.ts';
import { cliSetup, runRiverse, weatherModel } from './assistant-cli-test-support.ts';
import { show } from './cli-test-support.ts';

describe('riverse with OTEL_* set', () => {
  it('ask exports its turn (no session stored) before it exits', async (t) => {
    const receiver = await startOtlpReceiver();
    t.after(() => receiver.close());
    const setup = await cliSetup(t, weatherModel);
    const result = await runRiverse(['ask', "What's the weather in Tokyo?"], {
      cwd: setup.project,
      env: { ...setup.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'riverse-cli-test' },
    });
    assert.equal(result.code, 0, show(result));
    const names = receiver.spans().map((span) => span.name);
    assert.ok(names.includes('invoke_agent'), names.join(', '));
    assert.ok(names.includes('chat test-model'));
    assert.ok(names.includes('execute_tool weather'));
    assert.equal(receiver.exports[0]!.resource['service.name'], 'riverse-cli-test');
    // The model requests carried the trace.
    const traceId = receiver.spans()[0]!.traceId;
    assert.equal(String(setup.model.requests[0]!.headers.traceparent).split('-')[1], traceId);
  });

  it('tools run exports its run by hand', async (t) => {
    const receiver = await startOtlpReceiver();
    t.after(() => receiver.close());
    const setup = await cliSetup(t, weatherModel);
    const result = await runRiverse(['tools', 'run', 'weather', 'city=Tokyo'], {
      cwd: setup.project,
      env: { ...setup.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
    });
    assert.equal(result.code, 0, show(result));
    const turn = receiver.spans().find((span) => span.name === 'invoke_agent');
    assert.equal(turn?.attributes['riverse.hand_run'], 'cli');
    assert.ok(
      receiver.spans().some((span) => span.name === 'execute_tool weather' && span.parentSpanId === turn?.spanId),
    );
  });

  it('OTEL_EXPORTER_OTLP_PROTOCOL=grpc is refused, saying what to set', async (t) => {
    const setup = await cliSetup(t, weatherModel);
    const env = {
      ...setup.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    };
    const result = await runRiverse(['ask', 'Hi'], { cwd: setup.project, env });
    assert.equal(result.code, 2, show(result));
    assert.match(
      result.stderr,
      /^error: OTEL_EXPORTER_OTLP_PROTOCOL is "grpc", but Riverse exports traces over OTLP\/HTTP only: set it to "http\/protobuf"/,
    );
    assert.equal(setup.model.requests.length, 0, 'nothing was asked');
    const ja = await runRiverse(['ask', '--lang', 'ja', 'Hi'], { cwd: setup.project, env });
    assert.match(ja.stderr, /OTEL_EXPORTER_OTLP_PROTOCOL が "grpc" です/);
  });
});
