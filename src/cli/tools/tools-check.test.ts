import assert from 'node:assert/strict';
import { realpath } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import {
  ADD_ONE_TOOL,
  createProject,
  ECHO_TOOL,
  NO_EXAMPLES_TOOL,
  parseJson,
  show,
  SYNTAX_ERROR_TOOL,
  THROWING_TOOL,
  type TempProject,
} from '../cli-test-support.ts';

describe('riverse tools check', { concurrency: 4 }, () => {
  let clean: TempProject;
  let messy: TempProject;
  let messyRoot: string;
  let warningsOnly: TempProject;
  before(async () => {
    [clean, messy, warningsOnly] = await Promise.all([
      createProject({ 'agent/tools/echo.ts': ECHO_TOOL, 'agent/tools/add.ts': ADD_ONE_TOOL }),
      createProject({
        'agent/tools/echo.ts': ECHO_TOOL,
        // Sorted after echo.ts, so this copy is the one left out.
        'agent/tools/echo_copy.ts': ECHO_TOOL.replace('class EchoTool', 'class EchoCopyTool'),
        'agent/tools/broken.ts': SYNTAX_ERROR_TOOL,
        'agent/tools/lonely.ts': NO_EXAMPLES_TOOL,
        'agent/tools/throws.ts': THROWING_TOOL,
      }),
      createProject({ 'agent/tools/echo.ts': ECHO_TOOL, 'agent/tools/lonely.ts': NO_EXAMPLES_TOOL }),
    ]);
    messyRoot = await realpath(messy.dir);
  });
  after(() => Promise.all([clean, messy, warningsOnly].map((project) => project?.remove())));

  test('a clean folder: the summary line, exit 0 (with --strict too)', async () => {
    const [plain, strict] = await Promise.all([
      clean.run(['tools', 'check']),
      clean.run(['tools', 'check', '--strict']),
    ]);
    for (const result of [plain, strict]) {
      assert.equal(result.code, 0, show(result));
      assert.equal(result.stdout, 'Checked agent/tools: 2 tools available, 0 unavailable; 0 errors, 0 warnings.\n');
      assert.equal(result.stderr, '');
    }
  });

  test('errors: each diagnostic with file:line where known and a hint, then the summary; exit 1', async () => {
    const result = await messy.run(['tools', 'check']);
    assert.equal(result.code, 1, show(result));
    const blocks = result.stdout.trimEnd().split('\n\n');
    const summary = blocks.pop();
    assert.equal(summary, 'Checked agent/tools: 2 tools available, 0 unavailable; 3 errors, 1 warning.');
    const expected = [
      /^agent\/tools\/broken\.ts:6:\d+: error \[syntax-error\] syntax error: .+\n {2}→ fix the code at this line/,
      /^agent\/tools\/echo_copy\.ts: error \[duplicate-name\] echo: the tool name "echo" is already taken by agent\/tools\/echo\.ts; this one is not registered\n {2}→ rename one of them/,
      /^agent\/tools\/lonely\.ts:5:12: warning \[manifest-warning\] lonely: examples: no examples: add 2–3 messages/,
      /^agent\/tools\/throws\.ts:6:\d+: error \[manifest-threw\] ThrowingTool: manifest\(\) of ThrowingTool threw: the manifest is not ready\n {2}→ /,
    ];
    assert.equal(blocks.length, expected.length, show(result));
    for (const pattern of expected) {
      assert.ok(
        blocks.some((block) => pattern.test(block)),
        `no diagnostic matches ${pattern} in:\n${result.stdout}`,
      );
    }
  });

  test('--json: ok, counts, tools and every diagnostic; exit 1', async () => {
    const result = await messy.run(['tools', 'check', '--json']);
    assert.equal(result.code, 1, show(result));
    const output = parseJson(result);
    assert.equal(output.ok, false);
    assert.equal(output.errors, 3);
    assert.equal(output.warnings, 1);
    assert.deepEqual(
      output.tools.map((tool: { name: string }) => tool.name),
      ['echo', 'lonely'],
    );
    const byCode = new Map(output.diagnostics.map((diagnostic: { code: string }) => [diagnostic.code, diagnostic]));
    assert.deepEqual([...byCode.keys()].sort(), [
      'duplicate-name',
      'manifest-threw',
      'manifest-warning',
      'syntax-error',
    ]);
    assert.deepEqual(
      {
        ...(byCode.get('syntax-error') as object),
        message: undefined,
        column: undefined,
      },
      {
        severity: 'error',
        code: 'syntax-error',
        file: `${messyRoot}/agent/tools/broken.ts`,
        line: 6,
        column: undefined,
        message: undefined,
        hint: 'fix the code at this line; the other tool files load regardless',
      },
    );
    assert.equal((byCode.get('manifest-threw') as { line?: number }).line, 6);
    assert.equal((byCode.get('duplicate-name') as { file: string }).file, `${messyRoot}/agent/tools/echo_copy.ts`);
    assert.equal((byCode.get('manifest-warning') as { severity: string }).severity, 'warning');
  });

  test('warnings alone pass; --strict makes them fail', async () => {
    const [plain, strict, strictJson] = await Promise.all([
      warningsOnly.run(['tools', 'check']),
      warningsOnly.run(['tools', 'check', '--strict']),
      warningsOnly.run(['tools', 'check', '--strict', '--json']),
    ]);
    assert.equal(plain.code, 0, show(plain));
    assert.match(plain.stdout, /^agent\/tools\/lonely\.ts:5:12: warning \[manifest-warning\]/m);
    assert.match(plain.stdout, /2 tools available, 0 unavailable; 0 errors, 1 warning\.$/m);
    assert.equal(strict.code, 1, show(strict));
    assert.match(strict.stdout, /0 errors, 1 warning\.$/m);
    assert.equal(strictJson.code, 1, show(strictJson));
    const output = parseJson(strictJson);
    assert.equal(output.ok, false);
    assert.equal(output.errors, 0);
    assert.equal(output.warnings, 1);
  });
});

describe('riverse tools check type-checks the tool files', { concurrency: 4 }, () => {
  let project: TempProject;
  before(async () => {
    project = await createProject({
      'agent/tools/echo.ts': ECHO_TOOL,
      // Loads, registers and runs until the call: only the types show the typo.
      'agent/tools/add.ts': ADD_ONE_TOOL.replace('params.n + 1', 'params.m + 1'),
    });
  });
  after(() => project?.remove());

  test('by default (TypeScript is installed): a type-error at file:line:column, exit 1', async () => {
    const result = await project.run(['tools', 'check']);
    assert.equal(result.code, 1, show(result));
    assert.match(
      result.stdout,
      /^agent\/tools\/add\.ts:\d+:\d+: error \[type-error\] Property 'm' does not exist on type '\{ n: number; \}'\.( Did you mean 'n'\?)? \(TS\d+\)\n {2}→ fix the types/m,
    );
    assert.match(result.stdout, /2 tools available, 0 unavailable; 1 error, 0 warnings\.\n$/);
    const json = parseJson(await project.run(['tools', 'check', '--json', '--types']));
    assert.match(json.typescript, /^\d+\.\d+/);
    assert.deepEqual(
      json.diagnostics.map((diagnostic: { code: string }) => diagnostic.code),
      ['type-error'],
    );
  });

  // What the guides say: only `tools check` type-checks, so a type error does not keep a tool out of the registry.
  test('a type-error leaves the tool registered: tools list shows it available, with no diagnostic', async () => {
    const listed = parseJson(await project.run(['tools', 'list', '--json']));
    assert.deepEqual(
      listed.tools.map((tool: { name: string; available: boolean }) => [tool.name, tool.available]).sort(),
      [
        ['add_one', true],
        ['echo', true],
      ],
    );
    assert.deepEqual(listed.diagnostics, []);
  });

  test('--no-types skips it', async () => {
    const result = await project.run(['tools', 'check', '--no-types']);
    assert.equal(result.code, 0, show(result));
    assert.equal(result.stdout, 'Checked agent/tools: 2 tools available, 0 unavailable; 0 errors, 0 warnings.\n');
  });
});

describe('riverse tools check and the config', () => {
  test('a tool section that names no tool is a warning at its line, with the near name; a broken tool keeps its section', async (t) => {
    const project = await createProject({
      'agent/tools/echo.ts': ECHO_TOOL,
      'agent/tools/broken.ts': THROWING_TOOL,
      'riverse.yaml':
        'tools:\n  timeout_ms: 5000\n  echo:\n    enabled: true\n  eho:\n    base_url: http://example.test\n  ThrowingTool:\n    x: 1\n',
    });
    t.after(() => project.remove());
    const result = await project.run(['tools', 'check', '--no-types']);
    assert.equal(result.code, 1, show(result));
    const [first] = result.stdout.split('\n\n');
    assert.equal(
      first,
      'riverse.yaml:5: warning [unknown-tool-section] tools.eho is the section of a tool named "eho", and no tool file has that name (did you mean "echo"?); nothing reads it\n  → rename the section to the tool\'s manifest().name, or remove it\n  5 |   eho:',
    );
    assert.match(result.stdout, /; 1 error, 1 warning\.\n$/);
  });
});

describe('riverse tools check: where in the manifest', () => {
  test('a manifest error is at the line and column of its property, with the line and a caret; --json has line and column', async (t) => {
    const project = await createProject({
      'agent/tools/weather.ts': `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';

export class WeatherTool extends BaseTool {
  manifest(): ToolManifest {
    return {
      name: 'weather',
      description: 'The weather in a city',
      parameters: {
        city: { type: 'strin' as 'string', description: 'the city' },
      },
      examples: ['Weather in Tokyo?', 'Is it raining in Paris?'],
    };
  }

  execute() {
    return ToolResult.ok('sunny');
  }
}
`,
    });
    t.after(() => project.remove());
    const result = await project.run(['tools', 'check', '--no-types']);
    assert.equal(result.code, 1, show(result));
    const [first] = result.stdout.split('\n\n');
    assert.equal(
      first,
      [
        'agent/tools/weather.ts:9:17: error [invalid-manifest] weather: parameters.city.type: type "strin" is not one of string, number, integer, boolean, array, object (did you mean "string"?)',
        '  → fix the manifest; the tool is not registered until then',
        "  9 |         city: { type: 'strin' as 'string', description: 'the city' },",
        '    |                 ^',
      ].join('\n'),
    );
    const json = parseJson(await project.run(['tools', 'check', '--no-types', '--json']));
    assert.deepEqual(
      json.diagnostics.map(({ code, line, column }: { code: string; line: number; column: number }) => ({
        code,
        line,
        column,
      })),
      [{ code: 'invalid-manifest', line: 9, column: 17 }],
    );
    assert.doesNotMatch(JSON.stringify(json), /\^/, 'no code frame in JSON');
  });
});

// Issue 25: a file whose top level costs much CPU (a DOM, an SDK imported there) is a warning, with the fix.
test('long_running tools are reported: a line after the summary, and long_running/asks_first in --json', async (t) => {
  const task = (name: string, extra: string) =>
    ECHO_TOOL.replace("name: 'echo'", `name: '${name}', ${extra}`).replace('class EchoTool', `class T${name}`);
  const project = await createProject({
    'agent/tools/echo.ts': ECHO_TOOL,
    'agent/tools/report.ts': task('report', "long_running: 'optional'"),
    'agent/tools/crawl.ts': task(
      'crawl',
      "long_running: 'required', asks_first: [{ key: 'site', question: 'Which site?' }]",
    ),
  });
  t.after(() => project.remove());
  const result = await project.run(['tools', 'check', '--no-types']);
  assert.equal(result.code, 0, show(result));
  assert.match(
    result.stdout,
    /\nRun as tasks \(long_running\): crawl \(required, asks first: site\), report \(optional\)\.\n$/,
  );
  const json = parseJson(await project.run(['tools', 'check', '--no-types', '--json']));
  assert.deepEqual(
    json.tools.map((tool: { name: string; long_running?: string; asks_first?: string[] }) => [
      tool.name,
      tool.long_running,
      tool.asks_first,
    ]),
    [
      ['crawl', 'required', ['site']],
      ['echo', undefined, undefined],
      ['report', 'optional', undefined],
    ],
  );
  const zh = await project.run(['tools', 'check', '--no-types', '--lang', 'zh']);
  assert.match(zh.stdout, /作为任务运行（long_running）：crawl（required，先问：site）/);
});

test('a file whose load takes long is a slow-load warning, saying to import inside execute()', async (t) => {
  // Spins until its loader has used 300 ms of CPU, whatever the machine's load (the limit is 100).
  const spin = `const start = process.cpuUsage();\nwhile (process.cpuUsage(start).user < 300_000) {}\n`;
  const project = await createProject({
    'agent/tools/echo.ts': ECHO_TOOL,
    'agent/tools/heavy.ts':
      spin + ECHO_TOOL.replace("name: 'echo'", "name: 'heavy'").replace('class EchoTool', 'class HeavyTool'),
  });
  t.after(() => project.remove());
  const result = await project.run(['tools', 'check', '--no-types']);
  assert.equal(result.code, 0, show(result));
  assert.match(
    result.stdout,
    /^agent\/tools\/heavy\.ts: warning \[slow-load\] loading this file took \d+ ms of CPU .+, more than 100 ms; every start that loads it pays that\n {2}→ import at the top only what manifest\(\) and isAvailable\(\) need; import the rest inside execute\(\)/m,
  );
  assert.doesNotMatch(result.stdout, /echo\.ts: warning/);
  const json = parseJson(await project.run(['tools', 'check', '--no-types', '--json', '--lang', 'ja']));
  assert.deepEqual(
    json.diagnostics.map((diagnostic: { code: string; file: string }) => [
      diagnostic.code,
      diagnostic.file.endsWith('heavy.ts'),
    ]),
    [['slow-load', true]],
  );
  assert.match(json.diagnostics[0].message, /CPU 時間で \d+ ms/);
});
