// Run by src/telemetry/telemetry-off.test.ts in a child process of its own: one turn (a real model server, the
// real store) with telemetry set up from this process's environment, and which @opentelemetry
// modules were loaded meanwhile, seen by a module hook installed before anything else is imported.
import { registerHooks } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const loaded = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    if (resolved.url.includes('/@opentelemetry/')) loaded.add(resolved.url.replace(/^.*\/node_modules\//, ''));
    return resolved;
  },
});

const { Assistant } = await import('../assistant.ts');
const { startOpenAITestServer } = await import('../../models/testing/openai-wire.ts');
const { createOpenAICompatibleModel } = await import('../../models/providers/openai/openai-compatible.ts');
const { SqliteStore } = await import('../../store/sqlite-store.ts');
const { ToolRegistry } = await import('../../tool-runtime/tool-registry.ts');
const { startTelemetry, stopTelemetry } = await import('../../telemetry/start-telemetry.ts');

const dir = mkdtempSync(join(tmpdir(), 'riverse-telemetry-child-'));
const server = await startOpenAITestServer({ text: 'Hello.' });
const store = SqliteStore.open(dir);
try {
  const telemetry = await startTelemetry(undefined);
  const registry = await ToolRegistry.load({ folders: [], config: {} });
  const model = createOpenAICompatibleModel({ model: 'test-model', baseUrl: server.url, apiKey: 'k' });
  const assistant = new Assistant({ model, registry, store, ...(telemetry === undefined ? {} : { telemetry }) });
  const result = await assistant.turn('Hi');
  await stopTelemetry();
  process.stdout.write(
    `${JSON.stringify({ stopReason: result.stopReason, exported: telemetry !== undefined, loaded: [...loaded] })}\n`,
  );
} finally {
  await store.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
