import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tempDir, toolSource, writeFiles } from './test-support.ts';
import { parseTscOutput, typeCheckToolFiles, withoutNodeTypes } from './type-check-tools.ts';

// Loads and runs until the call: every mistake here is one only the types show.
const TYPO_TOOL = `import { BaseTool, ToolResult, type ToolContext, type ToolManifest } from 'riverse';
import { unit } from './_units.ts';

export class TypoTool extends BaseTool<{ city: string }> {
  manifest(): ToolManifest {
    return { name: 'typo', description: 'Weather', parameters: { city: { type: 'string', required: true } }, examples: ['a', 'b'] };
  }

  execute(params: { city: string }, context: ToolContext): ToolResult {
    context.logger.debug(params.ctiy);
    return ToolResult.okk(params.city + unit);
  }
}
`;

describe('typeCheckToolFiles, with the TypeScript Riverse is installed with', () => {
  test('a typo tsc catches is a type-error with file:line:column, in the tool file and in its helper', async (t) => {
    const root = await tempDir(t);
    const dir = join(root, 'tools');
    await writeFiles(root, {
      'tools/typo.ts': TYPO_TOOL,
      'tools/_units.ts': `export const unit: number = '°C';\n`,
      'tools/fine.ts': `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';
export class FineTool extends BaseTool {
  manifest(): ToolManifest { return { name: 'fine', description: 'Fine', examples: ['a', 'b'] }; }
  async execute(params) { return ToolResult.ok(String(params.anything)); }
}
`,
      'tools/plain.mjs': toolSource('plain').replace('ToolResult.ok', 'ToolResult.okk'),
    });
    const result = await typeCheckToolFiles([join(dir, 'typo.ts'), join(dir, 'fine.ts'), join(dir, 'plain.mjs')], {
      folders: [dir],
      baseDir: root,
    });
    assert.match(result.version ?? '', /^\d+\./);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [
        diagnostic.code,
        diagnostic.severity,
        diagnostic.file,
        diagnostic.line,
        diagnostic.column,
      ]),
      [
        ['type-error', 'error', join(dir, '_units.ts'), 1, 14],
        ['type-error', 'error', join(dir, 'typo.ts'), 10, 33],
        ['type-error', 'error', join(dir, 'typo.ts'), 11, 23],
      ],
    );
    assert.match(
      result.diagnostics[1]!.message,
      /^Property 'ctiy' does not exist on type '\{ city: string; \}'\. (Did you mean 'city'\? )?\(TS(2551|2339)\)$/,
    );
    assert.match(result.diagnostics[2]!.message, /Property 'okk' does not exist/);
    assert.match(result.diagnostics[2]!.hint ?? '', /--no-types/);
  });

  test('in a package of ES modules ("type": "module", as in this repository and in apps that say so): riverse is the contract', async (t) => {
    const root = await tempDir(t);
    await writeFiles(root, {
      'package.json': '{ "type": "module" }\n',
      'agent/tools/fine.ts': `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';
export class FineTool extends BaseTool {
  manifest(): ToolManifest { return { name: 'fine', description: 'Fine', examples: ['a', 'b'] }; }
  async execute() { return ToolResult.okk('x'); }
}
`,
    });
    const dir = join(root, 'agent', 'tools');
    const result = await typeCheckToolFiles([join(dir, 'fine.ts')], { folders: [dir], baseDir: root });
    // The one mistake is found, and nothing says that 'riverse' could not be found.
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.line, /okk/.test(diagnostic.message)]),
      [[4, true]],
    );
  });

  test('a manifest() without its return type: the hint says to write `manifest(): ToolManifest`', async (t) => {
    const dir = await tempDir(t);
    await writeFiles(dir, {
      'bare.ts': `import { BaseTool, ToolResult } from 'riverse';
export class BareTool extends BaseTool<{ n: number }> {
  manifest() {
    return { name: 'bare', description: 'x', parameters: { n: { type: 'integer', required: true } }, examples: ['a', 'b'] };
  }
  execute(params: { n: number }) { return ToolResult.ok(String(params.n)); }
}
`,
    });
    const [diagnostic, ...rest] = (await typeCheckToolFiles([join(dir, 'bare.ts')], { folders: [dir], baseDir: dir }))
      .diagnostics;
    assert.deepEqual(rest, []);
    assert.equal(diagnostic?.line, 3);
    assert.match(
      diagnostic?.message ?? '',
      /^Property 'manifest' in type 'BareTool' is not assignable .* … Type 'string' is not assignable to type '"array" \| .*'\. \(TS2416\)$/,
    );
    assert.match(diagnostic?.hint ?? '', /^write `manifest\(\): ToolManifest`/);
  });

  test('no TypeScript files, nothing to check: it does not run', async (t) => {
    const dir = await tempDir(t);
    await writeFiles(dir, { 'plain.mjs': toolSource('plain') });
    assert.deepEqual(await typeCheckToolFiles([join(dir, 'plain.mjs')], { folders: [dir], baseDir: dir }), {
      diagnostics: [],
    });
  });

  test('its time is bounded: past the limit, a warning that the files were not type-checked', async (t) => {
    const dir = await tempDir(t);
    await writeFiles(dir, { 'typo.ts': TYPO_TOOL, '_units.ts': 'export const unit = 1;\n' });
    const result = await typeCheckToolFiles([join(dir, 'typo.ts')], { folders: [dir], baseDir: dir, timeoutMs: 1 });
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.file]),
      [['type-check-failed', 'warning', dir]],
    );
    // Said only when the checker was killed at the limit: it was not waited for.
    assert.match(result.diagnostics[0]!.message, /not type-checked: it did not finish within 0\.001 s/);
  });
});

describe('parseTscOutput', () => {
  test('of a long explanation, keeps its first line (what) and its last (why)', () => {
    const output =
      "tools/a.ts(3,5): error TS2322: Type '{ x: number; }' is not assignable to type 'ToolResult'.\n  Types of property 'x' are incompatible.\n    Object literal may only specify known properties.\nFound 1 error.\n";
    const [diagnostic] = parseTscOutput(output, '/app');
    assert.equal(diagnostic?.file, '/app/tools/a.ts');
    assert.equal(
      diagnostic?.message,
      "Type '{ x: number; }' is not assignable to type 'ToolResult'. … Object literal may only specify known properties. (TS2322)",
    );
  });

  test("without Node's types, its cannot-find errors become one warning saying what to install", () => {
    const output = [
      "tools/fs.ts(1,30): error TS2591: Cannot find name 'node:fs'. Do you need to install type definitions for node? Try `npm i --save-dev @types/node` and then add 'node' to the types field in your tsconfig.",
      "tools/fs.ts(5,7): error TS2580: Cannot find name 'process'. Do you need to install type definitions for node? Try `npm i --save-dev @types/node`.",
      "tools/fs.ts(6,3): error TS2339: Property 'okk' does not exist on type 'typeof ToolResult'.",
    ].join('\n');
    const diagnostics = withoutNodeTypes(parseTscOutput(output, '/app'), '/app/tools');
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.line]),
      [
        ['type-error', 'error', 6],
        ['type-check-failed', 'warning', undefined],
      ],
    );
    assert.equal(diagnostics[1]!.hint, 'npm install --save-dev @types/node');
  });
});

describe('typeCheckToolFiles, where no TypeScript is installed', () => {
  test('TypeScript tool files and no TypeScript: not checked, and said to be (so that `tools check` can say it)', async (t) => {
    const root = await tempDir(t);
    await writeFiles(root, { 'tools/plain.ts': toolSource('plain'), 'tools/other.mjs': toolSource('other') });
    const nowhere = { folders: [join(root, 'tools')], baseDir: root, lookIn: [join(root, 'package.json')] };
    const missing = await typeCheckToolFiles([join(root, 'tools/plain.ts')], nowhere);
    assert.deepEqual(missing, { notInstalled: true, diagnostics: [] });
    // Only JavaScript: there was nothing to check, so nothing is missing.
    assert.deepEqual(await typeCheckToolFiles([join(root, 'tools/other.mjs')], nowhere), { diagnostics: [] });
  });
});
