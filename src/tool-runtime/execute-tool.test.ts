import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProbe, loadTools, probeRef, toolSource } from './test-support.ts';
import type { ToolLogger } from '../tools/tool-context.ts';

/** Source of a sleep that ends early when `signal` fires, for use inside tool files. */
const SLEEP = `const sleep = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
});`;

const SLEEPER_PARAMS = `parameters: { ms: { type: 'integer', description: 'how long to sleep' }, label: 'what to answer' },`;

/** A tool that records its signal in the probe `id`, then sleeps `ms` (default 5 s) or until aborted. */
function waitingTool(name: string, id: string, manifest = ''): string {
  return toolSource(name, {
    header: SLEEP,
    manifest: `${SLEEPER_PARAMS} ${manifest}`,
    execute: `const probe = ${probeRef(id)};
    probe.started = true;
    context.signal.addEventListener('abort', () => { probe.signalFired = true; probe.reasonCode = context.signal.reason?.name; });
    await sleep(params.ms ?? 5000, context.signal);
    probe.finished = true;
    return ToolResult.ok(params.label ?? 'slept');`,
  });
}

/** Resolves once `condition` holds, checking every few milliseconds (the test's timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('results', () => {
  const files = {
    'sync-throw.ts': toolSource('sync_throw', { sync: true, execute: `throw new Error('sync boom');` }),
    'rejects.ts': toolSource('rejects', { execute: `await null; throw new RangeError('async boom');` }),
    'throws-string.ts': toolSource('throws_string', { execute: `throw 'a bare string';` }),
    'returns-string.ts': toolSource('returns_string', { execute: `return 'just text';` }),
    'returns-nothing.ts': toolSource('returns_nothing', { execute: `return;` }),
    'object-data.ts': toolSource('object_data', { execute: `return { success: true, data: {} };` }),
    'no-success.ts': toolSource('no_success', { execute: `return { data: 'x' };` }),
    'literal.ts': toolSource('literal', { execute: `return { success: true, data: 'x' };` }),
    'sync-literal.ts': toolSource('sync_literal', { sync: true, execute: `return { success: true, data: 'sync' };` }),
    'no-data.ts': toolSource('no_data', { execute: `return { success: true };` }),
    'fail-helper.ts': toolSource('fail_helper', { execute: `return ToolResult.fail('no such city');` }),
    'fail-silent.ts': toolSource('fail_silent', { execute: `return { success: false, data: '' };` }),
  };

  test('a tool that throws synchronously, rejects, or throws a non-Error gives code "threw"', async (t) => {
    const { registry } = await loadTools(t, files);
    const sync = await registry.execute('sync_throw', {});
    assert.deepEqual({ ...sync, error: undefined }, { success: false, data: '', code: 'threw', error: undefined });
    assert.match(sync.error ?? '', /^sync_throw failed: sync boom \(at \/.*\/sync-throw\.ts:\d+:\d+\)$/);
    const rejected = await registry.execute('rejects', {});
    assert.equal(rejected.code, 'threw');
    assert.match(rejected.error ?? '', /^rejects failed: RangeError: async boom \(at .*rejects\.ts:\d+:\d+\)$/);
    const bare = await registry.execute('throws_string', {});
    assert.equal(bare.code, 'threw');
    assert.match(bare.error ?? '', /a bare string/);
  });

  test('a value that is not a ToolResult gives code "invalid-result" saying what was wrong', async (t) => {
    const { registry } = await loadTools(t, files);
    const text = await registry.execute('returns_string', {});
    assert.equal(text.success, false);
    assert.equal(text.code, 'invalid-result');
    assert.match(text.error ?? '', /returns_string returned a string \("just text"\), not a ToolResult/);
    assert.match(text.error ?? '', /ToolResult\.ok/);

    const nothing = await registry.execute('returns_nothing', {});
    assert.equal(nothing.code, 'invalid-result');
    assert.match(nothing.error ?? '', /undefined/);

    const objectData = await registry.execute('object_data', {});
    assert.equal(objectData.code, 'invalid-result');
    assert.match(objectData.error ?? '', /"data" must be a string/);
    assert.match(objectData.error ?? '', /JSON\.stringify/);

    const noSuccess = await registry.execute('no_success', {});
    assert.equal(noSuccess.code, 'invalid-result');
    assert.match(noSuccess.error ?? '', /"success"/);
  });

  test('plain object literals are fine, data defaults to "", and a failure always has an error', async (t) => {
    const { registry } = await loadTools(t, files);
    assert.deepEqual(await registry.execute('literal', {}), { success: true, data: 'x' });
    assert.deepEqual(await registry.execute('sync_literal', {}), { success: true, data: 'sync' });
    assert.deepEqual(await registry.execute('no_data', {}), { success: true, data: '' });
    assert.deepEqual(await registry.execute('fail_helper', {}), { success: false, data: '', error: 'no such city' });
    const silent = await registry.execute('fail_silent', {});
    assert.equal(silent.success, false);
    assert.equal(silent.code, undefined);
    assert.match(silent.error ?? '', /without an error message/);
  });
});

describe('time limits and cancellation', () => {
  test("manifest timeoutMs: the call ends with code 'timeout' and the tool's signal fires", {
    timeout: 20_000,
  }, async (t) => {
    const probe = createProbe('manifest-timeout');
    const { registry } = await loadTools(t, { 'slow.ts': waitingTool('slow', 'manifest-timeout', 'timeoutMs: 50,') });
    const started = performance.now();
    const result = await registry.execute('slow', {});
    const elapsed = performance.now() - started;
    assert.equal(result.success, false);
    assert.equal(result.code, 'timeout');
    assert.match(result.error ?? '', /slow did not finish within 50 ms/);
    assert.ok(elapsed >= 45, `took ${elapsed} ms`);
    assert.equal(probe.started, true);
    assert.equal(probe.signalFired, true);
    assert.equal(probe.reasonCode, 'TimeoutError');
  });

  test('the per-call timeoutMs option overrides the manifest, both ways', async (t) => {
    const shorter = createProbe('call-timeout');
    const { registry } = await loadTools(t, {
      'patient.ts': waitingTool('patient', 'call-timeout', 'timeoutMs: 10000,'),
      'hasty.ts': waitingTool('hasty', 'call-longer', 'timeoutMs: 20,'),
    });
    const result = await registry.execute('patient', {}, { timeoutMs: 40 });
    assert.equal(result.code, 'timeout');
    assert.match(result.error ?? '', /40 ms/);
    assert.equal(shorter.signalFired, true);

    const longer = createProbe('call-longer');
    const ok = await registry.execute('hasty', { ms: 80, label: 'made it' }, { timeoutMs: 2000 });
    assert.deepEqual(ok, { success: true, data: 'made it' });
    assert.equal(longer.signalFired, undefined);
    assert.equal(longer.finished, true);
  });

  test('tools.timeout_ms in the config is the default time limit', async (t) => {
    const probe = createProbe('config-timeout');
    const { registry } = await loadTools(
      t,
      { 'slow.ts': waitingTool('slow', 'config-timeout') },
      { tools: { timeout_ms: 40 } },
    );
    const result = await registry.execute('slow', {});
    assert.equal(result.code, 'timeout');
    assert.match(result.error ?? '', /40 ms/);
    assert.equal(probe.signalFired, true);
  });

  test('a tool that ignores its signal still cannot hold the call past the limit', async (t) => {
    // It ends only when the test lets it.
    const probe = createProbe('stubborn');
    const { registry } = await loadTools(t, {
      'stubborn.ts': toolSource('stubborn', {
        execute: `const probe = ${probeRef('stubborn')};
    await new Promise((resolve) => { probe.release = resolve; });
    probe.finished = true;
    return ToolResult.ok('late');`,
      }),
    });
    const result = await registry.execute('stubborn', {}, { timeoutMs: 30 });
    assert.equal(result.code, 'timeout');
    assert.equal(probe.finished, undefined, 'returned at the time limit, not when the tool finished');
    (probe.release as () => void)();
  });

  test("the caller's AbortSignal: code 'aborted', and the tool's signal fires", { timeout: 20_000 }, async (t) => {
    const probe = createProbe('abort');
    const { registry } = await loadTools(t, { 'slow.ts': waitingTool('slow', 'abort') });
    const controller = new AbortController();
    const running = registry.execute('slow', {}, { signal: controller.signal });
    await until(() => probe.started === true);
    controller.abort();
    const result = await running;
    assert.equal(result.success, false);
    assert.equal(result.code, 'aborted');
    assert.match(result.error ?? '', /slow was cancelled/);
    assert.equal(probe.finished, true, 'the tool ended on its signal, 5 s early');
    assert.equal(probe.signalFired, true);
    assert.equal(probe.reasonCode, 'AbortError');
  });

  test('an already-aborted signal: the tool does not run', async (t) => {
    const probe = createProbe('pre-abort');
    const { registry } = await loadTools(t, { 'slow.ts': waitingTool('slow', 'pre-abort') });
    const result = await registry.execute('slow', {}, { signal: AbortSignal.abort() });
    assert.equal(result.code, 'aborted');
    assert.match(result.error ?? '', /before it started/);
    assert.equal(probe.started, undefined);
  });

  test('a finished call leaves no listener on the caller signal', async (t) => {
    const { registry } = await loadTools(t, { 'quick.ts': toolSource('quick') });
    const controller = new AbortController();
    let added = 0;
    let removed = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = (...args: Parameters<AbortSignal['addEventListener']>) => {
      added++;
      add(...args);
    };
    signal.removeEventListener = (...args: Parameters<AbortSignal['removeEventListener']>) => {
      removed++;
      remove(...args);
    };
    for (let i = 0; i < 3; i++) assert.equal((await registry.execute('quick', {}, { signal })).success, true);
    assert.equal(added, 3);
    assert.equal(removed, 3);
  });
});

describe('result size', () => {
  test('data longer than tools.max_result_chars is cut, with a visible marker', async (t) => {
    const { registry } = await loadTools(
      t,
      {
        'big.ts': toolSource('big', {
          manifest: `parameters: { n: { type: 'integer', required: true, description: 'length' } },`,
          execute: `return ToolResult.ok('x'.repeat(params.n));`,
        }),
      },
      { tools: { max_result_chars: 100 } },
    );
    const cut = await registry.execute('big', { n: 1500 });
    assert.equal(cut.success, true);
    assert.ok(cut.data.startsWith('x'.repeat(100)));
    assert.ok(!cut.data.startsWith('x'.repeat(101)), 'no more than 100 characters of data are kept');
    assert.match(cut.data, /truncated/);
    assert.match(cut.data, /first 100 of 1,500 characters/);
    assert.ok(cut.data.length < 200);

    const exact = await registry.execute('big', { n: 100 });
    assert.equal(exact.data, 'x'.repeat(100));
  });

  test('the default limit is 20 000 characters', async (t) => {
    const { registry } = await loadTools(t, {
      'big.ts': toolSource('big', { execute: `return ToolResult.ok('y'.repeat(25000));` }),
    });
    const cut = await registry.execute('big', {});
    assert.ok(cut.data.startsWith('y'.repeat(20_000)));
    assert.ok(!cut.data.startsWith('y'.repeat(20_001)));
    assert.match(cut.data, /truncated: showing the first 20,000 of 25,000 characters/);
  });
});

describe('concurrency', () => {
  const sleepers = {
    'one.ts': waitingTool('one', 'unused-one'),
    'two.ts': waitingTool('two', 'unused-two'),
    'three.ts': waitingTool('three', 'unused-three'),
  };

  test('executeAll runs calls at the same time', async (t) => {
    const probe = createProbe('order');
    const log: string[] = (probe.log = []);
    const logging = (name: string) =>
      toolSource(name, {
        header: SLEEP,
        manifest: SLEEPER_PARAMS,
        execute: `const log = ${probeRef('order')}.log;
    log.push('start ${name}');
    await sleep(params.ms);
    log.push('end ${name}');
    return ToolResult.ok(params.label);`,
      });
    const { registry } = await loadTools(t, {
      'one.ts': logging('one'),
      'two.ts': logging('two'),
      'three.ts': logging('three'),
    });
    const results = await registry.executeAll([
      { name: 'one', params: { ms: 200, label: '1' } },
      { name: 'two', params: { ms: 200, label: '2' } },
      { name: 'three', params: { ms: 200, label: '3' } },
    ]);
    assert.deepEqual(
      results.map((r) => r.data),
      ['1', '2', '3'],
    );
    assert.deepEqual(
      log.slice(0, 3).sort(),
      ['start one', 'start three', 'start two'],
      `all three started before any ended: ${log.join(', ')}`,
    );
  });

  test('executeAll returns results in call order, not finishing order, failures included', async (t) => {
    for (const id of ['unused-one', 'unused-two', 'unused-three']) createProbe(id);
    const { registry } = await loadTools(t, sleepers);
    const results = await registry.executeAll([
      { name: 'one', params: { ms: 120, label: 'slowest' } },
      { name: 'nope' },
      { name: 'two', params: { ms: 60, label: 'middle' } },
      { name: 'three', params: { ms: 'soon' } },
      { name: 'three', params: { ms: 1, label: 'fastest' } },
    ]);
    assert.deepEqual(
      results.map((r) => r.code ?? r.data),
      ['slowest', 'unknown-tool', 'middle', 'invalid-params', 'fastest'],
    );
  });

  test('a slow tool does not block the event loop', async (t) => {
    createProbe('unused-one');
    const { registry } = await loadTools(t, sleepers);
    // A tick due 10 ms in runs before the call's 200 ms are up, unless the call holds the loop.
    let ticks = 0;
    const interval = setInterval(() => ticks++, 10);
    try {
      const result = await registry.execute('one', { ms: 200 });
      assert.equal(result.success, true);
    } finally {
      clearInterval(interval);
    }
    assert.ok(ticks >= 1, 'the interval ticked during the call');
  });
});

describe('context', () => {
  test('sessionId, language and logger come from the options, with defaults', async (t) => {
    const { registry } = await loadTools(t, {
      'ctx.ts': toolSource('ctx', {
        execute: `context.logger.info('hello from ctx', 42); return ToolResult.ok(JSON.stringify({ session: context.sessionId, language: context.language, aborted: context.signal.aborted }));`,
      }),
    });
    const lines: unknown[][] = [];
    const logger: ToolLogger = {
      debug: (...args) => lines.push(['debug', ...args]),
      info: (...args) => lines.push(['info', ...args]),
      warn: (...args) => lines.push(['warn', ...args]),
      error: (...args) => lines.push(['error', ...args]),
    };
    const given = await registry.execute('ctx', {}, { sessionId: 's-1', language: 'ja', logger });
    assert.deepEqual(JSON.parse(given.data), { session: 's-1', language: 'ja', aborted: false });
    assert.deepEqual(lines, [['info', 'hello from ctx', 42]]);

    const defaults = await registry.execute('ctx', undefined, { logger });
    assert.deepEqual(JSON.parse(defaults.data), { session: 'default', language: 'en', aborted: false });
  });
});
