import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tempDir, toolFolder, toolSource, writeFiles } from '../tool-runtime/test-support.ts';
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { CONFIG_FILE, ConfigError, loadConfig, parseConfig } from './load-config.ts';

const PATH = '/conf/riverse.yaml';

/** The ConfigError that `fn` throws (failing when it does not throw one). */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `threw ${String(error)}`);
    assert.equal(error.code, 'invalid-config');
    return error;
  }
  assert.fail('no ConfigError was thrown');
}

async function rejectsWithConfigError(promise: Promise<unknown>): Promise<ConfigError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ConfigError, `threw ${String(error)}`);
    return error;
  }
  assert.fail('no ConfigError was thrown');
}

describe('parseConfig', () => {
  test('an empty file or only comments is an empty config', () => {
    assert.deepEqual(parseConfig('', PATH, {}), {});
    assert.deepEqual(parseConfig('# nothing yet\n', PATH, {}), {});
  });

  test('a typical file', () => {
    const text = `assistant:
  name: Riv
tools:
  enabled: true
  dirs: [agent/tools, more-tools]
  timeout_ms: 10000
  max_result_chars: 5000
  weather:
    enabled: false
    base_url: https://wttr.in
  clock:
`;
    assert.deepEqual(parseConfig(text, PATH, {}), {
      assistant: { name: 'Riv' },
      tools: {
        enabled: true,
        dirs: ['agent/tools', 'more-tools'],
        timeout_ms: 10000,
        max_result_chars: 5000,
        weather: { enabled: false, base_url: 'https://wttr.in' },
        clock: null,
      },
    });
  });

  test('${NAME}, ${NAME:-default} and $$ are interpolated from the env given', () => {
    const text = `tools:
  weather:
    api_key: \${WEATHER_KEY}
    base_url: \${WEATHER_URL:-https://wttr.in}
    region: \${REGION:-}
    price: $$5 and $\${NOT_A_REF}
    mixed: "key=\${WEATHER_KEY}, empty=\${EMPTY:-fallback}"
  dirs:
    - \${TOOLS_DIR}
`;
    const env = { WEATHER_KEY: 'secret', TOOLS_DIR: 'custom/tools', EMPTY: '' };
    assert.deepEqual(parseConfig(text, PATH, env), {
      tools: {
        weather: {
          api_key: 'secret',
          base_url: 'https://wttr.in',
          region: '',
          price: '$5 and ${NOT_A_REF}',
          mixed: 'key=secret, empty=fallback',
        },
        dirs: ['custom/tools'],
      },
    });
  });

  test('the process environment is not used when an env is given', () => {
    process.env.RIVERSE_TEST_ONLY_IN_PROCESS = 'from process';
    try {
      assert.match(
        configError(() => parseConfig('key: ${RIVERSE_TEST_ONLY_IN_PROCESS}\n', PATH, {})).message,
        /RIVERSE_TEST_ONLY_IN_PROCESS is not set/,
      );
      assert.deepEqual(parseConfig('key: ${RIVERSE_TEST_ONLY_IN_PROCESS}\n', PATH), { key: 'from process' });
    } finally {
      delete process.env.RIVERSE_TEST_ONLY_IN_PROCESS;
    }
  });

  test('an unset variable without a default is an error naming the file, line and key', () => {
    const text = `tools:
  weather:
    base_url: https://wttr.in
    api_key: \${WEATHER_KEY}
  dirs:
    - ok
    - \${MISSING_DIR}
`;
    const error = configError(() => parseConfig(text, PATH, {}));
    assert.deepEqual(error.problems, [
      `${PATH}:4: tools.weather.api_key: environment variable WEATHER_KEY is not set (write \${WEATHER_KEY:-default} to give a default)`,
      `${PATH}:7: tools.dirs.1: environment variable MISSING_DIR is not set (write \${MISSING_DIR:-default} to give a default)`,
    ]);
    assert.equal(error.message, error.problems.join('\n'));
  });

  test('invalid YAML is an error with the file and line', () => {
    const error = configError(() => parseConfig('tools:\n  enabled: true\n  dirs: [a, b\nother: 1\n', PATH, {}));
    assert.deepEqual(error.problems, [
      `${PATH}:4: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]`,
    ]);
    const tabs = configError(() => parseConfig('tools:\n  enabled: true\n\tweather: 1\n', PATH, {}));
    assert.match(tabs.problems[0] ?? '', /^\/conf\/riverse\.yaml:3: invalid YAML: /);
    const duplicate = configError(() => parseConfig('tools:\n  enabled: true\n  enabled: false\n', PATH, {}));
    assert.match(duplicate.problems[0] ?? '', /^\/conf\/riverse\.yaml:3: invalid YAML: .*[Mm]ap keys must be unique/);
  });

  test('tools.enabled: "yes" is an error with file:line and the key', () => {
    const error = configError(() => parseConfig('# settings\ntools:\n  enabled: "yes"\n', PATH, {}));
    assert.deepEqual(error.problems, [`${PATH}:3: tools.enabled: expected true or false, got string "yes"`]);
  });

  test('tools.timeout_ms and max_result_chars must be positive whole numbers', () => {
    const error = configError(() => parseConfig('tools:\n  timeout_ms: -1\n  max_result_chars: 2.5\n', PATH, {}));
    assert.deepEqual(error.problems, [
      `${PATH}:2: tools.timeout_ms: expected a whole number of at least 1, got number -1`,
      `${PATH}:3: tools.max_result_chars: expected a whole number of at least 1, got number 2.5`,
    ]);
    assert.match(
      configError(() => parseConfig('tools:\n  timeout_ms: "100"\n', PATH, {})).message,
      /tools\.timeout_ms: expected a whole number of at least 1, got string "100"/,
    );
    assert.match(configError(() => parseConfig('tools:\n  timeout_ms: 0\n', PATH, {})).message, /tools\.timeout_ms/);
  });

  test("a tool's section must be a mapping, and its enabled a boolean", () => {
    assert.deepEqual(configError(() => parseConfig('tools:\n  weather: 3\n', PATH, {})).problems, [
      `${PATH}:2: tools.weather: expected the tool's section (a mapping such as "enabled: false"), got number 3`,
    ]);
    assert.deepEqual(
      configError(() => parseConfig('tools:\n  weather:\n    enabled: no thanks\n', PATH, {})).problems,
      [`${PATH}:3: tools.weather.enabled: expected true or false, got string "no thanks"`],
    );
    assert.match(
      configError(() => parseConfig('tools:\n  weather: [a]\n', PATH, {})).message,
      /tools\.weather: .* got a list/,
    );
  });

  test('tools.dirs must be a list of non-empty paths', () => {
    assert.match(
      configError(() => parseConfig('tools:\n  dirs: agent/tools\n', PATH, {})).message,
      /:2: tools\.dirs: expected a list of folder paths, got string "agent\/tools"/,
    );
    assert.match(configError(() => parseConfig('tools:\n  dirs: ["a", ""]\n', PATH, {})).message, /tools\.dirs/);
    assert.match(configError(() => parseConfig('tools:\n  dirs: [1]\n', PATH, {})).message, /tools\.dirs/);
  });

  test('tools.builtins is a switch, not a tool section', () => {
    assert.deepEqual(parseConfig('tools:\n  builtins: false\n', PATH, {}).tools, { builtins: false });
    assert.match(
      configError(() => parseConfig('tools:\n  builtins: no\n', PATH, {})).message,
      /:2: tools\.builtins: .*got string "no"/,
    );
  });

  test('the top level and tools must be mappings', () => {
    assert.deepEqual(configError(() => parseConfig('just text\n', PATH, {})).problems, [
      `${PATH}:1: (top level): the file must hold a mapping of settings (key: value), got string "just text"`,
    ]);
    assert.match(configError(() => parseConfig('- a\n- b\n', PATH, {})).message, /\(top level\): .* got a list/);
    assert.match(
      configError(() => parseConfig('tools: [weather]\n', PATH, {})).message,
      /:1: tools: expected a mapping/,
    );
    assert.deepEqual(parseConfig('tools:\n', PATH, {}), { tools: null });
  });

  test('every problem is reported at once', () => {
    const error = configError(() =>
      parseConfig('tools:\n  enabled: 1\n  timeout_ms: -1\n  weather: 3\n  clock:\n    key: ${NOPE}\n', PATH, {}),
    );
    assert.equal(error.problems.length, 4, error.message);
    assert.deepEqual(
      error.problems.map((problem) => Number(/:(\d+): /.exec(problem)?.[1])).sort((a, b) => a - b),
      [2, 3, 4, 6],
    );
  });
});

describe('assistant settings', () => {
  test('model, model_options, language, data_dir and assistant are accepted when well formed', () => {
    const text =
      'model: openai:gpt-4.1-mini\nmodel_options:\n  base_url: http://127.0.0.1:8080/v1\n  tool_calling: text\n  max_retries: 0\nlanguage: zh\ndata_dir: data\nassistant:\n  max_rounds: 4\n  history_tokens: 2000\n';
    const config = parseConfig(text, PATH, {});
    assert.equal(config.model, 'openai:gpt-4.1-mini');
    assert.deepEqual(config.assistant, { max_rounds: 4, history_tokens: 2000 });
  });

  test('each malformed setting is reported with its key and line', () => {
    const text =
      'model: 3\nlanguage: fr\nmodel_options:\n  tool_calling: json\n  max_retries: -1\nassistant:\n  max_rounds: 0\n';
    const { problems } = configError(() => parseConfig(text, PATH, {}));
    assert.equal(problems.length, 5);
    assert.match(problems[0]!, /riverse\.yaml:1: model: expected text/);
    assert.match(problems[1]!, /:2: language: expected one of auto, en, zh, ja, got string "fr"/);
    assert.match(problems[2]!, /:4: model_options\.tool_calling: expected native or text/);
    assert.match(problems[3]!, /:5: model_options\.max_retries: expected a whole number of at least 0/);
    assert.match(problems[4]!, /:7: assistant\.max_rounds: expected a whole number of at least 1/);
  });

  test('assistant.max_parallel_calls is a whole number of at least 1', () => {
    assert.deepEqual(parseConfig('assistant:\n  max_parallel_calls: 4\n', PATH, {}).assistant, {
      max_parallel_calls: 4,
    });
    const { problems } = configError(() => parseConfig('assistant:\n  max_parallel_calls: 0\n', PATH, {}));
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /:2: assistant\.max_parallel_calls: expected a whole number of at least 1/);
  });

  test('model_options.strict_tools is true or false', () => {
    assert.deepEqual(parseConfig('model_options:\n  strict_tools: true\n', PATH, {}).model_options, {
      strict_tools: true,
    });
    assert.deepEqual(
      configError(() => parseConfig('model_options:\n  strict_tools: yes please\n', PATH, {})).problems,
      [`${PATH}:2: model_options.strict_tools: expected true or false, got string "yes please"`],
    );
  });

  test('the limits of a model request and of a turn: whole numbers, timers no longer than setTimeout can wait', () => {
    const good =
      'model_options:\n  timeout_ms: 5000\n  max_reply_chars: 1000\n  max_tool_call_chars: 1000\nassistant:\n  turn_timeout_ms: 60000\n';
    assert.deepEqual(parseConfig(good, PATH, {}).assistant, { turn_timeout_ms: 60000 });
    const text =
      'model_options:\n  timeout_ms: 9999999999\n  max_reply_chars: 0\n  max_tool_call_chars: lots\nassistant:\n  turn_timeout_ms: 1.5\n';
    const { problems } = configError(() => parseConfig(text, PATH, {}));
    assert.equal(problems.length, 4);
    assert.match(problems[0]!, /:2: model_options\.timeout_ms: at most 2147483647 ms/);
    assert.match(
      problems[1]!,
      /:3: model_options\.max_reply_chars: expected a whole number of at least 1, got number 0/,
    );
    assert.match(
      problems[2]!,
      /:4: model_options\.max_tool_call_chars: expected a whole number of at least 1, got string "lots"/,
    );
    assert.match(problems[3]!, /:6: assistant\.turn_timeout_ms: expected a whole number of at least 1/);
  });

  test('a value that is one whole ${VAR} takes its type; embedded references stay text', () => {
    const config = parseConfig('tools:\n  enabled: ${ON}\n  timeout_ms: ${T}\n  x:\n    label: "v${T}"\n', PATH, {
      ON: 'false',
      T: '5000',
    });
    assert.deepEqual(config.tools, { enabled: false, timeout_ms: 5000, x: { label: 'v5000' } });
  });

  test('isolation settings: isolation, memory_mb (too small would abort the process) and trusted', () => {
    const text = 'tools:\n  isolation: workers\n  memory_mb: 0\n  weather:\n    trusted: "yes"\n    memory_mb: 8\n';
    const { problems } = configError(() => parseConfig(text, PATH, {}));
    assert.equal(problems.length, 4);
    assert.match(problems[0]!, /:2: tools\.isolation: expected one of process, worker, none, got string "workers"/);
    assert.match(problems[1]!, /:3: tools\.memory_mb: expected a whole number of megabytes, at least 16/);
    assert.match(problems[2]!, /:5: tools\.weather\.trusted: expected true or false/);
    assert.match(problems[3]!, /:6: tools\.weather\.memory_mb: expected a whole number of megabytes/);
    assert.deepEqual(
      parseConfig('tools:\n  isolation: none\n  memory_mb: 128\n  weather:\n    trusted: true\n', PATH, {}).tools,
      { isolation: 'none', memory_mb: 128, weather: { trusted: true } },
    );
  });

  test('tools.<name>.approval: always, never or a rule on a parameter, with the place of a wrong one', () => {
    const good =
      'tools:\n  shell:\n    approval:\n      when: { param: command, matches: "^rm" }\n  clock:\n    approval: never\n';
    assert.deepEqual(parseConfig(good, PATH, {}).tools, {
      shell: { approval: { when: { param: 'command', matches: '^rm' } } },
      clock: { approval: 'never' },
    });
    const { problems } = configError(() =>
      parseConfig(
        'tools:\n  shell:\n    approval: ask\n  web:\n    approval: { when: { param: url, matches: "(" } }\n',
        PATH,
        {},
      ),
    );
    assert.equal(problems.length, 2);
    assert.match(
      problems[0]!,
      /:3: tools\.shell\.approval: tools\.shell\.approval is wrong: approval is "always", "never" or \{ when: \{ param, matches \} \}.*got "ask"/,
    );
    assert.match(
      problems[1]!,
      /:5: tools\.web\.approval: tools\.web\.approval\.when\.matches is not a valid regular expression/,
    );
  });

  test('tools.timeout_ms beyond what a timer can wait is rejected', () => {
    const { problems } = configError(() => parseConfig('tools:\n  timeout_ms: 9999999999\n', PATH, {}));
    assert.match(problems[0]!, /tools\.timeout_ms: at most 2147483647 ms/);
  });
});

describe('loadConfig', () => {
  test('no file: an empty config, with the working directory as baseDir', async (t) => {
    const cwd = await tempDir(t);
    const loaded = await loadConfig({ cwd, env: {} });
    assert.deepEqual(loaded, { config: {}, baseDir: cwd });
    assert.equal(loaded.path, undefined);
  });

  test('reads riverse.yaml from the working directory', async (t) => {
    const cwd = await tempDir(t);
    await writeFiles(cwd, { [CONFIG_FILE]: 'tools:\n  weather:\n    key: ${KEY}\n' });
    const loaded = await loadConfig({ cwd, env: { KEY: 'k1' } });
    assert.deepEqual(loaded, {
      config: { tools: { weather: { key: 'k1' } } },
      path: join(cwd, CONFIG_FILE),
      baseDir: cwd,
    });
  });

  test('an explicit path: relative to cwd; baseDir is its folder; a missing one is an error', async (t) => {
    const cwd = await tempDir(t);
    await writeFiles(cwd, {
      'conf/mine.yaml': 'assistant: { name: Riv }\n',
      [CONFIG_FILE]: 'assistant: { name: Default }\n',
    });
    const loaded = await loadConfig({ cwd, path: 'conf/mine.yaml', env: {} });
    assert.deepEqual(loaded, {
      config: { assistant: { name: 'Riv' } },
      path: join(cwd, 'conf/mine.yaml'),
      baseDir: join(cwd, 'conf'),
    });

    const error = await rejectsWithConfigError(loadConfig({ cwd, path: 'conf/missing.yaml', env: {} }));
    assert.equal(error.code, 'invalid-config');
    assert.match(error.message, /conf\/missing\.yaml: no such config file \(named by --config\)/);
  });

  test('$RIVERSE_CONFIG names the file when no path is given', async (t) => {
    const cwd = await tempDir(t);
    await writeFiles(cwd, {
      'env/from-env.yaml': 'source: env\n',
      [CONFIG_FILE]: 'source: default\n',
      'explicit.yaml': 'source: explicit\n',
    });
    const env = { RIVERSE_CONFIG: 'env/from-env.yaml' };
    const fromEnv = await loadConfig({ cwd, env });
    assert.deepEqual(fromEnv.config, { source: 'env' });
    assert.equal(fromEnv.path, join(cwd, 'env/from-env.yaml'));
    assert.equal(fromEnv.baseDir, join(cwd, 'env'));

    assert.deepEqual((await loadConfig({ cwd, env, path: 'explicit.yaml' })).config, { source: 'explicit' });
    assert.deepEqual((await loadConfig({ cwd, env: { RIVERSE_CONFIG: '' } })).config, { source: 'default' });

    const error = await rejectsWithConfigError(loadConfig({ cwd, env: { RIVERSE_CONFIG: 'nope.yaml' } }));
    assert.match(error.message, /nope\.yaml: no such config file \(named by \$RIVERSE_CONFIG\)/);
  });

  test('a file with problems is an error naming the file', async (t) => {
    const cwd = await tempDir(t);
    await writeFiles(cwd, { [CONFIG_FILE]: 'tools:\n  enabled: "yes"\n' });
    const error = await rejectsWithConfigError(loadConfig({ cwd, env: {} }));
    assert.deepEqual(error.problems, [
      `${join(cwd, CONFIG_FILE)}:2: tools.enabled: expected true or false, got string "yes"`,
    ]);
  });

  test('a path that cannot be read is an error', async (t) => {
    const cwd = await tempDir(t);
    await mkdir(join(cwd, 'a-folder.yaml'));
    const error = await rejectsWithConfigError(loadConfig({ cwd, path: 'a-folder.yaml', env: {} }));
    assert.match(error.message, /a-folder\.yaml: cannot be read/);
  });
});

describe('config and the registry', () => {
  test("tools.dirs is resolved from the config file's folder", async (t) => {
    const project = await toolFolder(t, {
      'settings/riverse.yaml': 'tools:\n  dirs: [my-tools, ../shared-tools]\n  local:\n    greeting: hi\n',
      'settings/my-tools/local.ts': toolSource('local', { execute: 'return ToolResult.ok(context.config.greeting);' }),
      'shared-tools/shared.ts': toolSource('shared'),
      'agent/tools/default.ts': toolSource('default_folder'),
    });
    const elsewhere = await tempDir(t);
    const { config, baseDir } = await loadConfig({
      cwd: elsewhere,
      path: join(project, 'settings/riverse.yaml'),
      env: {},
    });
    assert.equal(baseDir, join(project, 'settings'));
    const registry = await ToolRegistry.load({ config, baseDir });
    assert.deepEqual(registry.folders, [join(project, 'settings/my-tools'), join(project, 'shared-tools')]);
    assert.deepEqual(registry.diagnostics, []);
    assert.deepEqual(
      registry.tools().map((tool) => tool.name),
      ['local', 'shared'],
    );
    assert.equal((await registry.execute('local', {})).data, 'hi');
  });

  test('without tools.dirs, agent/tools under baseDir is used', async (t) => {
    const project = await toolFolder(t, {
      'riverse.yaml': 'tools:\n  timeout_ms: 1000\n',
      'agent/tools/default.ts': toolSource('default_folder'),
    });
    const { config, baseDir } = await loadConfig({ cwd: project, env: {} });
    const registry = await ToolRegistry.load({ config, baseDir });
    assert.deepEqual(registry.folders, [join(project, 'agent/tools')]);
    assert.deepEqual(
      registry.tools().map((tool) => tool.name),
      ['default_folder'],
    );
  });
});
