// `tools check` passing must mean a call will not fail for a reason it could have seen; and a call
// to a tool whose file did not load says why and where, not "Unknown tool".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createProject, ECHO_TOOL, parseJson, show, SYNTAX_ERROR_TOOL, type TempProject } from '../cli-test-support.ts';

const GETTER_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class GetterTool extends BaseTool {
  manifest() {
    return { name: 'getter', get description(): string { throw new Error('not yet'); }, examples: ['a', 'b'] };
  }
  execute() {
    return ToolResult.ok('never');
  }
}
`;

const CTOR_TOOL = `import { BaseTool, ToolResult, type AppConfig } from 'riverse';

export class WobblyTool extends BaseTool {
  constructor(config: AppConfig) {
    super(config);
    throw new Error('no key');
  }
  manifest() { return { name: 'wobbly', description: 'x', examples: ['a', 'b'] }; }
  execute() { return ToolResult.ok(''); }
}
`;

for (const isolation of ['worker', 'none'] as const) {
  describe(`tools of files that did not load, isolation ${isolation}`, { concurrency: 4 }, () => {
    let project: TempProject;
    before(async () => {
      project = await createProject({
        'agent/tools/echo.ts': ECHO_TOOL,
        'agent/tools/broken.ts': SYNTAX_ERROR_TOOL,
        'agent/tools/getter.ts': GETTER_TOOL,
        'agent/tools/wobbly.ts': CTOR_TOOL,
        'riverse.yaml': `tools:\n  isolation: ${isolation}\n`,
      });
    });
    after(() => project?.remove());

    test('tools check reports a throwing manifest getter as a manifest diagnostic, and the command completes', async () => {
      const result = await project.run(['tools', 'check', '--json']);
      assert.equal(result.code, 1, show(result));
      const report = parseJson(result);
      const getter = report.diagnostics.find((diagnostic: { file: string }) => diagnostic.file.endsWith('getter.ts'));
      assert.equal(getter?.code, 'invalid-manifest');
      assert.match(getter?.message, /^description: reading description threw: not yet/);
      assert.deepEqual(
        report.tools.map((tool: { name: string }) => tool.name),
        ['echo'],
      );
    });

    test('tools run of a tool whose file does not parse says so, with file:line and the fix', async () => {
      const result = await project.run(['tools', 'run', 'broken']);
      assert.equal(result.code, 1, show(result));
      assert.match(
        result.stderr,
        /^error: Tool "broken" did not load, so it cannot be called:\nagent\/tools\/broken\.ts:6:\d+: error \[syntax-error\] syntax error: .*\n {2}→ fix the code at this line/,
      );
      assert.doesNotMatch(result.stderr, /Unknown tool/);
    });

    test('tools show of it: the same, exit 1; of a tool whose constructor threw: that error, found by its class and file name', async () => {
      const broken = await project.run(['tools', 'show', 'getter']);
      assert.equal(broken.code, 1, show(broken));
      assert.match(
        broken.stderr,
        /^error: Tool "getter" did not load, so it cannot be called:\nagent\/tools\/getter\.ts:5:34: error \[invalid-manifest\] getter: description: reading description threw: not yet/,
      );
      const wobbly = await project.run(['tools', 'show', 'wobbly']);
      assert.equal(wobbly.code, 1, show(wobbly));
      assert.match(
        wobbly.stderr,
        /agent\/tools\/wobbly\.ts:6:\d+: error \[constructor-threw\] WobblyTool: the constructor of WobblyTool threw: no key/,
      );
    });

    test('a name no file is about is still unknown: exit 2 with the tools that exist', async () => {
      const result = await project.run(['tools', 'show', 'ecko']);
      assert.equal(result.code, 2, show(result));
      assert.match(result.stderr, /Unknown tool "ecko" \(did you mean "echo"\?\)/);
    });

    test('tools run --params nested thousands deep: invalid-params at once, not a timeout', async () => {
      const deep = `{"text": "x", "times": ${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
      const result = await project.run(['tools', 'run', 'echo', '--params', deep, '--timeout', '20000']);
      assert.equal(result.code, 1, show(result));
      // Not the --timeout of 20 s: the check, before the call.
      assert.match(
        result.stderr,
        /^error: Invalid parameters for echo:\n- the arguments are nested more than 64 levels deep \(at "times\.0\.0\.0…"\); send flatter data/,
      );
      // Too deep even to print: --json says so instead of overflowing the stack.
      const json = parseJson(
        await project.run([
          'tools',
          'run',
          'echo',
          '--json',
          '--params',
          `{"text": ${'['.repeat(60_000)}${']'.repeat(60_000)}}`,
        ]),
      );
      assert.deepEqual([json.code, json.params], ['invalid-params', '(not shown: too large or too deeply nested)']);
    });

    test('tools run __proto__=x is an unknown parameter, not silently dropped', async () => {
      const result = await project.run(['tools', 'run', 'echo', 'text=hi', '__proto__=x']);
      assert.equal(result.code, 1, show(result));
      assert.match(result.stderr, /^- unknown parameter "__proto__"; remove it$/m);
    });
  });
}
