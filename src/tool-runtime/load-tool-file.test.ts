import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { formatDiagnostic, type Diagnostic } from '../core/diagnostic.ts';
import { loadToolFile } from './load-tool-file.ts';
import { diagnosticsFor, onlyDiagnostic, toolFolder, toolNames, toolSource } from './test-support.ts';
import { registrySetup, ToolRegistry } from './tool-registry.ts';

// One folder holding every kind of broken file next to working ones: each fault must become a
// diagnostic, and none may stop the other files from loading.
const FILES: Record<string, string> = {
  'good.ts': toolSource('good'),
  'also-good.mjs': toolSource('also_good'),

  'syntax.ts': `import { BaseTool } from 'riverse';
const fine: number = 1;
const broken: number = ;
export class SyntaxTool extends BaseTool {}
`,
  'syntax.mjs': `import { BaseTool } from 'riverse';

export class Broken extends BaseTool {
  manifest() { return { name: 'broken_mjs' ; } }
}
`,
  'missing-package.ts': `import { BaseTool } from 'riverse';
import { thing } from 'riverse-no-such-package-xyz';
export class MissingPackageTool extends BaseTool {}
`,
  'missing-relative.ts': `import { helper } from './_not-there.ts';
export const x = helper;
`,
  'top-level-throw.ts': `import { BaseTool } from 'riverse';
interface Settings {
  key: string;
}
const settings: Settings | undefined = undefined;
if (settings === undefined) throw new Error('top-level boom: no settings');
`,
  'constructor-throws.ts': `import { BaseTool, ToolResult, type AppConfig, type ToolManifest } from 'riverse';
export class ConstructorThrowsTool extends BaseTool {
  constructor(config: AppConfig) {
    super(config);
    throw new Error('constructor boom');
  }
  manifest(): ToolManifest { return { name: 'ctor', description: 'x', examples: ['a', 'b'] }; }
  execute(): ToolResult { return ToolResult.ok(''); }
}
`,
  'manifest-throws.ts': `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';
type Unused = { a: number };
export class ManifestThrowsTool extends BaseTool {
  manifest(): ToolManifest {
    throw new TypeError('manifest boom');
  }
  execute(): ToolResult { return ToolResult.ok(''); }
}
`,
  'bad-name.ts': toolSource('my tool!', { className: 'BadNameTool' }),
  'empty-description.ts': toolSource('empty_description').replace(/description: "[^"]*"/, `description: ''`),
  'bad-param-type.ts': toolSource('bad_param_type', {
    manifest: `parameters: { city: { type: 'text', description: 'City' } },`,
  }),
  'spec-typo.ts': toolSource('spec_typo', {
    manifest: `parameters: { city: { type: 'string', requried: true, description: 'City' } },`,
  }),
  'no-examples.ts': toolSource('no_examples', { examples: 'undefined' }),
  'available-throws.ts': `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';
export class AvailableThrowsTool extends BaseTool {
  manifest(): ToolManifest { return { name: 'available_throws', description: 'x', examples: ['a', 'b'] }; }
  override isAvailable(): boolean {
    throw new Error('cannot check availability');
  }
  execute(): ToolResult { return ToolResult.ok(''); }
}
`,
  'available-rejects.ts': toolSource('available_rejects', {
    members: `async isAvailable() { await null; throw new Error('async availability failure'); }`,
  }),
  'available-yes.ts': toolSource('available_yes', { members: `isAvailable() { return 'yes'; }` }),
  'internal-param.ts': toolSource('internal_param', { manifest: `parameters: { constructor: 'Who built it' },` }),
  'twins.ts': `import { BaseTool, ToolResult } from 'riverse';
export class TwinA extends BaseTool {
  manifest() { return { name: 'twin', description: 'The first twin', examples: ['a', 'b'] }; }
  execute() { return ToolResult.ok('A'); }
}
export class TwinB extends BaseTool {
  manifest() { return { name: 'twin', description: 'The second twin', parameters: { x: 'x' }, examples: ['a', 'b'] }; }
  execute() { return ToolResult.ok('B'); }
}
`,
};

describe('load faults', () => {
  let dir = '';
  let registry: ToolRegistry;
  const file = (name: string) => join(dir, name);
  const only = (name: string): Diagnostic => onlyDiagnostic(registry, file(name));

  before(async () => {
    dir = await toolFolder({ after }, FILES);
    registry = await ToolRegistry.load({ folders: [dir], baseDir: dir, isolation: 'none' });
  });

  test('the working files load despite all the broken ones', () => {
    assert.deepEqual(toolNames(registry), ['also_good', 'good', 'no_examples', 'twin']);
    assert.equal(registry.hasErrors, true);
  });

  test('every diagnostic names a file in the folder', () => {
    for (const diagnostic of registry.diagnostics) {
      assert.ok(diagnostic.file.startsWith(dir), diagnostic.file);
      assert.ok(diagnostic.message.length > 0);
    }
    assert.deepEqual(diagnosticsFor(registry, file('good.ts')), []);
    assert.deepEqual(diagnosticsFor(registry, file('also-good.mjs')), []);
  });

  test('a syntax error in .ts: syntax-error with the line from the transformer', () => {
    const d = only('syntax.ts');
    assert.equal(d.code, 'syntax-error');
    assert.equal(d.severity, 'error');
    assert.equal(d.line, 3);
    assert.equal(typeof d.column, 'number');
    assert.match(d.message, /^syntax error: .*expected/i);
    assert.match(formatDiagnostic(d, dir), /^syntax\.ts:3:\d+: error \[syntax-error\]/);
  });

  test('a syntax error in .mjs: syntax-error', () => {
    const d = only('syntax.mjs');
    assert.equal(d.code, 'syntax-error');
    assert.match(d.message, /Unexpected token/);
    assert.equal(registry.find('broken_mjs'), undefined);
  });

  test('an import of a missing package: import-failed, with npm install in the hint', () => {
    const d = only('missing-package.ts');
    assert.equal(d.code, 'import-failed');
    assert.match(d.message, /riverse-no-such-package-xyz/);
    assert.match(d.hint ?? '', /npm install riverse-no-such-package-xyz/);
  });

  test('an import of a missing relative file: import-failed, with a path hint', () => {
    const d = only('missing-relative.ts');
    assert.equal(d.code, 'import-failed');
    assert.match(d.message, /_not-there\.ts/);
    assert.doesNotMatch(d.hint ?? '', /npm install/);
    assert.match(d.hint ?? '', /import path/);
  });

  test('a top-level throw: import-failed at the TypeScript line of the throw', () => {
    const d = only('top-level-throw.ts');
    assert.equal(d.code, 'import-failed');
    assert.equal(d.line, 6);
    assert.match(d.message, /top-level boom: no settings/);
    assert.match(d.hint ?? '', /top-level code/);
  });

  test('a constructor that throws: constructor-threw, naming the class and line', () => {
    const d = only('constructor-throws.ts');
    assert.equal(d.code, 'constructor-threw');
    assert.equal(d.tool, 'ConstructorThrowsTool');
    assert.equal(d.line, 5);
    assert.match(d.message, /ConstructorThrowsTool threw: constructor boom/);
    assert.equal(registry.find('ctor'), undefined);
  });

  test('manifest() that throws: manifest-threw, naming the class and line', () => {
    const d = only('manifest-throws.ts');
    assert.equal(d.code, 'manifest-threw');
    assert.equal(d.tool, 'ManifestThrowsTool');
    assert.equal(d.line, 5);
    assert.match(d.message, /manifest boom/);
  });

  test('an invalid name: invalid-manifest, and the tool is not registered', () => {
    const d = only('bad-name.ts');
    assert.equal(d.code, 'invalid-manifest');
    assert.equal(d.severity, 'error');
    assert.equal(d.tool, 'my tool!');
    assert.match(d.message, /^name: name "my tool!" is invalid/);
    assert.equal(registry.find('my tool!'), undefined);
  });

  test('an empty description: invalid-manifest', () => {
    const d = only('empty-description.ts');
    assert.equal(d.code, 'invalid-manifest');
    assert.equal(d.tool, 'empty_description');
    assert.match(d.message, /description is empty/);
    assert.equal(registry.find('empty_description'), undefined);
  });

  test('a bad parameter type: invalid-manifest naming the parameter', () => {
    const d = only('bad-param-type.ts');
    assert.equal(d.code, 'invalid-manifest');
    assert.match(d.message, /^parameters\.city\.type: type "text" is not one of string, number/);
    assert.equal(registry.find('bad_param_type'), undefined);
  });

  test('"requried" in a spec: invalid-manifest with "did you mean"', () => {
    const d = only('spec-typo.ts');
    assert.equal(d.code, 'invalid-manifest');
    assert.match(d.message, /parameters\.city\.requried/);
    assert.match(d.message, /did you mean "required"/);
    assert.equal(registry.find('spec_typo'), undefined);
  });

  test('no examples: a manifest-warning, but the tool is registered', async () => {
    const d = only('no-examples.ts');
    assert.equal(d.code, 'manifest-warning');
    assert.equal(d.severity, 'warning');
    assert.equal(d.tool, 'no_examples');
    assert.match(d.message, /no examples/);
    assert.deepEqual(await registry.execute('no_examples', {}), { success: true, data: 'no_examples' });
  });

  test('isAvailable() that throws: is-available-threw, and the tool is listed as unavailable', async () => {
    const d = only('available-throws.ts');
    assert.equal(d.code, 'is-available-threw');
    assert.equal(d.tool, 'available_throws');
    assert.equal(d.line, 5);
    assert.match(d.message, /cannot check availability/);
    const row = registry.list().find((r) => r.name === 'available_throws');
    assert.equal(row?.available, false);
    assert.match(row?.reason ?? '', /cannot check availability/);
    assert.equal((await registry.execute('available_throws', {})).code, 'unavailable');
  });

  test('isAvailable() that answers something other than true: unavailable, saying what it answered', () => {
    assert.deepEqual(diagnosticsFor(registry, file('available-yes.ts')), []);
    assert.deepEqual(registry.find('available_yes'), {
      ...registry.find('available_yes'),
      available: false,
      reason: 'isAvailable() returned "yes", not true',
    });
  });

  test('a parameter named like an object internal: invalid-manifest, so no call can break on it', () => {
    const d = only('internal-param.ts');
    assert.equal(d.code, 'invalid-manifest');
    assert.match(
      d.message,
      /^parameters\.constructor: parameter name "constructor" is a property every JavaScript object has/,
    );
    assert.equal(registry.find('internal_param'), undefined);
  });

  test('two classes of one file with one name: duplicate-name, and the one checked is the one that runs', async () => {
    const d = only('twins.ts');
    assert.equal(d.code, 'duplicate-name');
    assert.equal(d.tool, 'twin');
    assert.match(d.message, /TwinB and TwinA in this file both have the name "twin"; only TwinA is registered/);
    assert.match(registry.find('twin')?.manifest.description as string, /first twin/);
    assert.deepEqual(await registry.execute('twin', {}), { success: true, data: 'A' });
  });

  test('isAvailable() that rejects: is-available-threw', () => {
    const d = only('available-rejects.ts');
    assert.equal(d.code, 'is-available-threw');
    assert.match(d.message, /async availability failure/);
    assert.equal(registry.find('available_rejects')?.available, false);
  });
});

describe('load faults in a loader process', () => {
  // A loader maps stack positions back to the TypeScript only when it reads them (Node's source map
  // support is off there): the lines must be the ones the in-process load gives, above.
  test('each fault is at the TypeScript line of the throw', async (t) => {
    const names = ['top-level-throw.ts', 'constructor-throws.ts', 'manifest-throws.ts', 'available-throws.ts'];
    const dir = await toolFolder(t, Object.fromEntries(names.map((name) => [name, FILES[name]!])));
    const { workers } = registrySetup({});
    t.after(() => workers.close());
    const registry = await ToolRegistry.load({ folders: [dir], baseDir: dir, workers, isolation: 'process' });
    assert.deepEqual(
      names.map((name) => [name, onlyDiagnostic(registry, join(dir, name)).line]),
      [
        ['top-level-throw.ts', 6],
        ['constructor-throws.ts', 5],
        ['manifest-throws.ts', 5],
        ['available-throws.ts', 5],
      ],
    );
  });
});

describe('two classes with one name, in worker isolation', () => {
  test("the loader and the file's worker agree: the first class is checked and runs", async (t) => {
    const dir = await toolFolder(t, { 'twins.ts': FILES['twins.ts']! });
    const { workers } = registrySetup({});
    t.after(() => workers.close());
    const registry = await ToolRegistry.load({ folders: [dir], baseDir: dir, workers });
    assert.equal(onlyDiagnostic(registry, join(dir, 'twins.ts')).code, 'duplicate-name');
    assert.deepEqual(registry.find('twin')?.manifest.parameters, undefined);
    assert.deepEqual(await registry.execute('twin', {}), { success: true, data: 'A' });
    assert.equal((await registry.execute('twin', { x: '1' })).code, 'invalid-params');
  });
});

describe('loadToolFile', () => {
  test('loading the same file again with a new version gives a fresh module', async (t) => {
    const dir = await toolFolder(t, {
      'counter.ts': toolSource('counter', {
        header: 'globalThis.__riverseCounterLoads = (globalThis.__riverseCounterLoads ?? 0) + 1;',
      }),
    });
    const path = join(dir, 'counter.ts');
    const first = await loadToolFile(path, {}, 1001);
    const second = await loadToolFile(path, {}, 1002);
    const again = await loadToolFile(path, {}, 1002);
    assert.equal(first.tools.length, 1);
    assert.notEqual(first.tools[0]?.tool.constructor, second.tools[0]?.tool.constructor);
    assert.equal(second.tools[0]?.tool.constructor, again.tools[0]?.tool.constructor);
    assert.equal((globalThis as { __riverseCounterLoads?: number }).__riverseCounterLoads, 2);
  });

  test('a file whose isAvailable() throws synchronously leaves no timer behind', async (t) => {
    // The availability time limit must be cleared even when isAvailable() throws before returning;
    // otherwise its rejection goes unhandled (and ends the process) 5 s later.
    const dir = await toolFolder(t, {
      'sync-throw.ts': toolSource('sync_throw', { members: `isAvailable() { throw new Error('sync'); }` }),
    });
    const before = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const loaded = await loadToolFile(join(dir, 'sync-throw.ts'), {});
    assert.equal(loaded.diagnostics[0]?.code, 'is-available-threw');
    const afterLoad = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    assert.equal(afterLoad, before);
  });
});
