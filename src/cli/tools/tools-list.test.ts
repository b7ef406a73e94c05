import assert from 'node:assert/strict';
import { realpath } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import {
  ADD_ONE_TOOL,
  createProject,
  ECHO_TOOL,
  GREET_TOOL,
  parseJson,
  show,
  SYNTAX_ERROR_TOOL,
  type TempProject,
} from '../cli-test-support.ts';

describe('riverse tools list', { concurrency: 4 }, () => {
  let project: TempProject;
  let root: string;
  before(async () => {
    project = await createProject({
      'agent/tools/echo.ts': ECHO_TOOL,
      'agent/tools/add.ts': ADD_ONE_TOOL,
      'agent/tools/greet.ts': GREET_TOOL,
      'agent/tools/broken.ts': SYNTAX_ERROR_TOOL,
      'agent/tools/_helpers.ts': 'export const notATool = 1;\n',
      'agent/tools/echo.test.ts': 'throw new Error("test files are not tools");\n',
      'riverse.yaml': '# the greeter is off here\ntools:\n  greet:\n    enabled: false\n',
    });
    root = await realpath(project.dir);
  });
  after(() => project?.remove());

  test('prints a table of every tool: name, source, available or why not; a broken file goes to stderr; exit 1', async () => {
    const result = await project.run(['tools', 'list']);
    assert.equal(result.code, 1, show(result));
    const lines = result.stdout.trimEnd().split('\n');
    assert.deepEqual(
      lines.map((line) => line.split(/\s{2,}/)),
      [
        ['NAME', 'SOURCE', 'STATUS'],
        ['add_one', 'agent/tools/add.ts', 'available'],
        ['echo', 'agent/tools/echo.ts', 'available'],
        ['greet', 'agent/tools/greet.ts', 'unavailable: turned off in the config (tools.greet.enabled: false)'],
      ],
      show(result),
    );
    // Columns line up.
    for (const column of ['SOURCE', 'STATUS']) {
      const at = lines[0]!.indexOf(column);
      for (const line of lines.slice(1))
        assert.match(line.slice(at), /^\S/, `column ${column} is aligned in:\n${result.stdout}`);
    }
    assert.doesNotMatch(result.stdout, /broken|_helpers|echo\.test/);
    assert.match(result.stderr, /1 problem kept tools from loading:/);
    assert.match(result.stderr, /^agent\/tools\/broken\.ts:6:\d+: error \[syntax-error\] syntax error: /m);
    assert.match(result.stderr, /`npx riverse tools check`/);
  });

  test('--json prints the tools and the diagnostics as JSON', async () => {
    const result = await project.run(['tools', 'list', '--json']);
    assert.equal(result.code, 1, show(result)); // broken.ts did not load
    const output = parseJson(result);
    assert.deepEqual(output.tools, [
      { name: 'add_one', file: `${root}/agent/tools/add.ts`, available: true },
      { name: 'echo', file: `${root}/agent/tools/echo.ts`, available: true },
      {
        name: 'greet',
        file: `${root}/agent/tools/greet.ts`,
        available: false,
        reason: 'turned off in the config (tools.greet.enabled: false)',
      },
    ]);
    assert.equal(output.diagnostics.length, 1, JSON.stringify(output.diagnostics));
    assert.equal(output.diagnostics[0].code, 'syntax-error');
    assert.equal(output.diagnostics[0].severity, 'error');
    assert.equal(output.diagnostics[0].file, `${root}/agent/tools/broken.ts`);
    assert.equal(output.diagnostics[0].line, 6);
  });

  test('with only a broken file, it says first that a file could not be loaded, not "create one"; with its line and a caret', async () => {
    const broken = await createProject({ 'agent/tools/broken.ts': SYNTAX_ERROR_TOOL });
    try {
      const result = await broken.run(['tools', 'list']);
      assert.equal(result.code, 1, show(result));
      assert.equal(result.stdout, '');
      assert.doesNotMatch(result.stderr, /No tools found|Create one/);
      const lines = result.stderr.split('\n');
      assert.equal(lines[0], 'No tools loaded from agent/tools: 1 tool file could not be loaded:', show(result));
      assert.match(lines[1]!, /^agent\/tools\/broken\.ts:6:(\d+): error \[syntax-error\] syntax error: /);
      const column = Number(/:6:(\d+):/.exec(lines[1]!)![1]);
      const frame = lines.indexOf('  6 |   execute() {');
      assert.ok(frame > 1, show(result));
      assert.equal(lines[frame + 1], `    | ${' '.repeat(column - 1)}^`);
      assert.match(result.stderr, /`npx riverse tools check`/);
      const ja = await broken.run(['tools', 'list', '--lang', 'ja']);
      assert.equal(ja.code, 1, show(ja));
      assert.match(
        ja.stderr,
        /^agent\/tools からツールを 1 つも読み込めませんでした。読み込めなかったツールファイルが 1 個あります：\n/,
      );
      const zh = await broken.run(['tools', 'list', '--lang', 'zh']);
      assert.match(zh.stderr, /^agent\/tools 中没有加载到任何工具：有 1 个工具文件无法加载：\n/);
    } finally {
      await broken.remove();
    }
  });

  test('a project without tools says how to create one', async () => {
    const empty = await createProject();
    try {
      const result = await empty.run(['tools', 'list']);
      assert.equal(result.code, 0, show(result));
      assert.match(result.stdout, /No tools found in agent\/tools\. Create one with: npx riverse tools new my_tool/);
      assert.equal(result.stderr, '');
    } finally {
      await empty.remove();
    }
  });
});
