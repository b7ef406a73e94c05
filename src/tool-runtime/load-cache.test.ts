// The load cache: an unchanged file is not imported again at the next start; a change to the file,
// a helper it imports, or the config is; a tool whose availability is its own code runs it every
// time; hangs and crashes are not remembered. Real files, real loader processes, a real cache folder.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from '../tools/app-config.ts';
import { tempDir, toolNames, toolSource, writeFiles, type Cleanup } from './test-support.ts';
import { registrySetup, ToolRegistry } from './tool-registry.ts';

/** A tool file that appends a line to `log` each time its top-level code runs (each import). */
function counted(name: string, log: string, options: Parameters<typeof toolSource>[1] = {}): string {
  return toolSource(name, {
    ...options,
    header: `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(log)}, ${JSON.stringify(`${name}\n`)});\n${options.header ?? ''}`,
  });
}

async function load(
  t: Cleanup,
  dir: string,
  cacheDir: string,
  config: AppConfig = {},
  baseDir = dir,
): Promise<ToolRegistry> {
  const { workers } = registrySetup({ config });
  t.after(() => workers.close());
  return ToolRegistry.load({ folders: [dir], config, baseDir, workers, cacheDir });
}

const imports = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : []);

test('an unchanged file is not imported at the next load; an edited one is, and only it', async (t) => {
  const dir = await tempDir(t);
  const cache = await tempDir(t);
  const log = join(await tempDir(t), 'imports.log');
  await writeFiles(dir, { 'a.ts': counted('alpha', log), 'b.ts': counted('bravo', log) });
  const first = await load(t, dir, cache);
  assert.deepEqual(toolNames(first), ['alpha', 'bravo']);
  assert.deepEqual(imports(log).sort(), ['alpha', 'bravo']);
  assert.ok((await readdir(join(cache, 'tools'))).length === 1, 'one cache file for this folder');

  const second = await load(t, dir, cache);
  assert.deepEqual(toolNames(second), ['alpha', 'bravo']);
  assert.deepEqual(imports(log).sort(), ['alpha', 'bravo'], 'nothing imported again');
  // A cached tool still runs: its host imports the file then.
  assert.deepEqual(await second.execute('alpha', {}), { success: true, data: 'alpha' });

  await writeFile(join(dir, 'b.ts'), counted('bravo', log, { execute: `return ToolResult.ok('bravo v2');` }));
  const third = await load(t, dir, cache);
  assert.deepEqual(await third.execute('bravo', {}), { success: true, data: 'bravo v2' });
  assert.equal(imports(log).filter((line) => line === 'alpha').length, 2, 'alpha: its first load and the call above');
});

test('a change to a helper the file imports, or to the config, makes the file load again', async (t) => {
  const dir = await tempDir(t);
  const cache = await tempDir(t);
  const log = join(await tempDir(t), 'imports.log');
  await writeFiles(dir, {
    'lib/_words.ts': `export const word = 'one';\n`,
    'helped.ts': counted('helped', log, {
      header: `import { word } from './lib/_words.ts';`,
      manifest: `description: 'Says the word ' + word,`,
    }),
  });
  assert.equal((await load(t, dir, cache)).get('helped')?.manifest.description, 'Says the word one');
  await load(t, dir, cache);
  assert.equal(imports(log).length, 1);
  await writeFiles(dir, { 'lib/_words.ts': `export const word = 'two';\n` });
  assert.equal((await load(t, dir, cache)).get('helped')?.manifest.description, 'Says the word two');
  assert.equal(imports(log).length, 2, 'the helper changed');
  const off = await load(t, dir, cache, { tools: { helped: { enabled: false } } });
  assert.deepEqual(
    off.list().map(({ name, available, reason }) => ({ name, available, reason })),
    [{ name: 'helped', available: false, reason: 'turned off in the config (tools.helped.enabled: false)' }],
  );
  assert.equal(imports(log).length, 3, 'the config changed');
});

test('a tool with its own isAvailable() is imported at every load, so its answer is never stale', async (t) => {
  const dir = await tempDir(t);
  const cache = await tempDir(t);
  const log = join(await tempDir(t), 'imports.log');
  const flag = join(dir, 'flag');
  await writeFiles(dir, {
    'own.ts': counted('own', log, {
      header: `import { existsSync } from 'node:fs';`,
      members: `isAvailable() { return existsSync(${JSON.stringify(flag)}); }`,
    }),
  });
  assert.equal((await load(t, dir, cache)).list()[0]?.available, false);
  await writeFile(flag, '1');
  assert.equal((await load(t, dir, cache)).list()[0]?.available, true);
  assert.equal(imports(log).length, 2);
});

test('an isAvailable() that answers from the config alone is remembered, with the config as its key (030)', async (t) => {
  const dir = await tempDir(t);
  const cache = await tempDir(t);
  const log = join(await tempDir(t), 'imports.log');
  await writeFiles(dir, {
    'keyed.ts': counted('keyed', log, {
      members: `isAvailable() { return this.config.tools?.keyed?.key ? true : this.unavailable('set tools.keyed.key'); }`,
    }),
  });
  const off = await load(t, dir, cache);
  assert.deepEqual(
    off.list().map(({ available, reason }) => ({ available, reason })),
    [{ available: false, reason: 'set tools.keyed.key' }],
  );
  assert.equal((await load(t, dir, cache)).list()[0]?.reason, 'set tools.keyed.key', 'the same answer, remembered');
  assert.equal(imports(log).length, 1, 'imported once');
  const on = await load(t, dir, cache, { tools: { keyed: { key: 'k' } } });
  assert.equal(on.list()[0]?.available, true);
  assert.equal(imports(log).length, 2, 'the config changed: asked again');
});

test('an isAvailable() that answers with a promise, throws, or reads the clock is asked at every load', async (t) => {
  const dir = await tempDir(t);
  const cache = await tempDir(t);
  const log = join(await tempDir(t), 'imports.log');
  await writeFiles(dir, {
    'later.ts': counted('later', log, { members: 'async isAvailable() { return true; }' }),
    'throws.ts': counted('throws', log, { members: `isAvailable() { throw new Error('not today'); }` }),
    'hours.ts': counted('hours', log, { members: 'isAvailable() { return new Date().getHours() >= 0; }' }),
  });
  await load(t, dir, cache);
  await load(t, dir, cache);
  assert.deepEqual(imports(log).sort(), ['hours', 'hours', 'later', 'later', 'throws', 'throws']);
});

test('an environment variable a file read while loading is part of its key: set another way, the file loads again', async (t) => {
  const dir = await tempDir(t);
  const cache = await tempDir(t);
  const log = join(await tempDir(t), 'imports.log');
  const name = `RIVERSE_TEST_KEY_${process.pid}`;
  t.after(() => delete process.env[name]);
  await writeFiles(dir, {
    'env.ts': counted('env', log, {
      header: `const KEY = process.env.${name};`,
      members: `isAvailable() { return KEY ? true : this.unavailable('set ${name}'); }`,
    }),
  });
  assert.equal((await load(t, dir, cache)).list()[0]?.available, false);
  await load(t, dir, cache);
  assert.equal(imports(log).length, 1, 'unchanged: remembered');
  process.env[name] = 'set';
  assert.equal((await load(t, dir, cache)).list()[0]?.available, true, 'not the stale answer');
  assert.equal(imports(log).length, 2);
});

test('a file that hung while loading is tried again at the next load, not remembered as hanging', async (t) => {
  const dir = await tempDir(t);
  const cache = await tempDir(t);
  const marker = join(dir, 'hung-once');
  // Hangs the first time only (it leaves a marker before hanging).
  const header = `import { existsSync, writeFileSync } from 'node:fs';\nif (!existsSync(${JSON.stringify(marker)})) { writeFileSync(${JSON.stringify(marker)}, '1'); await new Promise(() => setInterval(() => {}, 1000)); }`;
  await writeFiles(dir, { 'moody.ts': toolSource('moody', { header }) });
  const first = await load(t, dir, cache, { tools: { load_timeout_ms: 3_000 } });
  assert.equal(first.diagnostics[0]?.code, 'load-timeout');
  const second = await load(t, dir, cache, { tools: { load_timeout_ms: 3_000 } });
  assert.deepEqual(toolNames(second), ['moody']);
});

test('a copy of a file in another folder is answered by its content, when nothing of its load depends on where it is (030)', async (t) => {
  const cache = await tempDir(t);
  const logDir = await tempDir(t);
  const log = join(logDir, 'imports.log');
  await writeFiles(logDir, { '_shared.ts': `export const word = 'shared';\n` });
  const files = {
    'plain.ts': counted('plain', log),
    // An absolute import is the same module from any folder; the helper still keys the load.
    'absolute.ts': counted('absolute', log, {
      header: `import { word } from ${JSON.stringify(join(logDir, '_shared.ts'))};`,
      manifest: `description: 'Says ' + word,`,
    }),
    // These could tell, or do depend on, where they are: a relative helper, their own URL.
    'relative.ts': counted('relative', log, { header: `import { word } from './_near.ts';` }),
    'located.ts': counted('located', log, { manifest: `description: 'At ' + import.meta.url,` }),
    '_near.ts': `export const word = 'near';\n`,
  };
  const first = await tempDir(t);
  await writeFiles(first, files);
  await load(t, first, cache, {}, logDir);
  // As sets: a slow loader's file may also be given to another loader (load-in-workers.ts).
  const seen = (from: number) => [...new Set(imports(log).slice(from))].sort();
  assert.deepEqual(seen(0), ['absolute', 'located', 'plain', 'relative']);
  let count = imports(log).length;

  const second = await tempDir(t);
  await writeFiles(second, files);
  const copy = await load(t, second, cache, {}, logDir);
  assert.deepEqual(seen(count), ['located', 'relative'], 'only the two that depend on their place');
  count = imports(log).length;
  assert.equal(copy.get('plain')?.file, join(second, 'plain.ts'), 'named by its own path');
  assert.ok(String(copy.get('located')?.manifest.description).startsWith(`At file://${join(second, 'located.ts')}`));
  assert.deepEqual(await copy.execute('plain', {}), { success: true, data: 'plain' });
  count = imports(log).length; // the call imported it in its host

  // A changed helper, or the same text under another config, is loaded again.
  await writeFiles(logDir, { '_shared.ts': `export const word = 'changed';\n` });
  const third = await tempDir(t);
  await writeFiles(third, files);
  const changed = await load(t, third, cache, {}, logDir);
  assert.equal(changed.get('absolute')?.manifest.description, 'Says changed');
  assert.deepEqual(seen(count), ['absolute', 'located', 'relative'], 'the helper it imports changed');
  const fourth = await tempDir(t);
  await writeFiles(fourth, files);
  const before = imports(log).length;
  await load(t, fourth, cache, { tools: { plain: { timeout_ms: 5_000 } } }, logDir);
  assert.ok(imports(log).slice(before).includes('plain'), 'another config');
});

test('a copy read by Node as another kind of module (a package.json type) is loaded again', async (t) => {
  const cache = await tempDir(t);
  const base = await tempDir(t);
  const log = join(base, 'imports.log');
  const place = async (type: string) => {
    const dir = await tempDir(t);
    await writeFiles(dir, { 'plain.ts': counted('plain', log), 'package.json': `{"type":"${type}"}` });
    return load(t, dir, cache, {}, base);
  };
  await place('module');
  await place('module');
  assert.deepEqual(imports(log), ['plain'], 'the same kind: answered by content');
  assert.equal((await place('commonjs')).get('plain'), undefined, 'as CommonJS its import syntax fails');
  assert.deepEqual(imports(log), ['plain'], 'so it was imported, not taken from the cache');
});

test('a load kept by content is not used once Riverse changed (its loading code, in a checkout)', async (t) => {
  const cache = await tempDir(t);
  const base = await tempDir(t);
  const log = join(base, 'imports.log');
  const script = join(base, 'load.ts');
  const registryUrl = JSON.stringify(new URL('./tool-registry.ts', import.meta.url).href);
  await writeFiles(base, {
    'load.ts': `const { ToolRegistry, registrySetup } = await import(${registryUrl});
const [dir, cacheDir, baseDir] = process.argv.slice(2);
const { workers } = registrySetup({ config: {} });
const registry = await ToolRegistry.load({ folders: [dir], config: {}, baseDir, workers, cacheDir });
await workers.close();
console.log(registry.tools().map((tool) => tool.name).join(','));
`,
  });
  const loadCopy = async () => {
    const dir = await tempDir(t);
    await writeFiles(dir, { 'plain.ts': counted('plain', log) });
    const child = spawnSync(process.execPath, [script, dir, cache, base], { encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout.trim(), 'plain');
  };
  await loadCopy();
  await loadCopy();
  assert.deepEqual(imports(log), ['plain'], 'the copy: answered by content');
  // An edit to Riverse's loading code (its time is what the fingerprint of a checkout reads), put back after.
  const own = fileURLToPath(new URL('./load-cache.ts', import.meta.url));
  const { atime, mtime } = statSync(own);
  t.after(() => utimesSync(own, atime, mtime));
  utimesSync(own, atime, new Date(Date.now() + 60_000));
  await loadCopy();
  assert.deepEqual(imports(log), ['plain', 'plain'], 'Riverse changed: imported again');
});

test('a tool that runs in Riverse’s process is imported at the next start from the JavaScript kept with its load: no type stripper loads', async (t) => {
  const cache = await tempDir(t);
  const base = await tempDir(t);
  const dir = await tempDir(t);
  const registryUrl = JSON.stringify(new URL('./tool-registry.ts', import.meta.url).href);
  // Files that share a loader: the JavaScript of all but its first is not taken from it (it ran other code first).
  const names = Array.from({ length: 12 }, (_, index) => `typed_${index}`);
  const typed = (name: string, said = `${name} ran`) =>
    toolSource(name, { execute: `const said: string = ${JSON.stringify(said)};\n    return ToolResult.ok(said);` });
  await writeFiles(dir, Object.fromEntries(names.map((name) => [`${name}.ts`, typed(name)])));
  const config = { tools: Object.fromEntries(names.map((name) => [name, { trusted: true }])) };
  await writeFiles(base, {
    'load.ts': `import { createRequire } from 'node:module';
const { ToolRegistry, registrySetup } = await import(${registryUrl});
const [dir, cacheDir, baseDir] = process.argv.slice(2);
const config = ${JSON.stringify(config)};
const { workers } = registrySetup({ config });
const registry = await ToolRegistry.load({ folders: [dir], config, baseDir, workers, cacheDir });
const results = [];
for (const name of ${JSON.stringify(names)}) results.push((await registry.execute(name, {})).data);
await workers.close();
const stripper = Object.keys(createRequire(import.meta.url).cache).some((path) => /oxc-transform|amaro/.test(path));
console.log(JSON.stringify({ results, stripper }));
`,
  });
  const start = (folder = dir) => {
    const child = spawnSync(process.execPath, [join(base, 'load.ts'), folder, cache, base], { encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    return JSON.parse(child.stdout) as { results: string[]; stripper: boolean };
  };
  const ran = names.map((name) => `${name} ran`);
  const first = start();
  assert.deepEqual(first.results, ran);
  assert.equal(first.stripper, true, 'the first start strips some file’s types here');
  const second = start();
  assert.deepEqual(second.results, ran);
  assert.equal(second.stripper, false, 'the next start imports what was kept');
  // A copy elsewhere, answered by content: its next start too.
  const copy = await tempDir(t);
  await writeFiles(copy, Object.fromEntries(names.map((name) => [`${name}.ts`, typed(name)])));
  assert.deepEqual(start(copy).results, ran);
  assert.deepEqual(start(copy), { results: ran, stripper: false });
  // An edit: the file's new text is made into JavaScript anew, never the kept one.
  await writeFiles(dir, { 'typed_11.ts': typed('typed_11', 'typed_11 edited') });
  assert.deepEqual(start().results, [...ran.slice(0, 11), 'typed_11 edited']);
});
