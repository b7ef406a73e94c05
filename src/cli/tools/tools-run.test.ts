import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ADD_ONE_TOOL,
  createProject,
  ECHO_TOOL,
  FAILING_TOOL,
  GREET_TOOL,
  parseJson,
  show,
  SLOW_TOOL,
  type TempProject,
} from '../cli-test-support.ts';

describe('riverse tools run', { concurrency: 4 }, () => {
  let project: TempProject;
  before(async () => {
    project = await createProject({
      'agent/tools/echo.ts': ECHO_TOOL,
      'agent/tools/add.ts': ADD_ONE_TOOL,
      'agent/tools/greet.ts': GREET_TOOL,
      'agent/tools/fail.ts': FAILING_TOOL,
      'agent/tools/slow.ts': SLOW_TOOL,
      'riverse.yaml': 'tools:\n  greet:\n    greeting: Hello\n',
      'other.yaml': 'tools:\n  greet:\n    greeting: Hola\n',
      'config/from-env.yaml': 'tools:\n  dirs: [../agent/tools]\n  greet:\n    greeting: Salut\n',
    });
  });
  after(() => project?.remove());

  test('key=value parameters: prints the data, exit 0', async () => {
    const result = await project.run(['tools', 'run', 'echo', 'text=hi there', 'times=2']);
    assert.equal(result.code, 0, show(result));
    assert.equal(result.stdout, 'hi there hi there\n');
    assert.equal(result.stderr, '');
  });

  test('a value may hold "="', async () => {
    const result = await project.run(['tools', 'run', 'echo', 'text=a=b']);
    assert.equal(result.code, 0, show(result));
    assert.equal(result.stdout, 'a=b\n');
  });

  test('--params takes a JSON object', async () => {
    const result = await project.run(['tools', 'run', 'add_one', '--params', '{"n": 3}']);
    assert.equal(result.code, 0, show(result));
    assert.equal(result.stdout, 'number 4\n');
  });

  test('n=3 is coerced to the integer the tool declares', async () => {
    const result = await project.run(['tools', 'run', 'add_one', 'n=3']);
    assert.equal(result.code, 0, show(result));
    assert.equal(result.stdout, 'number 4\n');
  });

  test('a tool that fails: its error on stderr, exit 1', async () => {
    const result = await project.run(['tools', 'run', 'always_fails']);
    assert.equal(result.code, 1, show(result));
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, 'error: the disk is on fire\n');
  });

  test('invalid parameters: exit 1 with what is wrong and the expected signature', async () => {
    const result = await project.run(['tools', 'run', 'add_one', 'n=three', 'm=1']);
    assert.equal(result.code, 1, show(result));
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^error: Invalid parameters for add_one:$/m);
    assert.match(result.stderr, /^- "n" must be an integer, got string "three"$/m);
    assert.match(result.stderr, /^- unknown parameter "m"/m);
    assert.match(result.stderr, /^Expected: add_one\(n: integer\)$/m);
  });

  test('a missing required parameter: exit 1', async () => {
    const result = await project.run(['tools', 'run', 'echo']);
    assert.equal(result.code, 1, show(result));
    assert.match(result.stderr, /missing required parameter "text"/);
    assert.match(result.stderr, /Expected: echo\(text: string, times\?: integer = 1\)/);
  });

  test('an unknown tool: exit 1 with the tools that exist', async () => {
    const result = await project.run(['tools', 'run', 'add_on', 'n=1']);
    assert.equal(result.code, 1, show(result));
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /^error: Unknown tool "add_on" \(did you mean "add_one"\?\)\. Available tools: add_one, always_fails, echo, greet, slow\.$/m,
    );
  });

  test('a word without "=": usage error, exit 2', async () => {
    const result = await project.run(['tools', 'run', 'echo', 'hello']);
    assert.equal(result.code, 2, show(result));
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^error: "hello" is not a parameter: write key=value/m);
  });

  test('--params that is not JSON, or not an object: usage error, exit 2', async () => {
    const [notJson, notObject] = await Promise.all([
      project.run(['tools', 'run', 'echo', '--params', '{text: hi}']),
      project.run(['tools', 'run', 'echo', '--params', '["hi"]']),
    ]);
    assert.equal(notJson.code, 2, show(notJson));
    assert.match(notJson.stderr, /^error: --params is not valid JSON: /m);
    assert.equal(notObject.code, 2, show(notObject));
    assert.match(notObject.stderr, /^error: --params must be a JSON object/m);
  });

  test('an option commander rejects is a usage error too: exit 2, not the exit 1 of a failed tool', async () => {
    const result = await project.run(['tools', 'run', 'echo', 'text=hi', '--timeout', '0']);
    assert.equal(result.code, 2, show(result));
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /--timeout <ms>.*invalid.*positive whole number/);
  });

  // The slow tool ignores cancellation and would run for ten minutes: a command that waited for it
  // would be killed at the runner's 60 s (code null), so exiting by itself is exiting at once.
  test('--timeout stops a slow tool: exit 1 naming the time limit, and the command ends at once', async () => {
    const result = await project.run(['tools', 'run', 'slow', '--timeout', '100']);
    assert.equal(result.code, 1, show(result));
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^error: slow did not finish within 100 ms and was stopped\.$/m);
  });

  test('Ctrl-C cancels the call: exit 1 saying so, and the command ends at once', async () => {
    const result = await project.run(['tools', 'run', 'slow'], {
      signalWhen: { stderr: /\[slow\] info: started/, signal: 'SIGINT' },
    });
    assert.equal(result.code, 1, show(result));
    assert.match(result.stderr, /^error: Call to slow was cancelled\.$/m);
  });

  test('--json prints the whole result, success or failure, with the parameters the tool received', async () => {
    const [ok, defaulted, refused, failed] = await Promise.all([
      project.run(['tools', 'run', 'add_one', 'n=41', '--json']),
      project.run(['tools', 'run', 'echo', 'text=hi', '--json']),
      project.run(['tools', 'run', 'add_one', 'n=many', '--json']),
      project.run(['tools', 'run', 'always_fails', '--json']),
    ]);
    assert.equal(ok.code, 0, show(ok));
    const okOutput = parseJson(ok);
    assert.ok(Number.isInteger(okOutput.durationMs), `whole milliseconds: ${okOutput.durationMs}`);
    delete okOutput.durationMs;
    // Coerced: "41" came in, the number 41 is what the tool saw.
    assert.deepEqual(okOutput, { tool: 'add_one', params: { n: 41 }, success: true, data: 'number 42' });
    assert.deepEqual(parseJson(defaulted).params, { text: 'hi', times: 1 }, 'with its defaults');
    assert.equal(refused.code, 1, show(refused));
    assert.deepEqual(parseJson(refused).params, { n: 'many' }, 'a refused call: as given');
    assert.equal(failed.code, 1, show(failed));
    const failedOutput = parseJson(failed);
    assert.equal(failedOutput.success, false);
    assert.equal(failedOutput.error, 'the disk is on fire');
  });

  test('riverse.yaml in the working folder is read; --lang sets the language', async () => {
    const result = await project.run(['tools', 'run', 'greet', 'name=Ana', '--lang', 'ja']);
    assert.equal(result.code, 0, show(result));
    assert.equal(result.stdout, 'Hello, Ana [ja]\n');
  });

  test('--config names another file, before or after the command', async () => {
    const [first, last] = await Promise.all([
      project.run(['--config', 'other.yaml', 'tools', 'run', 'greet', 'name=Ana']),
      project.run(['tools', 'run', 'greet', 'name=Ana', '--config', 'other.yaml']),
    ]);
    assert.equal(first.code, 0, show(first));
    assert.equal(first.stdout, 'Hola, Ana [en]\n');
    assert.equal(last.code, 0, show(last));
    assert.equal(last.stdout, 'Hola, Ana [en]\n');
  });

  test('RIVERSE_CONFIG names the file when --config does not; tools.dirs is relative to that file', async () => {
    const [fromEnv, overridden] = await Promise.all([
      project.run(['tools', 'run', 'greet', 'name=Bo'], { env: { RIVERSE_CONFIG: 'config/from-env.yaml' } }),
      project.run(['-c', 'other.yaml', 'tools', 'run', 'greet', 'name=Bo'], {
        env: { RIVERSE_CONFIG: 'config/from-env.yaml' },
      }),
    ]);
    assert.equal(fromEnv.code, 0, show(fromEnv));
    assert.equal(fromEnv.stdout, 'Salut, Bo [en]\n');
    assert.equal(overridden.code, 0, show(overridden));
    assert.equal(overridden.stdout, 'Hola, Bo [en]\n');
  });

  test('a named config file that does not exist: exit 2', async () => {
    const result = await project.run(['--config', 'nope.yaml', 'tools', 'run', 'greet', 'name=Ana']);
    assert.equal(result.code, 2, show(result));
    assert.match(result.stderr, /nope\.yaml: no such config file \(named by --config\)/);
  });
});

describe('riverse tools run with an invalid riverse.yaml', { concurrency: 4 }, () => {
  let project: TempProject;
  before(async () => {
    project = await createProject({
      'agent/tools/echo.ts': ECHO_TOOL,
      'riverse.yaml': '# settings\ntools:\n  timeout_ms: soon\n  echo:\n    enabled: maybe\n',
      'broken.yaml': 'tools:\n  echo:\n    enabled: true\n   greeting: [unclosed\n',
    });
  });
  after(() => project?.remove());

  test('exit 2; every problem with file:line and key', async () => {
    const result = await project.run(['tools', 'run', 'echo', 'text=hi']);
    assert.equal(result.code, 2, show(result));
    assert.equal(result.stdout, '');
    const file = `${project.dir}/riverse.yaml`.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    assert.match(
      result.stderr,
      new RegExp(`${file}:3: tools\\.timeout_ms: expected a whole number of at least 1, got string "soon"`),
    );
    assert.match(
      result.stderr,
      new RegExp(`${file}:5: tools\\.echo\\.enabled: expected true or false, got string "maybe"`),
    );
  });

  test('YAML that does not parse: exit 2 with file:line', async () => {
    const result = await project.run(['--config', 'broken.yaml', 'tools', 'run', 'echo', 'text=hi']);
    assert.equal(result.code, 2, show(result));
    assert.match(result.stderr, /broken\.yaml:\d+: invalid YAML: /);
  });
});
