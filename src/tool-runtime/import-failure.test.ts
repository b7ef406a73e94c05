import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { onlyDiagnostic, tempDir, toolNames, toolSource, writeFiles } from './test-support.ts';
import { registrySetup, ToolRegistry } from './tool-registry.ts';

async function load(
  t: { after(fn: () => unknown): void },
  files: Record<string, string>,
): Promise<{ dir: string; registry: ToolRegistry }> {
  const dir = await tempDir(t);
  await writeFiles(dir, files);
  const { workers } = registrySetup({});
  t.after(() => workers.close());
  const tools = join(dir, 'tools');
  return { dir: tools, registry: await ToolRegistry.load({ folders: [tools], baseDir: dir, workers }) };
}

describe('import-failed gives the line of the import that failed', () => {
  test('a missing package, a missing relative file, and one missing from a helper', async (t) => {
    const { dir, registry } = await load(t, {
      'tools/package.ts': `import { BaseTool } from 'riverse';
type Unused = string;
import {
  pad,
} from "riverse-no-such-package-xyz/sub";
`,
      'tools/relative.ts': `import { BaseTool } from 'riverse';

const later = await import('./_not-there.ts');
`,
      'tools/uses-helper.ts': `import { BaseTool } from 'riverse';
import { helper } from './_helper.ts';
`,
      'tools/_helper.ts': `export const helper = 1;\nimport { gone } from './lib/gone.ts';\n`,
    });
    const pkg = onlyDiagnostic(registry, join(dir, 'package.ts'));
    assert.deepEqual([pkg.code, pkg.line, pkg.column], ['import-failed', 5, 8]);
    assert.match(pkg.hint ?? '', /npm install riverse-no-such-package-xyz/);
    const relative = onlyDiagnostic(registry, join(dir, 'relative.ts'));
    assert.deepEqual([relative.code, relative.line], ['import-failed', 3]);
    const helper = onlyDiagnostic(registry, join(dir, 'uses-helper.ts'));
    assert.equal(helper.code, 'import-failed');
    assert.match(helper.message, /lib\/gone\.ts.*\(at .*tools\/_helper\.ts:2\)$/);
  });
});

describe('import-failed when a module the file imports throws while loading', () => {
  test("the line of the import here, and where it was thrown: a helper's and a package's top-level code", async (t) => {
    const { dir, registry } = await load(t, {
      'tools/uses-helper.ts': `import { BaseTool } from 'riverse';\n// the helper throws\nimport { x } from './_throws.ts';\n`,
      'tools/_throws.ts': `export const x = 1;\nthrow new TypeError('helper boom');\n`,
      'tools/uses-package.ts': `import { BaseTool } from 'riverse';\n\nimport 'boom-pkg/sub';\n`,
      'node_modules/boom-pkg/package.json':
        '{ "name": "boom-pkg", "type": "module", "exports": { "./sub": "./sub.js" } }',
      'node_modules/boom-pkg/sub.js': `\nthrow new Error('package boom');\n`,
    });
    const helper = onlyDiagnostic(registry, join(dir, 'uses-helper.ts'));
    assert.deepEqual([helper.code, helper.line, helper.column], ['import-failed', 3, 19]);
    assert.match(helper.message, /^the file failed while loading: helper boom \(thrown at .*tools\/_throws\.ts:2\)$/);
    const pkg = onlyDiagnostic(registry, join(dir, 'uses-package.ts'));
    assert.deepEqual([pkg.code, pkg.line], ['import-failed', 3]);
    assert.match(pkg.message, /package boom \(thrown at .*node_modules\/boom-pkg\/sub\.js:2\)$/);
  });
});

describe('a tool file in a CommonJS package', () => {
  // `npm init -y` writes "type": "commonjs".
  test('"type": "commonjs": says to rename the file to .mts/.mjs or set "type": "module"', async (t) => {
    const { dir, registry } = await load(t, {
      'package.json': '{ "name": "app", "type": "commonjs" }',
      'tools/app_tool.ts': toolSource('app_tool'),
      'tools/plain.js': toolSource('plain'),
      'tools/fine.mts': toolSource('fine'),
    });
    assert.deepEqual(toolNames(registry), ['fine']);
    const ts = onlyDiagnostic(registry, join(dir, 'app_tool.ts'));
    assert.equal(ts.code, 'syntax-error');
    assert.match(
      ts.message,
      /^the file is loaded as CommonJS, where `import`\/`export` are not allowed: .*package\.json says "type": "commonjs"/,
    );
    assert.match(ts.hint ?? '', /^rename the file to app_tool\.mts, or set "type": "module" in .*package\.json$/);
    assert.match(onlyDiagnostic(registry, join(dir, 'plain.js')).hint ?? '', /rename the file to plain\.mjs/);
  });

  // Without a "type", Node sees the ESM syntax and loads the file as a module.
  for (const packageJson of ['{ "type": "module" }', '{ "name": "app" }']) {
    test(`${packageJson}: the same files load`, async (t) => {
      const { registry } = await load(t, {
        'package.json': packageJson,
        'tools/app_tool.ts': toolSource('app_tool'),
        'tools/plain.js': toolSource('plain'),
      });
      assert.deepEqual(registry.diagnostics, []);
      assert.deepEqual(toolNames(registry), ['app_tool', 'plain']);
    });
  }
});
