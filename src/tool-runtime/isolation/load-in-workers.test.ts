import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { toolFolder, toolSource } from '../test-support.ts';
import { registrySetup, ToolRegistry } from '../tool-registry.ts';

test('a small load spreads over the loaders: each takes its share of the files, not as many as it may hold ahead', async (t) => {
  // Each tool says which loader process read its manifest.
  const files = Object.fromEntries(
    Array.from({ length: 6 }, (_, index) => [
      `tool_${index}.ts`,
      toolSource(`tool_${index}`, { manifest: `description: 'loaded in ' + process.pid,` }),
    ]),
  );
  const dir = await toolFolder(t, files);
  const { workers } = registrySetup({});
  t.after(() => workers.close());
  const registry = await ToolRegistry.load({ folders: [dir], baseDir: dir, workers, isolation: 'process' });
  const loaders = new Set(registry.list().map((row) => String(registry.find(row.name)?.manifest.description)));
  assert.equal(registry.list().length, 6);
  assert.equal(loaders.size, Math.min(2, availableParallelism()), [...loaders].join(', '));
});
