import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { diagnosticsFor, loadTools, toolFolder, toolNames, toolSource } from './test-support.ts';
import { ToolRegistry } from './tool-registry.ts';

describe('discovery', () => {
  test('loads .ts, .mts, .js and .mjs files', async (t) => {
    const { dir, registry } = await loadTools(t, {
      'alpha.ts': toolSource('alpha'),
      'beta.mts': toolSource('beta'),
      'gamma.js': toolSource('gamma'),
      'delta.mjs': toolSource('delta'),
    });
    assert.deepEqual(registry.diagnostics, []);
    assert.deepEqual(toolNames(registry), ['alpha', 'beta', 'delta', 'gamma']);
    assert.equal(registry.get('beta')?.file, join(dir, 'beta.mts'));
    for (const name of ['alpha', 'beta', 'gamma', 'delta']) {
      assert.deepEqual(await registry.execute(name, {}), { success: true, data: name });
    }
  });

  test('skips _-prefixed, test, spec and declaration files, other extensions and subfolders', async (t) => {
    // Every skipped file holds a working tool, so only the file name keeps it out.
    const { registry } = await loadTools(t, {
      'kept.ts': toolSource('kept'),
      '_private.ts': toolSource('private_one'),
      'kept.test.ts': toolSource('from_test'),
      'kept.spec.ts': toolSource('from_spec'),
      'kept-test.mjs': toolSource('from_dash_test'),
      'types.d.ts': toolSource('from_declaration'),
      'notes.txt': toolSource('from_txt'),
      'script.cjs': toolSource('from_cjs'),
      'sub/nested.ts': toolSource('nested'),
      'sub/deeper/more.ts': toolSource('deeper'),
    });
    assert.deepEqual(toolNames(registry), ['kept']);
    assert.deepEqual(
      registry.list().map((row) => row.name),
      ['kept'],
    );
    assert.deepEqual(registry.diagnostics, []);
  });

  test('a tool can import a _helper by ./_helper.ts, ./_helper.js, and from a subfolder', async (t) => {
    const { registry } = await loadTools(t, {
      '_helper.ts': `export function greet(name: string): string { return 'hello ' + name; }\n`,
      'lib/shout.ts': `export const shout = (text: string): string => text.toUpperCase() + '!';\n`,
      'with-ts.ts': toolSource('with_ts', {
        header: `import { greet } from './_helper.ts';`,
        execute: `return ToolResult.ok(greet('ts'));`,
      }),
      'with-js.ts': toolSource('with_js', {
        header: `import { greet } from './_helper.js';`,
        execute: `return ToolResult.ok(greet('js'));`,
      }),
      'with-sub.ts': toolSource('with_sub', {
        header: `import { shout } from './lib/shout.js';`,
        execute: `return ToolResult.ok(shout('sub'));`,
      }),
    });
    assert.deepEqual(registry.diagnostics, []);
    assert.equal((await registry.execute('with_ts', {})).data, 'hello ts');
    assert.equal((await registry.execute('with_js', {})).data, 'hello js');
    assert.equal((await registry.execute('with_sub', {})).data, 'SUB!');
  });

  test('ordinary TypeScript loads without a build step: interfaces, import type, parameter properties, enums', async (t) => {
    const { registry } = await loadTools(t, {
      'typed.ts': `import { BaseTool, ToolResult } from 'riverse';
import type { AppConfig, ToolContext, ToolManifest } from 'riverse';

interface Reading {
  value: number;
  unit: Unit;
}

enum Unit {
  Celsius = 'C',
  Fahrenheit = 'F',
}

const enum Factor {
  Double = 2,
}

enum Level {
  Low,
  High,
}

class Formatter {
  constructor(private readonly prefix: string, public readonly suffix: string = '.') {}
  format(reading: Reading): string {
    return \`\${this.prefix}\${reading.value}\${reading.unit}\${this.suffix}\`;
  }
}

export class TypedTool extends BaseTool<{ value: number }> {
  private readonly formatter: Formatter;
  constructor(config: AppConfig) {
    super(config);
    this.formatter = new Formatter('t=');
  }
  manifest(): ToolManifest {
    return {
      name: 'typed',
      description: 'Formats a temperature',
      parameters: { value: { type: 'number', required: true, description: 'degrees' } },
      examples: ['format 3 degrees', 'show 5 degrees'],
    };
  }
  execute(params: { value: number }, _context: ToolContext): ToolResult {
    const reading: Reading = { value: params.value * Factor.Double, unit: Unit.Celsius };
    return ToolResult.ok(\`\${this.formatter.format(reading)} \${Level[Level.High]} \${Unit.Fahrenheit}\`);
  }
}
`,
    });
    assert.deepEqual(registry.diagnostics, []);
    const result = await registry.execute('typed', { value: 21 });
    assert.deepEqual(result, { success: true, data: 't=42C. High F' });
  });

  test('a default-exported class and a file with two tool classes', async (t) => {
    const { dir, registry } = await loadTools(t, {
      'default.ts': `import { BaseTool, ToolResult } from 'riverse';
export default class extends BaseTool {
  manifest() { return { name: 'anonymous_default', description: 'A default export', examples: ['a', 'b'] }; }
  execute() { return ToolResult.ok('from default'); }
}
`,
      'pair.ts': `${toolSource('first', { className: 'FirstTool' })}\n${toolSource('second', { className: 'SecondTool' }).replace(/^import .*$/m, '')}`,
    });
    assert.deepEqual(registry.diagnostics, []);
    assert.deepEqual(toolNames(registry), ['anonymous_default', 'first', 'second']);
    assert.equal((await registry.execute('anonymous_default', {})).data, 'from default');
    assert.equal(registry.get('first')?.file, join(dir, 'pair.ts'));
    assert.equal(registry.get('second')?.file, join(dir, 'pair.ts'));
    assert.equal((await registry.execute('second', {})).data, 'second');
  });

  test('an exported abstract intermediate base class without a manifest is ignored', async (t) => {
    const { dir, registry } = await loadTools(t, {
      'family.ts': `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';
export abstract class GreetingBase extends BaseTool {
  protected greet(name: string): ToolResult { return ToolResult.ok('hi ' + name); }
}
export class HelloTool extends GreetingBase {
  manifest(): ToolManifest { return { name: 'hello', description: 'Says hello', examples: ['say hi', 'greet me'] }; }
  execute() { return this.greet('there'); }
}
`,
    });
    assert.deepEqual(diagnosticsFor(registry, join(dir, 'family.ts')), []);
    assert.deepEqual(
      registry.list().map((row) => row.name),
      ['hello'],
    );
    assert.equal((await registry.execute('hello', {})).data, 'hi there');
  });

  test('a file that exports no tool class gets a no-tool-class warning', async (t) => {
    const { dir, registry } = await loadTools(t, {
      'constants.ts': `export const ANSWER = 42;\n`,
      'ok.ts': toolSource('ok'),
    });
    const [warning, ...rest] = diagnosticsFor(registry, join(dir, 'constants.ts'));
    assert.equal(rest.length, 0);
    assert.equal(warning?.code, 'no-tool-class');
    assert.equal(warning?.severity, 'warning');
    assert.match(warning?.hint ?? '', /"_"/);
    assert.deepEqual(toolNames(registry), ['ok']);
  });

  test('a missing folder gives a folder-missing warning and the other folders still load', async (t) => {
    const dir = await toolFolder(t, { 'present.ts': toolSource('present') });
    const missing = join(dir, 'does-not-exist');
    const registry = await ToolRegistry.load({ folders: [missing, dir] });
    assert.deepEqual(
      registry.diagnostics.map((d) => [d.code, d.severity, d.file]),
      [['folder-missing', 'warning', missing]],
    );
    assert.equal(registry.hasErrors, false);
    assert.deepEqual(toolNames(registry), ['present']);
    assert.deepEqual(registry.folders, [missing, dir]);
  });

  test('relative folders are resolved from baseDir', async (t) => {
    const dir = await toolFolder(t, { 'my-tools/rel.ts': toolSource('rel') });
    const registry = await ToolRegistry.load({ folders: ['my-tools'], baseDir: dir });
    assert.deepEqual(registry.folders, [join(dir, 'my-tools')]);
    assert.deepEqual(toolNames(registry), ['rel']);
  });
});

describe('availability', () => {
  const probeTools = {
    'plain.ts': toolSource('plain'),
    'switchable.ts': toolSource('switchable'),
    'refuses.ts': toolSource('refuses', { members: 'isAvailable() { return false; }' }),
    'explains.ts': toolSource('explains', {
      members: `isAvailable() { return this.config.tools?.explains?.api_key ? true : this.unavailable('set tools.explains.api_key to your key'); }`,
    }),
    'later.ts': toolSource('later', {
      members: 'async isAvailable() { await new Promise((resolve) => setTimeout(resolve, 5)); return true; }',
    }),
  };

  test('available by default; a tool section with enabled: false turns that tool off and names the key', async (t) => {
    const { registry } = await loadTools(t, probeTools, { tools: { switchable: { enabled: false } } });
    assert.deepEqual(toolNames(registry), ['later', 'plain']);
    const rows = Object.fromEntries(registry.list().map((row) => [row.name, row]));
    assert.deepEqual(Object.keys(rows), ['explains', 'later', 'plain', 'refuses', 'switchable']);
    assert.equal(rows.plain?.available, true);
    assert.equal(rows.plain?.reason, undefined);
    assert.equal(rows.switchable?.available, false);
    assert.match(rows.switchable?.reason ?? '', /tools\.switchable\.enabled/);
    assert.equal(registry.get('switchable'), undefined);
    assert.equal(registry.find('switchable')?.available, false);

    const result = await registry.execute('switchable', {});
    assert.equal(result.success, false);
    assert.equal(result.code, 'unavailable');
    assert.match(result.error ?? '', /tools\.switchable\.enabled/);
  });

  test('isAvailable() returning false, and this.unavailable(reason), show in list()', async (t) => {
    const { registry } = await loadTools(t, probeTools);
    const rows = Object.fromEntries(registry.list().map((row) => [row.name, row]));
    assert.equal(rows.refuses?.available, false);
    assert.equal(rows.refuses?.reason, 'isAvailable() returned false');
    assert.equal(rows.explains?.available, false);
    assert.equal(rows.explains?.reason, 'set tools.explains.api_key to your key');
    assert.equal(rows.later?.available, true);
    assert.equal(rows.switchable?.available, true);
    assert.deepEqual(registry.diagnostics, []);
    const result = await registry.execute('explains', {});
    assert.equal(result.code, 'unavailable');
    assert.match(result.error ?? '', /set tools\.explains\.api_key to your key/);
  });

  test('the config a custom isAvailable() reads can make it available', async (t) => {
    const { registry } = await loadTools(t, probeTools, { tools: { explains: { api_key: 'k' } } });
    assert.equal(registry.find('explains')?.available, true);
  });

  test('tools.enabled: false turns every tool off', async (t) => {
    const { registry } = await loadTools(t, probeTools, { tools: { enabled: false } });
    assert.deepEqual(registry.tools(), []);
    const rows = registry.list();
    assert.equal(rows.length, 5);
    for (const row of rows) {
      assert.equal(row.available, false, row.name);
      assert.match(row.reason ?? '', /tools\.enabled: false/, row.name);
    }
    assert.equal((await registry.execute('plain', {})).code, 'unavailable');
  });

  test("the tool's own section reaches context.config; the whole config reaches the constructor, with base_dir", async (t) => {
    const config = { assistant: { name: 'Riv' }, tools: { timeout_ms: 5000, echo: { greeting: 'hey', count: 2 } } };
    const { dir, registry } = await loadTools(
      t,
      {
        'echo.ts': toolSource('echo', {
          members: 'constructor(config) { super(config); this.seen = JSON.stringify(config); }',
          execute:
            'return ToolResult.ok(JSON.stringify({ section: context.config, constructed: JSON.parse(this.seen) }));',
        }),
        'bare.ts': toolSource('bare', { execute: 'return ToolResult.ok(JSON.stringify(context.config));' }),
      },
      config,
    );
    const echoed = JSON.parse((await registry.execute('echo', {})).data) as { constructed: { base_dir?: unknown } };
    // With the folder relative paths start from, which the registry adds (the config file's folder).
    assert.deepEqual(echoed, { section: { greeting: 'hey', count: 2 }, constructed: { ...config, base_dir: dir } });
    assert.equal((await registry.execute('bare', {})).data, '{}');
  });
});

describe('duplicate names', () => {
  const claimants = {
    // Written in reverse order so that creation order cannot be what decides.
    'c-copy.ts': toolSource('dup', { className: 'CopyC', execute: `return ToolResult.ok('c');` }),
    'b-copy.ts': toolSource('dup', { className: 'CopyB', execute: `return ToolResult.ok('b');` }),
    'a-copy.ts': toolSource('dup', { className: 'CopyA', execute: `return ToolResult.ok('a');` }),
  };

  test('the alphabetically first file keeps the name; each other file gets a duplicate-name error naming both', async (t) => {
    const { dir, registry } = await loadTools(t, claimants);
    assert.equal((await registry.execute('dup', {})).data, 'a');
    assert.equal(registry.get('dup')?.file, join(dir, 'a-copy.ts'));
    const duplicates = registry.diagnostics.filter((d) => d.code === 'duplicate-name');
    assert.deepEqual(
      duplicates.map((d) => d.file),
      [join(dir, 'b-copy.ts'), join(dir, 'c-copy.ts')],
    );
    for (const duplicate of duplicates) {
      assert.equal(duplicate.severity, 'error');
      assert.equal(duplicate.tool, 'dup');
      assert.match(duplicate.message, /"dup"/);
      assert.match(duplicate.message, /a-copy\.ts/);
      assert.match(duplicate.hint ?? '', /a-copy\.ts keeps the name/);
    }
    assert.equal(registry.hasErrors, true);
    assert.deepEqual(
      registry.list().map((row) => row.file),
      [join(dir, 'a-copy.ts')],
    );
  });

  test('the winner is the same on every load', async (t) => {
    const dir = await toolFolder(t, claimants);
    for (let i = 0; i < 5; i++) {
      const registry = await ToolRegistry.load({ folders: [dir] });
      assert.equal((await registry.execute('dup', {})).data, 'a');
    }
  });

  test('across folders, the earlier folder wins', async (t) => {
    const first = await toolFolder(t, {
      'zz.ts': toolSource('shared', { execute: `return ToolResult.ok('first folder');` }),
    });
    const second = await toolFolder(t, {
      'aa.ts': toolSource('shared', { execute: `return ToolResult.ok('second folder');` }),
    });
    const registry = await ToolRegistry.load({ folders: [first, second] });
    assert.equal((await registry.execute('shared', {})).data, 'first folder');
    assert.deepEqual(
      registry.diagnostics.map((d) => [d.code, d.file]),
      [['duplicate-name', join(second, 'aa.ts')]],
    );
  });

  test('the same folder listed twice does not make duplicates', async (t) => {
    const dir = await toolFolder(t, { 'once.ts': toolSource('once') });
    const registry = await ToolRegistry.load({ folders: [dir, dir] });
    assert.deepEqual(registry.diagnostics, []);
    assert.deepEqual(toolNames(registry), ['once']);
  });
});

describe('unknown tools', () => {
  test('the message suggests the closest name and lists the available tools', async (t) => {
    const { registry } = await loadTools(t, { 'weather.ts': toolSource('weather'), 'clock.ts': toolSource('clock') });
    const result = await registry.execute('wether', { city: 'Oslo' });
    assert.equal(result.success, false);
    assert.equal(result.code, 'unknown-tool');
    assert.equal(result.data, '');
    assert.match(result.error ?? '', /Unknown tool "wether"/);
    assert.match(result.error ?? '', /did you mean "weather"/);
    assert.match(result.error ?? '', /Available tools: clock, weather\./);
  });

  test('a tool file that did not load: by its name, why and where; by another name, the files that did not load are named', async (t) => {
    const { registry } = await loadTools(t, {
      'clock.ts': toolSource('clock'),
      'forecast.ts': toolSource('weather').replace('manifest() {', 'manifest() {\n    return {{;'),
      'bad-manifest.ts': toolSource('bad_manifest', { manifest: `parameters: { x: { type: 'text' } },` }),
    });
    const byManifest = await registry.execute('bad_manifest', {});
    assert.equal(byManifest.code, 'unknown-tool');
    assert.match(
      byManifest.error ?? '',
      /^Tool "bad_manifest" did not load, so it cannot be called:\n.*bad-manifest\.ts:\d+:\d+: error \[invalid-manifest\] bad_manifest: parameters\.x\.type: type "text"/,
    );
    // The file is named after the tool: its syntax error is the answer.
    assert.match(
      (await registry.execute('forecast', {})).error ?? '',
      /^Tool "forecast" did not load, so it cannot be called:\n.*forecast\.ts:5:\d+: error \[syntax-error\]/,
    );
    // The name is in a file that never got as far as naming it.
    const other = await registry.execute('weather', {});
    assert.equal(other.code, 'unknown-tool');
    assert.match(
      other.error ?? '',
      /^Unknown tool "weather"\. Available tools: clock\. Tool files that did not load, one of which may define it: .*forecast\.ts:5 \(syntax-error\)(, .*)?\.$/,
    );
    assert.deepEqual(registry.loadFailures('clock'), []);
  });

  test('with no tools at all, the message says so', async (t) => {
    const { registry } = await loadTools(t, {});
    const result = await registry.execute('anything', {});
    assert.equal(result.code, 'unknown-tool');
    assert.match(result.error ?? '', /no tools are available/);
  });
});
