// Telemetry off costs nothing: a turn run in a child process with no telemetry setting loads no
// @opentelemetry module at all (a module hook sees every resolution); the same turn with an
// endpoint set loads the SDK and the exporter, so the check can fail.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { startOtlpReceiver } from './testing/otlp-receiver.ts';

const CHILD = fileURLToPath(new URL('../assistant/testing/telemetry-child.ts', import.meta.url));

/** The environment without any OTEL_* variable of the one running the tests. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  return { ...env, ...extra };
}

async function runChild(env: NodeJS.ProcessEnv): Promise<{ stopReason: string; exported: boolean; loaded: string[] }> {
  const { stdout } = await promisify(execFile)(process.execPath, [CHILD], { env });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('telemetry off', () => {
  it('a turn with no telemetry setting loads no OpenTelemetry module', async () => {
    const run = await runChild(cleanEnv());
    assert.equal(run.stopReason, 'answer');
    assert.equal(run.exported, false);
    assert.deepEqual(run.loaded, []);
  });

  it('OTEL_TRACES_EXPORTER=none keeps it off even with an endpoint', async () => {
    const run = await runChild(
      cleanEnv({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }),
    );
    assert.equal(run.exported, false);
    assert.deepEqual(run.loaded, []);
  });

  it('with an endpoint set, the same turn loads the SDK and the protobuf exporter (the check sees them)', async (t) => {
    const receiver = await startOtlpReceiver();
    t.after(() => receiver.close());
    const run = await runChild(cleanEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }));
    assert.equal(run.stopReason, 'answer');
    assert.equal(run.exported, true);
    assert.ok(
      run.loaded.some((url) => url.startsWith('@opentelemetry/sdk-trace/')),
      run.loaded.join(', '),
    );
    assert.ok(run.loaded.some((url) => url.startsWith('@opentelemetry/exporter-trace-otlp-proto/')));
    assert.ok(
      !run.loaded.some((url) => url.startsWith('@opentelemetry/exporter-trace-otlp-http/')),
      'only the protocol’s exporter',
    );
    assert.ok(
      receiver.spans().some((span) => span.name === 'invoke_agent'),
      'the turn was exported',
    );
  });
});
