import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_ARGUMENT_CHARS, MAX_ARGUMENT_DEPTH, readArguments } from './argument-limits.ts';
import { loadTools, toolSource } from './test-support.ts';
import type { ToolRegistry } from './tool-registry.ts';

/** `{"a": {"a": … 1 …}}`, `levels` objects deep. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
}

const DATA_TOOL = toolSource('data', {
  manifest: `parameters: { data: { type: 'object', description: 'Anything' }, list: { type: 'array' }, text: 'Some text' },`,
  execute: 'return ToolResult.ok(JSON.stringify(params));',
});

describe('argument limits, through registry.execute in a worker', () => {
  let registry: ToolRegistry;
  const cleanup: Array<() => unknown> = [];
  before(async () => {
    ({ registry } = await loadTools({ after: (fn) => cleanup.push(fn) }, { 'data.ts': DATA_TOOL }, {}, 'worker'));
    assert.deepEqual(registry.diagnostics, []);
  });
  after(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  test('arguments nested thousands deep fail at once as invalid-params, not as a timeout', {
    timeout: 30_000,
  }, async () => {
    const result = await registry.execute('data', { data: nested(5_000) }, { timeoutMs: 10_000 });
    assert.equal(result.code, 'invalid-params', result.error);
    assert.match(result.error ?? '', /nested more than 64 levels deep \(at "data\.a\.a\.a…"\); send flatter data/);
    assert.match(result.error ?? '', /Expected: data\(/);
  });

  test('the same nesting sent as JSON text (as text-protocol models and the CLI send it) is caught after parsing', async () => {
    const text = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const result = await registry.execute('data', { list: text });
    assert.equal(result.code, 'invalid-params', result.error);
    assert.match(result.error ?? '', /nested more than 64 levels deep/);
  });

  test('and through a provider dialect', async () => {
    for (const dialect of ['openai', 'openai-strict', 'gemini', 'anthropic', 'json'] as const) {
      const result = await registry.execute('data', { data: nested(3_000) }, { dialect });
      assert.equal(result.code, 'invalid-params', `${dialect}: ${result.error}`);
      assert.match(result.error ?? '', /nested more than 64 levels deep/, dialect);
    }
  });

  test('arguments that contain themselves are invalid-params', async () => {
    const data: Record<string, unknown> = { name: 'loop' };
    data.self = data;
    const result = await registry.execute('data', { data });
    assert.equal(result.code, 'invalid-params', result.error);
    assert.match(result.error ?? '', /"data\.self" contains itself \(a cycle\)/);
  });

  test('arguments larger than the size limit are invalid-params, as text or as structure', async () => {
    for (const params of [
      { text: 'x'.repeat(MAX_ARGUMENT_CHARS + 1) },
      { list: Array.from({ length: MAX_ARGUMENT_CHARS / 4 }, () => 1) },
      { list: JSON.stringify(Array(MAX_ARGUMENT_CHARS).fill(1)) },
    ]) {
      const result = await registry.execute('data', params);
      assert.equal(result.code, 'invalid-params', result.error?.slice(0, 200));
      assert.match(result.error ?? '', /larger than 1,000,000 characters of JSON/);
    }
  });

  test("a caller's Proxy that throws is invalid-params: execute never throws", async () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    for (const params of [hostile, { data: hostile }]) {
      const result = await registry.execute('data', params);
      assert.equal(result.code, 'invalid-params', result.error);
      assert.match(result.error ?? '', /the arguments could not be read \(trap\)/);
    }
  });

  test('a value JSON cannot carry is invalid-params', async () => {
    const result = await registry.execute('data', { data: { when: 10n } });
    assert.equal(result.code, 'invalid-params', result.error);
    assert.match(result.error ?? '', /"data\.when" is a bigint, which JSON cannot carry/);
  });

  test('deep enough for real data, and "__proto__" in the arguments is a field, not a prototype', async () => {
    const fine = await registry.execute('data', { data: nested(MAX_ARGUMENT_DEPTH - 1) });
    assert.equal(fine.success, true, fine.error);
    const proto = await registry.execute('data', JSON.parse('{"__proto__": {"text": "smuggled"}}'));
    assert.equal(proto.code, 'invalid-params', proto.error);
    assert.match(proto.error ?? '', /unknown parameter "__proto__"; remove it/);
    const inside = await registry.execute('data', { data: JSON.parse('{"__proto__": {"x": 1}}') });
    assert.deepEqual(JSON.parse(inside.data), { data: JSON.parse('{"__proto__": {"x": 1}}') });
  });
});

describe('readArguments', () => {
  const problem = (input: unknown) => {
    const read = readArguments(input);
    return read.ok ? undefined : read.problem;
  };

  test('shared (not cyclic) references and plain JSON are fine, and come back as a plain copy', () => {
    const shared = { x: 1 };
    const input = { a: shared, b: [shared, shared], c: null, d: 'text', e: true };
    const read = readArguments(input);
    assert.deepEqual(read, { ok: true, value: input });
    assert.ok(
      read.ok && (read.value as { a: unknown }).a !== shared,
      "a copy, so the check cannot coerce the caller's object in place",
    );
  });

  test("a caller's class instance, getter or inherited field reaches neither the check nor the tool", () => {
    class Options {
      get computed() {
        return 'from the prototype';
      }
    }
    const inherited = Object.create({ city: 'inherited' }) as Record<string, unknown>;
    inherited.own = 'own';
    const read = readArguments({ options: new Options(), inherited });
    assert.deepEqual(read, { ok: true, value: { options: {}, inherited: { own: 'own' } } });
  });

  test('stops early on huge input', () => {
    // Counts the elements read: each costs at least 13 characters of the 1,000,000 allowed.
    let reads = 0;
    const huge = new Proxy(Array(50_000_000), {
      get: (target, key, receiver) => {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    assert.match(problem({ huge }) ?? '', /larger than/);
    assert.ok(reads <= MAX_ARGUMENT_CHARS / 13, `read ${reads} of 50,000,000 elements`);
  });

  test('a getter or Proxy that throws is a problem, not a throw', () => {
    const input = {
      get boom(): never {
        throw new Error('no');
      },
    };
    assert.match(problem(input) ?? '', /could not be read \(no\)/);
    const proxy = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    assert.match(problem({ proxy }) ?? '', /could not be read \(trap\)/);
  });
});
