import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { describeToolError, toolErrorOrigin } from './tool-error-origin.ts';
import { tempDir, writeFiles } from './test-support.ts';
import { registrySetup, ToolRegistry } from './tool-registry.ts';

// Line 10 throws; the types before it are stripped in place. The enum makes the loader transform
// the file (with a source map) instead of stripping it, so the line must come through the map.
const TYPED_TOOL = (name: string, withEnum: boolean) => `import { BaseTool, ToolResult } from 'riverse';
${withEnum ? 'enum Mode { A, B }' : 'type Mode = number;'}
interface Shape {
  width: number;
}
export class ${name}Tool extends BaseTool {
  manifest() { return { name: '${name.toLowerCase()}', description: 'Throws', examples: ['a', 'b'] }; }
  execute(params: Partial<Shape>): ToolResult {
    const shape = params as unknown as { missing: { width: number } };
    return ToolResult.ok(String(shape.missing.width));
  }
}
`;

const HELPER_TOOL = `import { BaseTool, ToolResult } from 'riverse';
import { explode } from './_helper.ts';
export class HelperTool extends BaseTool {
  manifest() { return { name: 'helper', description: 'Throws in a helper', examples: ['a', 'b'] }; }
  execute() { return ToolResult.ok(explode()); }
}
`;

describe('a throw in execute is reported at the line of the tool that threw', () => {
  for (const [isolation, config] of [
    ['none', {}],
    ['worker', { tools: { stripped: { trusted: true }, mapped: { trusted: true }, helper: { trusted: true } } }],
  ] as const) {
    test(`isolation ${isolation}${isolation === 'worker' ? ', trusted tools' : ''}: stripped, transformed (source-mapped) and in a helper`, async (t) => {
      const dir = await tempDir(t);
      await writeFiles(dir, {
        'stripped.ts': TYPED_TOOL('Stripped', false),
        'mapped.ts': TYPED_TOOL('Mapped', true),
        'helper.ts': HELPER_TOOL,
        '_helper.ts': `type Unused = string;\nexport function explode(): string {\n  throw new RangeError('the fuse was lit');\n}\n`,
      });
      const { workers } = registrySetup({ config });
      t.after(() => workers.close());
      const registry = await ToolRegistry.load({ folders: [dir], baseDir: dir, config, isolation, workers });
      assert.deepEqual(registry.diagnostics, []);
      for (const name of ['stripped', 'mapped']) {
        const result = await registry.execute(name, {});
        assert.equal(result.code, 'threw');
        assert.equal(
          result.error,
          `${name} failed: TypeError: Cannot read properties of undefined (reading 'width') (at ${join(dir, `${name}.ts`)}:10:47)`,
        );
      }
      const helper = await registry.execute('helper', {});
      assert.equal(helper.error, `helper failed: RangeError: the fuse was lit (at ${join(dir, '_helper.ts')}:3:9)`);
    });
  }
});

describe('toolErrorOrigin', () => {
  test('a thrown non-Error has a name and message, no place', () => {
    assert.deepEqual(toolErrorOrigin('a bare string'), { name: 'Error', message: 'a bare string' });
    assert.equal(describeToolError(toolErrorOrigin({ message: 'shaped like one' })), 'shaped like one');
  });

  test("frames of Riverse itself, of Node and of packages are not the tool's", () => {
    const error = new TypeError('deep inside');
    error.stack = [
      'TypeError: deep inside',
      `    at parse (${join(process.cwd(), 'node_modules', 'some-lib', 'index.js')}:10:5)`,
      '    at node:internal/process/task_queues:105:5',
      `    at run (${new URL('./execute-tool.ts', import.meta.url).href}:80:3)`,
      '    at WeatherTool.execute (file:///home/me/app/agent/tools/weather.ts?v=3:42:17)',
    ].join('\n');
    const origin = toolErrorOrigin(error);
    assert.deepEqual(
      { ...origin, stack: undefined },
      {
        name: 'TypeError',
        message: 'deep inside',
        file: '/home/me/app/agent/tools/weather.ts',
        line: 42,
        column: 17,
        stack: undefined,
      },
    );
    assert.equal(describeToolError(origin, '/home/me/app'), 'TypeError: deep inside (at agent/tools/weather.ts:42:17)');
  });
});
