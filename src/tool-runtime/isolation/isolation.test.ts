// Issues 5 and 9: whatever a tool does in its host — spin, exit, throw later, eat memory, never
// answer — the call fails with a code and the assistant keeps serving. Real tool files in temp
// folders, run in both kinds of host: child processes (the default) and worker threads.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AppConfig } from '../../tools/app-config.ts';
import { diagnosticsFor, tempDir, toolNames, toolSource, writeFiles, type Cleanup } from '../test-support.ts';
import { registrySetup, ToolRegistry } from '../tool-registry.ts';

/** Loads `dir` isolated (by default in processes); the registry's hosts are stopped when the test ends. */
async function loadIsolated(t: Cleanup, dir: string, config: AppConfig = {}): Promise<ToolRegistry> {
  const { workers } = registrySetup({ config });
  t.after(() => workers.close());
  return ToolRegistry.load({ folders: [dir], config, baseDir: dir, workers });
}

/** Waits until `check()` is true, failing after `ms`. */
async function waitFor(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// `host`: which process and thread answered, to tell a new host from the old one.
const FS = `import { writeFileSync } from 'node:fs';\nimport { threadId } from 'node:worker_threads';\nconst host = process.pid + '/' + threadId;`;

/** The hostile tools, one file each (so one worker each). */
const HOSTILE = {
  'echo.ts': toolSource('echo', {
    header: FS,
    manifest: `parameters: { text: 'what to say' },`,
    execute: `return ToolResult.ok('echo ' + params.text);`,
  }),
  'spin.ts': toolSource('spin', {
    header: FS,
    // Long enough for the concurrent call below to be answered while this one spins.
    manifest: `timeoutMs: 2500, parameters: { started: 'marker file' },`,
    execute: `if (params.started) { writeFileSync(params.started, 'spinning'); while (true) {} } return ToolResult.ok('spin ' + host);`,
  }),
  'exits.ts': toolSource('exits', {
    header: FS,
    manifest: `parameters: { exit: 'yes to exit' },`,
    execute: `if (params.exit === 'yes') process.exit(3); return ToolResult.ok('alive ' + host);`,
  }),
  'late.ts': toolSource('late', {
    header: FS,
    manifest: `parameters: { late: 'yes to throw after returning' },`,
    execute: `if (params.late === 'yes') setTimeout(() => { throw new Error('late boom'); }, 20); return ToolResult.ok(host);`,
  }),
  'bomb.ts': toolSource('bomb', {
    manifest: `timeoutMs: 30000,`,
    execute: `const keep = []; while (true) keep.push(new Array(1_000_000).fill(keep.length + 0.5));`,
  }),
  'never.ts': toolSource('never', { manifest: `timeoutMs: 300,`, execute: `return new Promise(() => {});` }),
  'listens.ts': toolSource('listens', {
    header: FS,
    manifest: `timeoutMs: 30000, parameters: { started: 'marker file', marker: 'file written when the signal fires' },`,
    execute: `return new Promise((resolve) => {
      context.signal.addEventListener('abort', () => {
        writeFileSync(params.marker, String(context.signal.reason?.name));
        resolve(ToolResult.fail('stopped'));
      });
      writeFileSync(params.started, 'listening');
    });`,
  }),
  'invalid.ts': toolSource('invalid', { execute: `return { ok: true, answer: 42 };` }),
  'throws.ts': toolSource('throws', { execute: `throw new Error('the flux capacitor is cold');` }),
};

for (const kind of ['process', 'worker'] as const)
  describe(`isolated calls (${kind}): a hostile tool fails its call, the rest keeps serving`, () => {
    let dir: string;
    let registry: ToolRegistry;
    const cleanup: Array<() => unknown> = [];
    before(async () => {
      dir = await tempDir({ after: (fn) => cleanup.push(fn) });
      await writeFiles(dir, HOSTILE);
      registry = await loadIsolated({ after: (fn) => cleanup.push(fn) }, dir, {
        tools: { isolation: kind, bomb: { memory_mb: 64 } },
      });
    });
    after(async () => {
      for (const fn of cleanup.reverse()) await fn();
    });

    test('every tool loads, and runs in a worker, not in this thread', () => {
      assert.deepEqual(registry.diagnostics, []);
      assert.deepEqual(toolNames(registry), [
        'bomb',
        'echo',
        'exits',
        'invalid',
        'late',
        'listens',
        'never',
        'spin',
        'throws',
      ]);
      for (const tool of registry.tools()) assert.equal(tool.isolation, kind, tool.name);
    });

    test("a busy loop: 'timeout'; a call to another file is answered while it spins, and the next call to it works", async () => {
      // The echo worker is started first, so its answer does not wait for a worker to start.
      assert.deepEqual(await registry.execute('echo', { text: 'warm' }), { success: true, data: 'echo warm' });
      const started = join(dir, 'spin-started');
      let spinDone = false;
      const spinning = registry.execute('spin', { started }).finally(() => (spinDone = true));
      await waitFor('the spin tool to start spinning', () => existsSync(started));
      const echo = await registry.execute('echo', { text: 'meanwhile' });
      assert.deepEqual(echo, { success: true, data: 'echo meanwhile' });
      assert.equal(spinDone, false, 'the echo call was answered while the spin call was still running');
      const result = await spinning;
      assert.equal(result.success, false);
      assert.equal(result.code, 'timeout', JSON.stringify(result));
      assert.match(result.error ?? '', /spin did not finish within 2500 ms/);
      // At once, while the spinning worker is in its grace period: this call gets a fresh worker, and
      // is not failed with the worker that is about to be stopped.
      const next = await registry.execute('spin', {});
      assert.equal(next.success, true, JSON.stringify(next));
      assert.match(next.data, /^spin \d+\/\d+$/);
    });

    test("process.exit(3): 'crashed' naming exit code 3, and the next call works in a new worker", async () => {
      const first = await registry.execute('exits', {});
      assert.equal(first.success, true, JSON.stringify(first));
      const result = await registry.execute('exits', { exit: 'yes' });
      assert.equal(result.success, false);
      assert.equal(result.code, 'crashed', JSON.stringify(result));
      assert.match(result.error ?? '', /exited with code 3/);
      const next = await registry.execute('exits', {});
      assert.equal(next.success, true, JSON.stringify(next));
      assert.notEqual(next.data, first.data, 'a new worker (another thread id) answers');
      assert.deepEqual(await registry.execute('echo', { text: 'still here' }), {
        success: true,
        data: 'echo still here',
      });
    });

    test('a throw in a timer after returning: the call succeeded; the worker is replaced and the next call works', async (t) => {
      const reported: string[] = [];
      t.mock.method(console, 'error', (...args: unknown[]) => reported.push(args.map(String).join(' ')));
      const result = await registry.execute('late', { late: 'yes' });
      assert.equal(result.success, true, JSON.stringify(result));
      const firstThread = result.data;
      await waitFor('the crash of the late-throwing worker to be reported', () =>
        reported.some((line) => line.includes('late boom')),
      );
      assert.match(
        reported.find((line) => line.includes('late boom'))!,
        /late\.ts: .*late boom; a new one starts on the next call/,
      );
      const next = await registry.execute('late', {});
      assert.equal(next.success, true, JSON.stringify(next));
      assert.notEqual(next.data, firstThread, 'a new worker (another thread id) answers');
    });

    test("a memory bomb past tools.<name>.memory_mb: 'crashed' naming the memory limit", {
      timeout: 60_000,
    }, async () => {
      const result = await registry.execute('bomb', {});
      assert.equal(result.success, false);
      // Its time limit would have ended it with code 'timeout'.
      assert.equal(result.code, 'crashed', JSON.stringify(result));
      assert.match(result.error ?? '', /memory limit of 64 MB/);
      assert.deepEqual(await registry.execute('echo', { text: 'after the bomb' }), {
        success: true,
        data: 'echo after the bomb',
      });
    });

    test("a promise that never settles: 'timeout'", async () => {
      const result = await registry.execute('never', {});
      assert.equal(result.success, false);
      assert.equal(result.code, 'timeout', JSON.stringify(result));
      assert.match(result.error ?? '', /never did not finish within 300 ms/);
    });

    test("the caller's abort reaches the tool's signal in its worker (AbortError)", async () => {
      const started = join(dir, 'listens-started');
      const marker = join(dir, 'listens-aborted');
      const controller = new AbortController();
      const call = registry.execute('listens', { started, marker }, { signal: controller.signal });
      await waitFor('the listening tool to start', () => existsSync(started));
      controller.abort();
      const result = await call;
      assert.equal(result.code, 'aborted', JSON.stringify(result));
      // Its content, not only the file: a write may be seen between the file's creation and its text.
      await waitFor(
        'the tool to write its marker file',
        () => existsSync(marker) && readFileSync(marker, 'utf8') !== '',
      );
      assert.equal(await readFile(marker, 'utf8'), 'AbortError');
    });

    test('a time limit reaches the tool as a TimeoutError, as it does in-process', async () => {
      const started = join(dir, 'listens-started-2');
      const marker = join(dir, 'listens-timed-out');
      const result = await registry.execute('listens', { started, marker }, { timeoutMs: 300 });
      assert.equal(result.code, 'timeout', JSON.stringify(result));
      // Its content, not only the file: a write may be seen between the file's creation and its text.
      await waitFor(
        'the tool to write its marker file',
        () => existsSync(marker) && readFileSync(marker, 'utf8') !== '',
      );
      assert.equal(await readFile(marker, 'utf8'), 'TimeoutError');
    });

    test("a value that is not a ToolResult: 'invalid-result'", async () => {
      const result = await registry.execute('invalid', {});
      assert.equal(result.success, false);
      assert.equal(result.code, 'invalid-result', JSON.stringify(result));
      assert.match(result.error ?? '', /^invalid /);
    });

    test("a thrown error: 'threw' with its message", async () => {
      const result = await registry.execute('throws', {});
      assert.equal(result.success, false);
      assert.equal(result.code, 'threw', JSON.stringify(result));
      assert.match(result.error ?? '', /throws failed: the flux capacitor is cold/);
    });
  });

test("tools.memory_mb for every worker: a memory bomb is 'crashed' naming the limit; its neighbour still answers", async (t) => {
  const dir = await tempDir(t);
  await writeFiles(dir, { 'bomb.ts': HOSTILE['bomb.ts'], 'echo.ts': HOSTILE['echo.ts'] });
  const registry = await loadIsolated(t, dir, { tools: { memory_mb: 64 } });
  assert.deepEqual(registry.diagnostics, []);
  const [bomb, echo] = await Promise.all([registry.execute('bomb', {}), registry.execute('echo', { text: 'hi' })]);
  assert.equal(bomb.code, 'crashed', JSON.stringify(bomb));
  assert.match(bomb.error ?? '', /memory limit of 64 MB/);
  assert.deepEqual(echo, { success: true, data: 'echo hi' });
});

test('loading: a file whose top-level code calls process.exit(4) gets load-crashed; the files around it load', async (t) => {
  const dir = await tempDir(t);
  await writeFiles(dir, {
    'a.ts': toolSource('alpha'),
    'b.ts': `process.exit(4);\n${toolSource('bravo')}`,
    'c.ts': toolSource('charlie'),
  });
  const registry = await loadIsolated(t, dir);
  assert.deepEqual(toolNames(registry), ['alpha', 'charlie']);
  const [diagnostic, ...more] = diagnosticsFor(registry, join(dir, 'b.ts'));
  assert.equal(more.length, 0, JSON.stringify(registry.diagnostics));
  assert.equal(diagnostic?.code, 'load-crashed');
  assert.match(diagnostic?.message ?? '', /exit code 4/);
  assert.deepEqual(await registry.execute('charlie', {}), { success: true, data: 'charlie' });
});

test('loading: top-level code that throws later (in a timer) does not take the file loaded after it down', async (t) => {
  const dir = await tempDir(t);
  await writeFiles(dir, {
    'a.ts': toolSource('alpha'),
    // Its timer fires while the loader is importing c.ts, whose top-level code waits.
    'b.ts': `setTimeout(() => { throw new Error('thrown later by b'); }, 20);\n${toolSource('bravo')}`,
    'c.ts': `await new Promise((resolve) => setTimeout(resolve, 500));\n${toolSource('charlie')}`,
    'd.ts': toolSource('delta'),
  });
  const registry = await loadIsolated(t, dir);
  assert.deepEqual(diagnosticsFor(registry, join(dir, 'c.ts')), [], 'c.ts did nothing wrong');
  for (const name of ['alpha', 'charlie', 'delta'])
    assert.ok(toolNames(registry).includes(name), `${name} is registered: ${JSON.stringify(registry.diagnostics)}`);
  assert.deepEqual(await registry.execute('charlie', {}), { success: true, data: 'charlie' });
});

// The loader's limit per file is 10 s: this test takes that long, once.
test('loading: a file whose top-level code spins gets load-timeout; the other files load', {
  timeout: 90_000,
}, async (t) => {
  const dir = await tempDir(t);
  await writeFiles(dir, {
    'a.ts': toolSource('alpha'),
    'b.ts': `while (true) {}\n${toolSource('bravo')}`,
    'c.ts': toolSource('charlie'),
  });
  const started = performance.now();
  const registry = await loadIsolated(t, dir);
  const elapsed = performance.now() - started;
  assert.deepEqual(toolNames(registry), ['alpha', 'charlie']);
  const found = diagnosticsFor(registry, join(dir, 'b.ts'));
  assert.deepEqual(
    found.map((diagnostic) => diagnostic.code),
    ['load-timeout'],
  );
  assert.match(found[0]!.message, /did not finish within 10 s/);
  assert.ok(elapsed >= 9_500, `loading gave up after ${Math.round(elapsed)} ms, before its limit`);
  assert.deepEqual(await registry.execute('alpha', {}), { success: true, data: 'alpha' });
});

test('a trusted tool runs in this thread (it sees our globals); an untrusted one runs in a worker (it does not)', async (t) => {
  const globals = globalThis as { __riverseIsolationProbe?: string };
  globals.__riverseIsolationProbe = 'seen from the main thread';
  t.after(() => delete globals.__riverseIsolationProbe);
  const peek = `return ToolResult.ok(String(globalThis.__riverseIsolationProbe));`;
  const dir = await tempDir(t);
  await writeFiles(dir, {
    'trusted.ts': toolSource('trusted_peek', { execute: peek }),
    'untrusted.ts': toolSource('untrusted_peek', { execute: peek }),
  });
  const registry = await loadIsolated(t, dir, { tools: { trusted_peek: { trusted: true } } });
  assert.equal(registry.get('trusted_peek')?.isolated, false);
  assert.equal(registry.get('untrusted_peek')?.isolated, true);
  assert.deepEqual(await registry.execute('trusted_peek', {}), { success: true, data: 'seen from the main thread' });
  assert.deepEqual(await registry.execute('untrusted_peek', {}), { success: true, data: 'undefined' });
});

test('a second load after an edit gives the new behaviour: the tool file and a _helper it imports are imported afresh', async (t) => {
  const dir = await tempDir(t);
  await writeFiles(dir, {
    '_helper.ts': `export const word = 'one';\n`,
    'edited.ts': toolSource('edited', { execute: `return ToolResult.ok('edited v1');` }),
    'helped.ts': toolSource('helped', {
      header: `import { word } from './_helper.ts';`,
      execute: `return ToolResult.ok('helper says ' + word);`,
    }),
  });
  const first = await loadIsolated(t, dir);
  assert.deepEqual(await first.execute('edited', {}), { success: true, data: 'edited v1' });
  assert.deepEqual(await first.execute('helped', {}), { success: true, data: 'helper says one' });

  await writeFiles(dir, {
    '_helper.ts': `export const word = 'two';\n`,
    'edited.ts': toolSource('edited', { execute: `return ToolResult.ok('edited v2');` }),
  });
  const second = await loadIsolated(t, dir);
  assert.deepEqual(await second.execute('edited', {}), { success: true, data: 'edited v2' });
  assert.deepEqual(await second.execute('helped', {}), { success: true, data: 'helper says two' });
  // The first snapshot is unchanged: its workers still run what it loaded.
  assert.deepEqual(await first.execute('edited', {}), { success: true, data: 'edited v1' });
});
