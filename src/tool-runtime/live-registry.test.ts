// Issue 5, hot reload: a LiveToolRegistry watching a real temp folder (default isolation: workers).
// Every change is observed through onChange; how soon (the target is < 1 s idle) is for a benchmark,
// not for these tests, which only give up on an event after a generous wait.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { LiveToolRegistry, type ToolChange } from './live-registry.ts';
import { createProbe, probeRef, tempDir, toolSource, writeFiles, type Cleanup } from './test-support.ts';

/** How long to wait for an event before giving up on it: a safety bound, far past the target. */
const GIVE_UP_MS = 30_000;

/** Opens a live registry on `dir`, recording every change; closed when the test ends. */
async function openLive(t: Cleanup, dir: string): Promise<{ live: LiveToolRegistry; seen: ToolChange[] }> {
  const live = await LiveToolRegistry.open({ folders: [dir], baseDir: dir });
  t.after(() => live.close());
  const seen: ToolChange[] = [];
  live.onChange((changes) => {
    seen.push(...changes);
  });
  return { live, seen };
}

/**
 * Does `act()` and waits until events matching every `expected` (event and file name) have arrived
 * after it — the polling timer keeps this process alive meanwhile, since the watcher does not.
 * Returns the events that arrived.
 */
async function change(
  seen: ToolChange[],
  act: () => Promise<unknown>,
  expected: Array<[ToolChange['event'], string]>,
): Promise<ToolChange[]> {
  const from = seen.length;
  await act();
  const matches = () =>
    expected.map(([event, file]) =>
      seen.slice(from).find((change) => change.event === event && basename(change.file) === file),
    );
  const giveUp = performance.now() + GIVE_UP_MS;
  while (matches().some((match) => match === undefined) && performance.now() < giveUp)
    await new Promise((resolve) => setTimeout(resolve, 10));
  const arrived = seen.slice(from).map((change) => `${change.event} ${basename(change.file)}`);
  assert.ok(
    matches().every((match) => match !== undefined),
    `expected ${JSON.stringify(expected)}, got ${JSON.stringify(arrived)}`,
  );
  return seen.slice(from);
}

/** A tool `name` answering `answer`. */
const version = (name: string, answer: string) =>
  toolSource(name, { execute: `return ToolResult.ok(${JSON.stringify(answer)});` });

test('add, edit, break, fix, rename and delete are each reloaded and reported', async (t) => {
  const dir = await tempDir(t);
  await writeFiles(dir, { 'keep.ts': version('keep', 'kept') });
  const { live, seen } = await openLive(t, dir);
  assert.deepEqual(
    live.initial.map((change) => [change.event, basename(change.file), change.tools]),
    [['added', 'keep.ts', ['keep']]],
  );
  const fresh = join(dir, 'fresh.ts');

  const [added] = await change(seen, () => writeFile(fresh, version('fresh', 'fresh v1')), [['added', 'fresh.ts']]);
  assert.deepEqual(added?.tools, ['fresh']);
  assert.deepEqual(added?.diagnostics, []);
  assert.deepEqual(await live.current.execute('fresh', {}), { success: true, data: 'fresh v1' });

  await change(seen, () => writeFile(fresh, version('fresh', 'fresh v2, longer')), [['changed', 'fresh.ts']]);
  assert.deepEqual(await live.current.execute('fresh', {}), { success: true, data: 'fresh v2, longer' });

  // A syntax error on line 6: the last good version keeps answering, with the diagnostic.
  const broken = version('fresh', 'never').replace('  manifest() {', '  manifest() {\n    return {{;');
  const [breakage] = await change(seen, () => writeFile(fresh, broken), [['broken', 'fresh.ts']]);
  assert.deepEqual(breakage?.tools, ['fresh'], 'the tools of the version still in use');
  assert.equal(breakage?.diagnostics[0]?.code, 'syntax-error', JSON.stringify(breakage?.diagnostics));
  assert.equal(typeof breakage?.diagnostics[0]?.line, 'number');
  assert.ok(
    live.current.diagnostics.some((diagnostic) => diagnostic.code === 'syntax-error' && diagnostic.file === fresh),
  );
  assert.deepEqual(await live.current.execute('fresh', {}), { success: true, data: 'fresh v2, longer' });

  await change(seen, () => writeFile(fresh, version('fresh', 'fresh v3')), [['fixed', 'fresh.ts']]);
  assert.deepEqual(await live.current.execute('fresh', {}), { success: true, data: 'fresh v3' });
  assert.deepEqual(live.current.diagnostics, []);

  const renamed = join(dir, 'renamed.ts');
  await change(seen, () => rename(fresh, renamed), [
    ['added', 'renamed.ts'],
    ['removed', 'fresh.ts'],
  ]);
  assert.equal(live.current.get('fresh')?.file, renamed);
  assert.deepEqual(await live.current.execute('fresh', {}), { success: true, data: 'fresh v3' });

  const [removed] = await change(seen, () => rm(renamed), [['removed', 'renamed.ts']]);
  assert.deepEqual(removed?.tools, ['fresh']);
  const gone = await live.current.execute('fresh', {});
  assert.equal(gone.code, 'unknown-tool', JSON.stringify(gone));

  // Exactly these events, in this order (the two of the rename in either), none for the file that did not change.
  const order = seen.map((change) => `${change.event} ${basename(change.file)}`);
  assert.deepEqual(
    order.slice(0, 4),
    ['added fresh.ts', 'changed fresh.ts', 'broken fresh.ts', 'fixed fresh.ts'],
    order.join(', '),
  );
  assert.deepEqual(order.slice(4, 6).sort(), ['added renamed.ts', 'removed fresh.ts'], order.join(', '));
  assert.deepEqual(order.slice(6), ['removed renamed.ts'], order.join(', '));
  assert.deepEqual(await live.current.execute('keep', {}), { success: true, data: 'kept' });
});

test('a call running while its file is edited finishes with the old version; a call after the change gets the new one', async (t) => {
  const dir = await tempDir(t);
  const file = join(dir, 'slowpoke.ts');
  const started = join(dir, 'started');
  const release = join(dir, 'release');
  await writeFiles(dir, {
    'slowpoke.ts': toolSource('slowpoke', {
      header: `import { existsSync, writeFileSync } from 'node:fs';`,
      manifest: `parameters: { started: 'marker file', release: 'file to wait for' },`,
      execute: `if (params.started) {
        writeFileSync(params.started, 'v1');
        while (!existsSync(params.release)) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return ToolResult.ok('v1');`,
    }),
  });
  const { live, seen } = await openLive(t, dir);
  const before = live.current;
  const running = before.execute('slowpoke', { started, release });
  const deadline = performance.now() + 15_000;
  while (!existsSync(started)) {
    assert.ok(performance.now() < deadline, 'the call did not start');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  const edited = toolSource('slowpoke', {
    manifest: `parameters: { started: 'marker file', release: 'file to wait for' },`,
    execute: `return ToolResult.ok('v2');`,
  });
  await change(seen, () => writeFile(file, edited), [['changed', 'slowpoke.ts']]);
  assert.notEqual(live.current, before, 'a new registry was swapped in');
  assert.deepEqual(await live.current.execute('slowpoke', {}), { success: true, data: 'v2' });
  // The registry taken before the change is a snapshot: it still runs the version it loaded.
  assert.deepEqual(await before.execute('slowpoke', {}), { success: true, data: 'v1' });

  await writeFile(release, 'go');
  assert.deepEqual(await running, { success: true, data: 'v1' });
});

test('editing a _helper a tool imports reloads the tool', async (t) => {
  const dir = await tempDir(t);
  await writeFiles(dir, {
    '_helper.ts': `export const word = 'one';\n`,
    'helped.ts': toolSource('helped', {
      header: `import { word } from './_helper.ts';`,
      execute: `return ToolResult.ok('helper says ' + word);`,
    }),
  });
  const { live, seen } = await openLive(t, dir);
  assert.deepEqual(await live.current.execute('helped', {}), { success: true, data: 'helper says one' });
  await change(seen, () => writeFile(join(dir, '_helper.ts'), `export const word = 'two';\n`), [
    ['changed', 'helped.ts'],
  ]);
  assert.deepEqual(await live.current.execute('helped', {}), { success: true, data: 'helper says two' });
});

test('close() stops watching', async (t) => {
  const dir = await tempDir(t);
  await writeFiles(dir, { 'keep.ts': version('keep', 'kept') });
  const live = await LiveToolRegistry.open({ folders: [dir], baseDir: dir });
  const before = live.current;
  await live.close();
  await writeFile(join(dir, 'late.ts'), version('late', 'too late'));
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  assert.equal(live.current, before, 'no reload after close()');
  assert.equal(live.current.get('late'), undefined);
});

test('a tool folder created after start is picked up, and so is a subfolder of helpers created later', async (t) => {
  const root = await tempDir(t);
  const dir = join(root, 'tools');
  const { live, seen } = await openLive(t, dir);
  assert.deepEqual(live.current.tools(), []);
  assert.ok(
    live.current.diagnostics.some((diagnostic) => diagnostic.file === dir),
    'the missing folder is a diagnostic',
  );

  await change(seen, () => writeFiles(dir, { 'late.ts': version('late', 'late v1') }), [['added', 'late.ts']]);
  assert.deepEqual(await live.current.execute('late', {}), { success: true, data: 'late v1' });
  assert.equal(
    live.current.diagnostics.some((diagnostic) => diagnostic.file === dir),
    false,
    'the folder exists now',
  );

  // A new subfolder: its helper is imported by a tool, and an edit to it reloads the tool.
  await change(
    seen,
    () =>
      writeFiles(dir, {
        'lib/words.ts': `export const word = 'one';\n`,
        'worded.ts': toolSource('worded', {
          header: `import { word } from './lib/words.ts';`,
          execute: `return ToolResult.ok('lib says ' + word);`,
        }),
      }),
    [['added', 'worded.ts']],
  );
  assert.deepEqual(await live.current.execute('worded', {}), { success: true, data: 'lib says one' });
  await change(seen, () => writeFile(join(dir, 'lib', 'words.ts'), `export const word = 'two';\n`), [
    ['changed', 'worded.ts'],
  ]);
  assert.deepEqual(await live.current.execute('worded', {}), { success: true, data: 'lib says two' });
});

test('a new file that claims a name in use: the running tool keeps it, the newcomer is told; once the holder goes, the newcomer is fixed', async (t) => {
  const dir = await tempDir(t);
  await writeFiles(dir, { 'weather.ts': version('weather', 'the working one') });
  const { live, seen } = await openLive(t, dir);
  // "a-copy.ts" sorts first: at a cold start it would win, but the name is in use.
  const [claim] = await change(seen, () => writeFile(join(dir, 'a-copy.ts'), version('weather', 'the copy')), [
    ['broken', 'a-copy.ts'],
  ]);
  assert.deepEqual(claim?.tools, [], 'the newcomer has no tool in use');
  assert.deepEqual(
    claim?.diagnostics.map((diagnostic) => [diagnostic.code, basename(diagnostic.file)]),
    [['duplicate-name', 'a-copy.ts']],
  );
  assert.match(claim?.diagnostics[0]?.hint ?? '', /weather\.ts keeps the name \(it had it first\)/);
  assert.deepEqual(await live.current.execute('weather', {}), { success: true, data: 'the working one' });
  assert.deepEqual(
    live.current.diagnostics.map((diagnostic) => basename(diagnostic.file)),
    ['a-copy.ts'],
    'no diagnostic on the file nobody touched',
  );
  assert.ok(!seen.some((change) => basename(change.file) === 'weather.ts'), 'no event for the file nobody touched');

  // Editing the holder does not hand the name over.
  await change(seen, () => writeFile(join(dir, 'weather.ts'), version('weather', 'the working one, edited')), [
    ['changed', 'weather.ts'],
  ]);
  assert.deepEqual(await live.current.execute('weather', {}), { success: true, data: 'the working one, edited' });

  const [fixed] = await change(seen, () => rm(join(dir, 'weather.ts')), [
    ['removed', 'weather.ts'],
    ['fixed', 'a-copy.ts'],
  ]).then((changes) => changes.filter((change) => change.event === 'fixed'));
  assert.deepEqual(fixed?.tools, ['weather']);
  assert.deepEqual(await live.current.execute('weather', {}), { success: true, data: 'the copy' });
  assert.deepEqual(live.current.diagnostics, []);
});

test('a new config reloads only the files of the tools whose own sections changed; any other change, every file', async (t) => {
  const dir = await tempDir(t);
  const probe = createProbe('reconfigure-loads');
  const counted = (name: string) =>
    toolSource(name, {
      header: `${probeRef('reconfigure-loads')}.${name} = (${probeRef('reconfigure-loads')}.${name} ?? 0) + 1;`,
    });
  await writeFiles(dir, { 'one.ts': counted('one'), 'two.ts': counted('two') });
  const base = { tools: { isolation: 'none' as const } };
  const live = await LiveToolRegistry.open({ folders: [dir], baseDir: dir, config: base, watch: false });
  t.after(() => live.close());
  assert.deepEqual([probe.one, probe.two], [1, 1]);
  const switched = await live.reconfigure({ tools: { ...base.tools, one: { enabled: false } } });
  assert.deepEqual(
    switched.map((change) => basename(change.file)),
    ['one.ts'],
  );
  assert.deepEqual([probe.one, probe.two], [2, 1]);
  assert.equal(live.current.find('one')?.available, false);
  await live.reconfigure({ tools: { ...base.tools, one: { enabled: false }, timeout_ms: 5_000 } });
  assert.deepEqual([probe.one, probe.two], [3, 2], 'a setting of every tool reloads every file');
  await live.reconfigure({
    tools: { ...base.tools, one: { enabled: false }, timeout_ms: 5_000 },
    files: { roots: ['.'] },
  });
  assert.deepEqual([probe.one, probe.two], [4, 3], 'a section any tool may read reloads every file');
});
