import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { readManifest, snapshotManifest } from './manifest-snapshot.ts';
import { diagnosticsFor, tempDir, toolNames, toolSource, writeFiles } from './test-support.ts';
import { registrySetup, ToolRegistry } from './tool-registry.ts';

const EXAMPLES = ['a message', 'another message'];

describe('snapshotManifest', () => {
  test('copies plain data, reading each field once', () => {
    let reads = 0;
    const manifest = {
      name: 'flaky',
      get description() {
        reads++;
        return reads === 1 ? 'Checked once' : '';
      },
      examples: EXAMPLES,
      parameters: { city: { type: 'string', required: true } },
    };
    const { manifest: copy, problems } = snapshotManifest(manifest);
    assert.deepEqual(problems, []);
    assert.deepEqual(copy, {
      name: 'flaky',
      description: 'Checked once',
      examples: EXAMPLES,
      parameters: { city: { type: 'string', required: true } },
    });
    assert.equal(reads, 1);
    assert.equal(Object.getOwnPropertyDescriptor(copy, 'description')?.get, undefined);
  });

  test('a getter that throws is a problem at its path', () => {
    const manifest = {
      name: 'getter',
      description: 'x',
      examples: EXAMPLES,
      parameters: {
        city: {
          type: 'string',
          get description(): string {
            throw new Error('not ready');
          },
        },
      },
    };
    assert.deepEqual(
      snapshotManifest(manifest).problems.map(({ text: _, ...problem }) => problem),
      [
        {
          severity: 'error',
          path: 'parameters.city.description',
          message:
            'reading parameters.city.description threw: not ready; give it a plain value, not a getter that can fail',
        },
      ],
    );
  });

  test('a cycle, a class instance, a "__proto__" literal and a throwing Proxy are problems, not crashes', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    class Text {
      get en() {
        return 'hidden on the prototype';
      }
    }
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    const { problems } = snapshotManifest({
      name: 'x',
      description: new Text(),
      parameters: { loop: cyclic, ...{ odd: { __proto__: { type: 'string' } } }, p: proxy },
    });
    assert.deepEqual(
      problems.map((problem) => problem.path),
      ['description', 'parameters.loop.properties.self', 'parameters.odd', 'parameters.p'],
    );
    assert.match(problems[0]!.message, /not a plain object \(a class instance, or `__proto__: …`/);
    assert.match(problems[1]!.message, /a cycle/);
    assert.match(problems[3]!.message, /reading parameters\.p threw: trap/);
  });

  test('functions, symbols and BigInts are problems (a manifest is data), and so is a Promise', () => {
    const { problems } = snapshotManifest({
      name: 'x',
      extra: () => 1,
      parameters: { a: { type: 'integer', default: 1n }, b: { description: Symbol('s') } },
    });
    assert.deepEqual(
      problems.map((problem) => [problem.path, problem.message]),
      [
        [
          'extra',
          'extra is a function; a manifest holds data only (strings, numbers, booleans, lists and plain objects)',
        ],
        [
          'parameters.a.default',
          'parameters.a.default is a bigint; a manifest holds data only (strings, numbers, booleans, lists and plain objects)',
        ],
        [
          'parameters.b.description',
          'parameters.b.description is a symbol; a manifest holds data only (strings, numbers, booleans, lists and plain objects)',
        ],
      ],
    );
    assert.deepEqual(
      snapshotManifest(Promise.resolve({ name: 'x' })).problems.map((problem) => problem.message),
      ['manifest() returned a Promise; return the object itself (manifest() cannot be async)'],
    );
  });
});

describe('readManifest', () => {
  test('reports what could not be read once, with every other problem of the manifest', () => {
    const { problems } = readManifest({
      name: 'bad name',
      get description(): string {
        throw new Error('boom');
      },
      parameters: { a: { type: 'nope', enum: 'x' } },
    });
    assert.deepEqual(
      problems.map((problem) => `${problem.severity} ${problem.path}`),
      ['error description', 'error name', 'error parameters.a.type', 'error parameters.a.enum', 'warning examples'],
    );
  });
});

// What `tools check` reports must be what a call meets, loaded either way.
for (const isolation of ['none', 'worker'] as const) {
  describe(`a manifest whose getter throws, isolation ${isolation}`, () => {
    test('is an invalid-manifest diagnostic at the field, and the other tools load', async (t) => {
      const dir = await tempDir(t);
      await writeFiles(dir, {
        'good.ts': toolSource('good'),
        'getter.ts': `import { BaseTool, ToolResult } from 'riverse';
export class GetterTool extends BaseTool {
  manifest() {
    return {
      name: 'getter',
      get description(): string { throw new Error('description not ready'); },
      parameters: { city: { type: 'string', get required(): boolean { throw new Error('required not ready'); } } },
      examples: ['a', 'b'],
    };
  }
  execute() { return ToolResult.ok('never'); }
}
`,
        // Sent from the loader as data, a function there ended the loader ("load-crashed", no message).
        'function.ts': toolSource('function', { manifest: 'extra: () => 1,' }),
        'class-getter.ts': `import { BaseTool, ToolResult } from 'riverse';
export class ClassGetterTool extends BaseTool {
  get manifest(): never { throw new Error('manifest is a getter'); }
  execute() { return ToolResult.ok('never'); }
}
`,
      });
      const { workers } = registrySetup({});
      t.after(() => workers.close());
      const registry = await ToolRegistry.load({ folders: [dir], baseDir: dir, isolation, workers });
      assert.deepEqual(toolNames(registry), ['good']);
      const found = diagnosticsFor(registry, join(dir, 'getter.ts'));
      assert.deepEqual(
        found.map((d) => [d.code, d.tool, d.message]),
        [
          [
            'invalid-manifest',
            'getter',
            'description: reading description threw: description not ready; give it a plain value, not a getter that can fail',
          ],
          [
            'invalid-manifest',
            'getter',
            'parameters.city.required: reading parameters.city.required threw: required not ready; give it a plain value, not a getter that can fail',
          ],
        ],
      );
      const [member] = diagnosticsFor(registry, join(dir, 'class-getter.ts'));
      assert.equal(member?.code, 'manifest-threw');
      assert.match(member?.message ?? '', /reading the members of ClassGetterTool threw: manifest is a getter/);
      assert.equal(member?.line, 3);
      const [fn] = diagnosticsFor(registry, join(dir, 'function.ts'));
      assert.deepEqual(
        [fn?.code, fn?.message],
        [
          'invalid-manifest',
          'extra: extra is a function; a manifest holds data only (strings, numbers, booleans, lists and plain objects)',
        ],
      );
      assert.deepEqual(await registry.execute('good', {}), { success: true, data: 'good' });
    });
  });
}
