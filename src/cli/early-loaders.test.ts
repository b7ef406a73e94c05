import assert from 'node:assert/strict';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { stopEarlyLoaders } from '../tool-runtime/isolation/loader-pool.ts';
import { tempDir, toolFolder, toolNames, toolSource } from '../tool-runtime/test-support.ts';
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { startLoadersOnColdStart } from './early-loaders.ts';

/** This process's living children that run the tool host script: its loaders, among others. */
async function hostChildren(): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8');
      if (Number(fields[1]) === process.pid && fields[0] !== 'Z' && cmdline.includes('tool-worker'))
        pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * The host children still alive, once those that are ending have had time to be gone: up to 20 s, a
 * safety bound for a loaded machine (they are gone within milliseconds on an idle one).
 */
async function hostChildrenLeft(among?: readonly number[]): Promise<number[]> {
  const left = async () => (await hostChildren()).filter((pid) => among === undefined || among.includes(pid));
  for (
    const started = performance.now();
    performance.now() - started < 20_000;
    await new Promise((resolve) => setTimeout(resolve, 20))
  ) {
    if ((await left()).length === 0) return [];
  }
  return left();
}

test('only a command that loads tools, with no load cache yet, starts loaders early', async (t) => {
  t.after(stopEarlyLoaders);
  const cache = await tempDir(t);
  const env = { RIVERSE_CACHE_DIR: cache };
  assert.equal(await startLoadersOnColdStart(['tools', 'new', 'x'], env), false);
  assert.equal(await startLoadersOnColdStart(['--help'], env), false);
  assert.equal(await startLoadersOnColdStart([], env), false);
  await mkdir(join(cache, 'tools'));
  assert.equal(
    await startLoadersOnColdStart(['tools', 'list'], env),
    false,
    'a cache is there: most files need no loader',
  );
  assert.deepEqual(await hostChildren(), []);
});

test('loaders started early are the ones the next load uses; none is left behind', async (t) => {
  t.after(stopEarlyLoaders);
  const cache = await tempDir(t);
  assert.equal(
    await startLoadersOnColdStart(['-c', 'riverse.yaml', 'tools', 'list', '--json'], { RIVERSE_CACHE_DIR: cache }),
    true,
  );
  const started = await hostChildren();
  assert.ok(started.length >= 1, 'loaders are running before any load');
  const files: Record<string, string> = {};
  for (let i = 0; i < 6; i++) files[`t${i}.ts`] = toolSource(`tool_${i}`);
  const dir = await toolFolder(t, files);
  const registry = await ToolRegistry.load({ folders: [dir], baseDir: dir });
  assert.equal(toolNames(registry).length, 6);
  assert.deepEqual(registry.diagnostics, []);
  assert.deepEqual(await hostChildrenLeft(started), [], 'every early loader was taken by the load, and ended with it');
});

test('a load with another memory limit does not take them (they were started for the default)', async (t) => {
  t.after(stopEarlyLoaders);
  const cache = await tempDir(t);
  assert.equal(await startLoadersOnColdStart(['ask', 'hello'], { RIVERSE_CACHE_DIR: cache }), true);
  const started = await hostChildren();
  const dir = await toolFolder(t, { 'a.ts': toolSource('only_a') });
  const registry = await ToolRegistry.load({ folders: [dir], baseDir: dir, config: { tools: { memory_mb: 128 } } });
  assert.deepEqual(toolNames(registry), ['only_a']);
  assert.deepEqual(
    (await hostChildren()).filter((pid) => started.includes(pid)).sort(),
    [...started].sort(),
    'the early loaders are still waiting',
  );
  await stopEarlyLoaders();
  assert.deepEqual(await hostChildrenLeft(), []);
});
