// Issue 9: hostile tool files cannot end, hang or swell Riverse — signals, hangs at start,
// poisoned built-ins, hanging loads, oversize results and messages, memory outside the heap — and
// a tool's own error keeps its origin. Real files, real child processes and worker threads.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { NO_MODEL_TO_SAMPLE, NO_ONE_TO_ASK, NO_ROOTS } from '../../tools/tool-context.ts';
import type { AppConfig } from '../../tools/app-config.ts';
import { diagnosticsFor, tempDir, toolNames, toolSource, writeFiles, type Cleanup } from '../test-support.ts';
import { registrySetup, ToolRegistry } from '../tool-registry.ts';

async function load(
  t: Cleanup,
  files: Record<string, string>,
  config: AppConfig = {},
): Promise<{ dir: string; registry: ToolRegistry }> {
  const dir = await tempDir(t);
  await writeFiles(dir, files);
  const { workers } = registrySetup({ config });
  t.after(() => workers.close());
  return { dir, registry: await ToolRegistry.load({ folders: [dir], config, baseDir: dir, workers }) };
}

const echo = toolSource('echo', {
  manifest: `parameters: { text: 'what to say' },`,
  execute: `return ToolResult.ok('echo ' + params.text);`,
});

for (const kind of ['process', 'worker'] as const) {
  describe(`signals (${kind}): a tool cannot end Riverse through process`, () => {
    test('process.kill of Riverse, its group or the raw _kill, from execute: refused, and the call fails with why', async (t) => {
      const attempts = {
        'pid.ts': toolSource('kill_pid', {
          execute: `process.kill(${process.pid}, 'SIGKILL'); return ToolResult.ok('alive');`,
        }),
        'group.ts': toolSource('kill_group', { execute: `process.kill(0, 'SIGKILL'); return ToolResult.ok('alive');` }),
        'raw.ts': toolSource('kill_raw', {
          execute: `process._kill(${process.pid}, 9); return ToolResult.ok('alive');`,
        }),
        'binding.ts': toolSource('kill_binding', {
          execute: `process.binding('process_methods'); return ToolResult.ok('alive');`,
        }),
        'echo.ts': echo,
      };
      const { registry } = await load(t, attempts, { tools: { isolation: kind } });
      assert.deepEqual(registry.diagnostics, []);
      for (const name of ['kill_pid', 'kill_group', 'kill_raw']) {
        const result = await registry.execute(name, {});
        assert.equal(result.code, 'threw', `${name}: ${JSON.stringify(result)}`);
        assert.match(result.error ?? '', /may not signal the Riverse process/);
      }
      assert.match(
        (await registry.execute('kill_binding', {})).error ?? '',
        /process\.binding\(\) is not available to tools/,
      );
      assert.deepEqual(await registry.execute('echo', { text: 'still here' }), {
        success: true,
        data: 'echo still here',
      });
    });

    test('process.kill of Riverse from top-level code: the file still loads (the throw is its import error); the others load', async (t) => {
      const { dir, registry } = await load(
        t,
        { 'a.ts': `process.kill(${process.pid}, 'SIGTERM');\n${toolSource('alpha')}`, 'echo.ts': echo },
        { tools: { isolation: kind } },
      );
      assert.deepEqual(toolNames(registry), ['echo']);
      const [diagnostic] = diagnosticsFor(registry, join(dir, 'a.ts'));
      assert.equal(diagnostic?.code, 'import-failed');
      assert.match(diagnostic?.message ?? '', /may not signal the Riverse process/);
    });
  });
}

test('process isolation: a tool that kills its own process fails its call as crashed; the next call gets a new process', async (t) => {
  const { registry } = await load(t, {
    'self.ts': toolSource('self_kill', {
      manifest: `parameters: { now: 'yes to die' },`,
      execute: `if (params.now === 'yes') process.kill(process.pid, 'SIGKILL'); return ToolResult.ok(String(process.pid));`,
    }),
  });
  const first = await registry.execute('self_kill', {});
  const result = await registry.execute('self_kill', { now: 'yes' });
  assert.equal(result.code, 'crashed', JSON.stringify(result));
  assert.match(result.error ?? '', /ended by SIGKILL/);
  const next = await registry.execute('self_kill', {});
  assert.equal(next.success, true);
  assert.notEqual(next.data, first.data);
});

for (const kind of ['process', 'worker'] as const) {
  // The file never finishes its import: only the time limit and the abort can end these calls.
  test(`a file that hangs only when its host imports it again (${kind}): the call's time limit and cancellation cover the start`, {
    timeout: 60_000,
  }, async (t) => {
    const dir = await tempDir(t);
    const marker = join(dir, 'loaded-once');
    // The loader imports it first (and leaves the marker); its executor then hangs at the import.
    const header = `import { existsSync, writeFileSync } from 'node:fs';\nif (existsSync(${JSON.stringify(marker)})) while (true) {}\nwriteFileSync(${JSON.stringify(marker)}, '1');`;
    await writeFiles(dir, { 'late.ts': toolSource('hangs_later', { header }), 'echo.ts': echo });
    const config: AppConfig = { tools: { isolation: kind } };
    const { workers } = registrySetup({ config });
    t.after(() => workers.close());
    const registry = await ToolRegistry.load({ folders: [dir], config, baseDir: dir, workers });
    assert.ok(existsSync(marker));

    const timedOut = await registry.execute('hangs_later', {}, { timeoutMs: 400 });
    assert.equal(timedOut.code, 'timeout', JSON.stringify(timedOut));
    assert.match(timedOut.error ?? '', /400 ms/);

    const controller = new AbortController();
    const call = registry.execute('hangs_later', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    assert.equal((await call).code, 'aborted');
    assert.deepEqual(await registry.execute('echo', { text: 'meanwhile' }), { success: true, data: 'echo meanwhile' });
  });
}

test("poisoned built-ins: one file's top-level change to a prototype or a global changes nothing in how the others load", async (t) => {
  const files: Record<string, string> = {
    // Sorted first, so without protection the files after it would load in its realm.
    '0-poison.ts': `Object.prototype.enabled = false;\nArray.prototype.at = () => 'poisoned';\nglobalThis.__riversePoison = 'set';\nprocess.env.RIVERSE_POISON = '1';\nprocess.on('beforeExit', () => {});\n${toolSource('poison')}`,
  };
  for (let i = 1; i <= 6; i++) {
    files[`${i}-clean.ts`] = toolSource(`clean_${i}`, {
      members: `isAvailable() { return globalThis.__riversePoison === undefined && [].at(0) === undefined && ({}).enabled === undefined && process.env.RIVERSE_POISON === undefined && process.listenerCount('beforeExit') === 0; }`,
    });
  }
  const { registry } = await load(t, files);
  assert.deepEqual(registry.diagnostics, []);
  assert.deepEqual(
    registry.list().filter((row) => !row.available),
    [],
    'no file was turned off by another',
  );
  assert.equal(toolNames(registry).length, 7);
});

test('N files whose top-level code hangs cost about one load limit, not N', async (t) => {
  // Each hanging file notes its start in a shared log, then watches it: a start noted while it still
  // hangs means the files hung side by side. Loaded one after another, none would see another start.
  const log = join(await tempDir(t), 'starts.log');
  const hang = `import { appendFileSync, readFileSync } from 'node:fs';
const starts = () => readFileSync(${JSON.stringify(log)}, 'utf8').split('\\n').filter((line) => line === 'start').length;
appendFileSync(${JSON.stringify(log)}, 'start\\n');
const mine = starts();
await new Promise(() => {
  const watch = setInterval(() => {
    if (starts() === mine) return;
    appendFileSync(${JSON.stringify(log)}, 'saw another\\n');
    clearInterval(watch);
  }, 20);
  setInterval(() => {}, 1000);
});`;
  const files: Record<string, string> = { 'echo.ts': echo };
  for (let i = 1; i <= 7; i++) files[`hang-${i}.ts`] = `${hang}\n${toolSource(`hang_${i}`)}`;
  files['spin.ts'] = `while (true) {}\n${toolSource('spin')}`;
  const { registry } = await load(t, files, { tools: { load_timeout_ms: 1_500 } });
  assert.deepEqual(toolNames(registry), ['echo']);
  assert.equal(
    registry.diagnostics.filter((diagnostic) => diagnostic.code === 'load-timeout').length,
    8,
    JSON.stringify(registry.diagnostics),
  );
  assert.match(registry.diagnostics[0]!.message, /within 1.5 s/);
  const lines = readFileSync(log, 'utf8').split('\n');
  assert.ok(lines.includes('saw another'), `the hanging files did not hang side by side: ${lines.join(', ')}`);
});

describe('sizes are capped where the tool runs', () => {
  test('a 200 MB result is cut inside its process: Riverse gets the first max_result_chars, and its memory barely moves', async (t) => {
    const { registry } = await load(
      t,
      { 'huge.ts': toolSource('huge', { execute: `return ToolResult.ok('x'.repeat(200 * 1024 * 1024));` }) },
      { tools: { memory_mb: 1024, max_result_chars: 1000 } },
    );
    const before = process.memoryUsage().rss;
    const result = await registry.execute('huge', {});
    const grew = process.memoryUsage().rss - before;
    assert.equal(result.success, true, JSON.stringify(result).slice(0, 300));
    assert.match(result.data, /^x{1000}\n…\[truncated: showing the first 1,000 of 209,715,200 characters\]$/);
    assert.ok(grew < 50 * 1024 * 1024, `Riverse's RSS grew by ${Math.round(grew / 1024 / 1024)} MB`);
  });

  test('a process that writes an oversize message straight to its channel is stopped before Riverse holds it', async (t) => {
    const header = `import { writeSync } from 'node:fs';`;
    // A frame header announcing 1 GB, then nothing: the cap must act on the header alone.
    const execute = `const header = Buffer.alloc(4); header.writeUInt32BE(1024 * 1024 * 1024); writeSync(3, header); await new Promise(() => {});`;
    const { registry } = await load(t, { 'forge.ts': toolSource('forge', { header, execute }), 'echo.ts': echo });
    const result = await registry.execute('forge', {});
    assert.equal(result.code, 'crashed', JSON.stringify(result));
    assert.match(result.error ?? '', /sent a message of 1024 MB, more than the 8 MB allowed/);
    assert.deepEqual(await registry.execute('echo', { text: 'after' }), { success: true, data: 'echo after' });
  });

  test('memory a tool holds outside the V8 heap (Buffers) counts toward its memory_mb in a process', {
    timeout: 60_000,
  }, async (t) => {
    const execute = `const keep = []; for (;;) { keep.push(Buffer.alloc(8 * 1024 * 1024, 1)); await new Promise((resolve) => setTimeout(resolve, 5)); }`;
    const { registry } = await load(
      t,
      { 'buffers.ts': toolSource('buffers', { manifest: 'timeoutMs: 20000,', execute }), 'echo.ts': echo },
      { tools: { buffers: { memory_mb: 96 } } },
    );
    const result = await registry.execute('buffers', {});
    // Its time limit (20 s) would have ended it with code 'timeout'.
    assert.equal(result.code, 'crashed', JSON.stringify(result));
    assert.match(result.error ?? '', /exceeded the memory limit of 96 MB/);
    assert.deepEqual(await registry.execute('echo', { text: 'after' }), { success: true, data: 'echo after' });
  });
});

for (const kind of ['process', 'worker'] as const) {
  test(`a thrown error keeps its class name, message and a stack at the tool file's own line (${kind})`, async (t) => {
    const members = `helper() { throw new RangeError('the dial only goes to 11'); }`;
    const source = toolSource('dial', {
      className: 'DialTool',
      members,
      execute: `class DialError extends Error { name = 'DialError'; }\n    if (params.custom) throw new DialError('custom failure');\n    this.helper();`,
      manifest: `parameters: { custom: { type: 'boolean', description: 'throw the custom class' } },`,
    });
    const { dir, registry } = await load(t, { 'dial.ts': source }, { tools: { isolation: kind } });
    const tool = registry.get('dial')!;
    const context = {
      signal: new AbortController().signal,
      sessionId: 't',
      language: 'en' as const,
      logger: tool.logger,
      config: {},
      ask: NO_ONE_TO_ASK,
      sample: NO_MODEL_TO_SAMPLE,
      roots: NO_ROOTS,
      progress: () => {},
      log: () => {},
      resultPart: async () => undefined,
    };
    const error = await Promise.resolve(tool.run({}, context)).then(
      () => assert.fail('it throws'),
      (thrown: unknown) => thrown as Error,
    );
    assert.ok(error instanceof RangeError, `a RangeError: ${String(error)}`);
    assert.equal(error.message, 'the dial only goes to 11');
    const line = source.split('\n').findIndex((text) => text.includes('the dial only goes to 11')) + 1;
    assert.match(
      error.stack ?? '',
      new RegExp(`${join(dir, 'dial.ts').replaceAll('/', '\\/').replaceAll('.', '\\.')}:${line}:`),
      error.stack,
    );
    assert.doesNotMatch(error.stack ?? '', /\?v=\d|tool-worker/);
    const custom = await Promise.resolve(tool.run({ custom: true }, context)).then(
      () => assert.fail('it throws'),
      (thrown: unknown) => thrown as Error,
    );
    assert.equal(custom.name, 'DialError');
    assert.equal(
      (await registry.execute('dial', {})).error,
      `dial failed: RangeError: the dial only goes to 11 (at ${join(dir, 'dial.ts')}:${line}:20)`,
    );
  });
}

describe('forged messages: what a host sends is checked again in Riverse', () => {
  const FRAME = `import { writeSync } from 'node:fs';\nimport { serialize } from 'node:v8';\nconst send = (value) => { const body = serialize(value); const head = Buffer.alloc(4); head.writeUInt32BE(body.length); writeSync(3, Buffer.concat([head, body])); };`;

  test("a forged result (data that is no string, a thrown '__proto__') is an invalid result or a plain throw, not a crash of Riverse", async (t) => {
    // Call ids start at 1 for each host: the first call to this file is id 1, the second id 2.
    const execute = `send({ type: 'result', id: params.n, result: params.n === 1 ? { success: true, data: { huge: true } } : { threw: { name: '__proto__', message: 42 } } }); await new Promise(() => {});`;
    const { registry } = await load(t, {
      'forge.ts': toolSource('forge', {
        header: FRAME,
        manifest: `parameters: { n: { type: 'integer', description: 'call number' } },`,
        execute,
      }),
    });
    const invalid = await registry.execute('forge', { n: 1 });
    assert.equal(invalid.code, 'invalid-result', JSON.stringify(invalid));
    const threw = await registry.execute('forge', { n: 2 });
    assert.equal(threw.code, 'threw', JSON.stringify(threw));
    assert.match(threw.error ?? '', /42/);
  });

  test('a loader report forged by top-level code (a manifest that fails the check) makes the file fail to load, not Riverse', async (t) => {
    const header = `${FRAME}\nsend({ type: 'loaded', info: { file: import.meta.filename, tools: [{ name: 'forged', file: import.meta.filename, manifest: { name: 'forged' }, available: true }], diagnostics: [] } });`;
    const { dir, registry } = await load(t, { 'forged.ts': toolSource('real', { header }), 'echo.ts': echo });
    assert.deepEqual(toolNames(registry), ['echo']);
    const [diagnostic] = diagnosticsFor(registry, join(dir, 'forged.ts'));
    assert.equal(diagnostic?.code, 'load-crashed');
    assert.match(diagnostic?.message ?? '', /manifest that does not pass the manifest check/);
  });
});

test('tools.isolation: none with one tool asking for a process: that tool runs in one, the others in Riverse', async (t) => {
  const pid = `return ToolResult.ok(String(process.pid));`;
  const { registry } = await load(
    t,
    { 'own.ts': toolSource('own_process', { execute: pid }), 'here.ts': toolSource('here', { execute: pid }) },
    { tools: { isolation: 'none', own_process: { isolation: 'process' } } },
  );
  assert.equal(registry.get('own_process')?.isolation, 'process');
  assert.equal(registry.get('here')?.isolation, 'none');
  assert.notEqual((await registry.execute('own_process', {})).data, String(process.pid));
  assert.equal((await registry.execute('here', {})).data, String(process.pid));
});

// A read of the pipe would wait for a writer forever: the test's timeout is the bound.
test('tool files that are links to a device or a pipe, or too large, are reported; they neither hang nor swell Riverse', {
  timeout: 60_000,
}, async (t) => {
  const dir = await tempDir(t);
  await writeFiles(dir, { 'echo.ts': echo, 'huge.ts': `// ${'x'.repeat(5 * 1024 * 1024)}\n${toolSource('huge')}` });
  const { symlink } = await import('node:fs/promises');
  const { execFileSync } = await import('node:child_process');
  await symlink('/dev/zero', join(dir, 'zero.ts'));
  execFileSync('mkfifo', [join(dir, 'pipe-target')]);
  await symlink(join(dir, 'pipe-target'), join(dir, 'pipe.ts'));
  const { workers } = registrySetup({});
  t.after(() => workers.close());
  const registry = await ToolRegistry.load({ folders: [dir], baseDir: dir, workers });
  assert.deepEqual(toolNames(registry), ['echo']);
  assert.match(
    diagnosticsFor(registry, join(dir, 'zero.ts'))[0]?.message ?? '',
    /cannot be read: it is not a regular file/,
  );
  assert.match(
    diagnosticsFor(registry, join(dir, 'pipe.ts'))[0]?.message ?? '',
    /cannot be read: it is not a regular file/,
  );
  assert.match(
    diagnosticsFor(registry, join(dir, 'huge.ts'))[0]?.message ?? '',
    /the file is 5\.0 MB, more than the 4\.0 MB a tool file may be/,
  );
});

test('a file that poisons built-ins in the middle of a batch: every file after it is loaded again, cleanly', async (t) => {
  const clean = (name: string) =>
    toolSource(name, {
      members: `isAvailable() { return ({}).poisoned === undefined && globalThis.__midPoison === undefined; }`,
    });
  const files: Record<string, string> = {
    'm-poison.ts': `Object.prototype.poisoned = true;\nglobalThis.__midPoison = 1;\n${toolSource('mid_poison')}`,
  };
  for (let i = 0; i < 12; i++) files[`a${String(i).padStart(2, '0')}.ts`] = clean(`early_${i}`);
  for (let i = 0; i < 12; i++) files[`z${String(i).padStart(2, '0')}.ts`] = clean(`late_${i}`);
  const { registry } = await load(t, files);
  assert.deepEqual(registry.diagnostics, []);
  assert.deepEqual(
    registry
      .list()
      .filter((row) => !row.available && row.name !== 'mid_poison')
      .map((row) => row.name),
    [],
    'no clean file saw the poison',
  );
  assert.equal(toolNames(registry).length, 24 + (registry.get('mid_poison') === undefined ? 0 : 1));
});
