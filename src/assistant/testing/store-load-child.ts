// Run by src/store/postgres/pg-lazy-load.test.ts in a child process of its own: one turn (a real
// model server) on the store `openStore` chooses from this process's environment (RIVERSE_DATABASE_URL
// or SQLite in a temp folder), and which modules of the PostgreSQL driver were loaded meanwhile,
// seen by a module hook installed before anything else is imported.
import { registerHooks } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const loaded = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const inModules = resolved.url.replace(/^.*\/node_modules\//, '');
    if (inModules !== resolved.url && /^(pg|pg-[a-z]+|pgpass)\//.test(inModules)) loaded.add(inModules);
    return resolved;
  },
});

const { Assistant } = await import('../assistant.ts');
const { startOpenAITestServer } = await import('../../models/testing/openai-wire.ts');
const { createOpenAICompatibleModel } = await import('../../models/providers/openai/openai-compatible.ts');
const { openStore } = await import('../../store/open-store.ts');
const { ToolRegistry } = await import('../../tool-runtime/tool-registry.ts');

const dir = mkdtempSync(join(tmpdir(), 'riverse-store-load-child-'));
const server = await startOpenAITestServer({ text: 'Hello.' });
const store = await openStore(dir, {});
try {
  const registry = await ToolRegistry.load({ folders: [], config: {} });
  const model = createOpenAICompatibleModel({ model: 'test-model', baseUrl: server.url, apiKey: 'k' });
  const assistant = new Assistant({ model, registry, store });
  const result = await assistant.turn('Hi', { session: 'lazy' });
  const session = await store.findSession('lazy');
  const messages = session === undefined ? 0 : (await store.messages(session.id)).length;
  process.stdout.write(
    `${JSON.stringify({ kind: store.kind, stopReason: result.stopReason, messages, loaded: [...loaded] })}\n`,
  );
} finally {
  await store.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
