// Riverse as an npm package, tried the way a user adds it to their app: `npm pack` of this checkout
// (prepack builds dist/), installed into two fresh apps made with `npm init -y` — one left
// CommonJS, one "type": "module" — each with a TypeScript tool of its own in agent/tools/. Then the
// CLI through npx (tools run, tools new and every command it prints, ask), the API (import and
// require), one assistant turn against a local OpenAI-protocol server, the published types checked
// by tsc, and the message on a Node too old. Offline where it can be: the dependencies come from
// the npm cache that `npm ci` filled (a first run may fetch their metadata).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { GREET_TOOL, runCommand, show, type ProcessResult } from './cli/cli-test-support.ts';
import { startOpenAITestServer, type OpenAITestServer } from './models/testing/openai-wire.ts';
import { typesEntry, unnamedPublicTypes } from './testing/unnamed-public-types.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const packageJson = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
};

/**
 * The folder whose `node` the apps run on: this checkout's Node 24, or RIVERSE_TEST_NODE_DIR, to try
 * another version that engines names (e.g. the oldest, 22.19) by hand.
 */
const NODE_DIR = process.env.RIVERSE_TEST_NODE_DIR || join(ROOT, 'node_modules', '.bin');

/** A supported Node first on PATH; runCommand gives the rest of a user's shell (no test runner's, npm's or Riverse's variables). */
const USER_PATH = [NODE_DIR, process.env.PATH ?? ''].join(delimiter);

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<ProcessResult> {
  return runCommand(command, args, { cwd, env: { PATH: USER_PATH, npm_config_update_notifier: 'false', ...env } });
}

/** Embedding, in the app's own module format: the registry, a tool call, and one assistant turn. */
function embedScript(format: 'require' | 'import'): string {
  const load =
    format === 'require'
      ? "const { Assistant, ToolRegistry, createOpenAICompatibleModel, loadConfig } = require('riverse');\n(async () => {"
      : "import { Assistant, ToolRegistry, createOpenAICompatibleModel, loadConfig } from 'riverse';\n{";
  return `${load}
  const { config, baseDir } = await loadConfig();
  const registry = await ToolRegistry.load({ config, baseDir });
  const direct = await registry.execute('greet', { name: 'Grace' });
  const model = createOpenAICompatibleModel({ model: 'test-model', baseUrl: process.env.MODEL_URL, maxRetries: 0 });
  const assistant = new Assistant({ model, registry, language: 'en' });
  const turn = await assistant.turn('Say hello to Ada');
  let deep;
  try {
    ${format === 'require' ? "require('riverse/dist/tools/tool-registry.js')" : "await import('riverse/dist/tools/tool-registry.js')"};
  } catch (error) {
    deep = error.code;
  }
  console.log(JSON.stringify({ tools: registry.list(), direct, text: turn.text, stopReason: turn.stopReason, calls: turn.toolCalls.map((call) => call.result), deep, node: process.version }));
}${format === 'require' ? ')();' : ''}
`;
}

/** A consumer of the published types: every value is exported with an inferred type, so tsc must name each in its declaration output. */
const CONSUMER = `import {
  Assistant, LiveToolRegistry, SqliteStore, ToolRegistry, chooseModel, createAnthropicModel, createGeminiModel, createLocalModel,
  createOpenAICompatibleModel, loadConfig, resolveModel, runTool, type RetryNotice, type SessionSummary, type ToolCallTrace, type TurnEvent,
} from 'riverse';
import { GreetTool } from './agent/tools/greet.ts';

export const loaded = await loadConfig();
export const registry = await ToolRegistry.load({ config: loaded.config, baseDir: loaded.baseDir });
export const tools = registry.tools();
export const listing = registry.list();
export const found = registry.find('greet');
export const diagnostics = registry.diagnostics;
export const result = await registry.execute('greet', { name: 'Ada' }, { language: 'en', timeoutMs: 1000 });
export const direct = await runTool(GreetTool, { name: 'Ada' });
export const retries: RetryNotice[] = [];
export const openai = createOpenAICompatibleModel({ model: 'm', baseUrl: 'http://127.0.0.1:1/v1', onRetry: (notice) => retries.push(notice) });
export const anthropic = createAnthropicModel({ model: 'claude-sonnet-4-5' });
export const gemini = createGeminiModel({ model: 'gemini-2.5-flash' });
export const local = createLocalModel({ modelPath: 'model.gguf', threads: 2 });
export const named = resolveModel({ model: 'openai:gpt-4.1-mini' }, { OPENAI_API_KEY: 'k' });
export const chosen = await chooseModel({}, {}, { confirmDownload: async (offer) => offer.sizeGb < 2 });
export const store = SqliteStore.open('.riverse');
export const sessions: SessionSummary[] = await store.listSessions();
export const traces: ToolCallTrace[] = await store.toolCalls((await store.session('default')).id, { limit: 5 });
export const assistant = new Assistant({ model: openai, registry, store, language: 'auto', maxRounds: 3 });
export const turn = await assistant.turn('hello', { session: 'x', onEvent: (event: TurnEvent) => event.type });
export const stream = assistant.stream('hello');
export const history = await assistant.history('x');
export const live = await LiveToolRegistry.open({ config: loaded.config, watch: false });
export const changes = live.initial;
export const unsubscribe = live.onChange((changed, current) => [changed, current]);
for await (const event of stream) if (event.type === 'done') console.log(event.result.toolCalls, event.result.usage);
// What the package does not offer must not type-check either.
// @ts-expect-error running a registered tool bypasses the checks and limits of execute()
tools[0]?.run({}, {});
// @ts-expect-error composing registries from loaded files is internal
ToolRegistry.compose;
`;

// One promise about Node: engines states it, the command reads it from there, and the README says the same.
test('the README names the Node version that engines asks for', async () => {
  const needed = /\d+\.\d+/.exec(packageJson.engines.node)![0];
  assert.match(
    await readFile(join(ROOT, 'README.md'), 'utf8'),
    new RegExp(`Node\\.js ${needed.replace('.', '\\.')} or newer`),
  );
});

// Riverse is not on the npm registry yet: the README's first commands must work without it.
test('until it is published, the README installs the packed tarball, and its MCP snippet runs the installed copy on a named Node', async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const app = readme.slice(readme.indexOf('\n## Add Riverse to your app\n'), readme.indexOf('\n## Quick start'));
  const commands = /```sh\n([\s\S]*?)```/.exec(app)![1]!;
  // The checkout's own set-up, not `npm ci`: that would wipe the set-up's record, and the next `npm start` install again.
  assert.match(commands, /^\(cd \/path\/to\/riverse && node scripts\/setup\.mjs && npm pack\)/m);
  assert.match(
    commands,
    new RegExp(`^npm install /path/to/riverse/riverse-${packageJson.version.replaceAll('.', '\\.')}\\.tgz `, 'm'),
  );
  assert.doesNotMatch(commands, /^npm install riverse\b/m);
  const snippet = JSON.parse(
    /```json\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('\n## MCP, both ways\n')))![1]!,
  ) as {
    mcpServers: { riverse: { command: string; args: string[] } };
  };
  assert.match(snippet.mcpServers.riverse.command, /^\/.*\/node$/);
  assert.match(snippet.mcpServers.riverse.args[0]!, /^\/.*\/node_modules\/riverse\/bin\/riverse\.js$/);
});

/** The built-in tools the package ships: the one list, in tsconfig.builtins.json (a JSON file with line comments). */
async function shippedBuiltins(): Promise<string[]> {
  const text = await readFile(join(ROOT, 'tsconfig.builtins.json'), 'utf8');
  const { files } = JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as { files: string[] };
  return files.map((file) => /^agent\/tools\/([a-z_]+)\.ts$/.exec(file)![1]!);
}

// The package ships a list of tools, not whatever agent/tools holds: the README's table is that list.
test("the README's Built-in tools table names exactly the tools the package ships, and not the seed's example", async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Built-in tools\n'), readme.indexOf('"Asks first"'));
  const table = [...section.matchAll(/^\| `([a-z_]+)` +\|/gm)].map((match) => match[1]!);
  const shipped = await shippedBuiltins();
  assert.deepEqual([...table].sort(), [...shipped].sort());
  assert.ok(!shipped.includes('weather'), 'weather is the example tool of a checkout, not a built-in');
  for (const name of shipped)
    assert.ok(existsSync(join(ROOT, 'agent', 'tools', `${name}.ts`)), `${name}.ts is missing`);
});

// What a newcomer copies from the README and the guides must work in a fresh app (`npm init -y`).
test('the MCP snippets run the Node that Riverse advises and name a riverse.yaml the reader is told to create', async () => {
  for (const guide of ['README.md', 'docs/custom-tools.md', 'docs/custom-tools.zh.md', 'docs/custom-tools.ja.md']) {
    const text = await readFile(join(ROOT, guide), 'utf8');
    const snippet = /```json\n(\{\n {2}"mcpServers": \{\n {4}"riverse": \{\n {6}"command": [\s\S]*?)```/.exec(text);
    assert.ok(snippet, `${guide}: no Claude Desktop snippet`);
    const { command, args } = (
      JSON.parse(snippet[1]!) as { mcpServers: { riverse: { command: string; args: string[] } } }
    ).mcpServers.riverse;
    // After `npm install --save-dev node@24` (what Riverse advises on an older Node), that is the Node that works.
    assert.match(command, /\/node_modules\/node\/bin\/node$/, guide);
    assert.match(text, /node_modules\/node\/bin\/node`/, `${guide} does not say where that Node is`);
    const config = args.indexOf('--config');
    if (config >= 0) {
      // riverse.yaml is optional and `npm init -y` makes none: a --config naming a missing file stops the command.
      assert.match(args[config + 1]!, /riverse\.yaml$/);
      assert.match(text, /`touch [^`]*riverse\.yaml`/, `${guide} names a riverse.yaml without saying to create it`);
    }
  }
});

test("the README's tool-test command says what a CommonJS app names the test, and .gitignore covers the packed tarball", async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  assert.match(readme, /^npx node --test agent\/tools\/greet\.test\.ts .*greet\.test\.mts in a CommonJS app/m);
  const ignored = (await readFile(join(ROOT, '.gitignore'), 'utf8')).split('\n');
  assert.ok(ignored.includes(`/riverse-*.tgz`), 'riverse-<version>.tgz, which `npm pack` leaves, is not ignored');
});

describe('riverse as an installed package', { timeout: 180_000 }, () => {
  let work: string;
  let tarball: string;
  let server: OpenAITestServer;
  const apps = { commonjs: '', module: '' };

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'riverse-package-'));
    // Greets when asked; answers in words once the tool's result is back. Keyed on the request, so
    // both apps can talk to it at once.
    server = await startOpenAITestServer((request) =>
      request.body.messages.some((message) => message.role === 'tool')
        ? { text: 'I greeted Ada.' }
        : { toolCalls: [{ name: 'greet', arguments: { name: 'Ada' } }] },
    );
    // The pack runs in this checkout as a developer runs it, so its own npm settings apply here.
    const packed = await run('npm', ['pack', '--pack-destination', work, '--loglevel=error'], ROOT, {
      NODE_OPTIONS: process.env.NODE_OPTIONS,
    });
    assert.equal(packed.code, 0, show(packed));
    tarball = join(work, `riverse-${packageJson.version}.tgz`);
    await Promise.all(
      (['commonjs', 'module'] as const).map(async (kind) => {
        const app = join(work, `app-${kind}`);
        apps[kind] = app;
        await mkdir(join(app, 'agent', 'tools'), { recursive: true });
        const init = await run('npm', ['init', '-y'], app);
        assert.equal(init.code, 0, show(init));
        if (kind === 'module') {
          const manifest = JSON.parse(await readFile(join(app, 'package.json'), 'utf8')) as Record<string, unknown>;
          await writeFile(join(app, 'package.json'), JSON.stringify({ ...manifest, type: 'module' }, null, 2));
        }
        // The app's own tool; in the CommonJS app a .mts file, as TypeScript asks for an ES module there.
        await writeFile(join(app, 'agent', 'tools', kind === 'module' ? 'greet.ts' : 'greet.mts'), GREET_TOOL);
        await writeFile(join(app, 'embed.js'), embedScript(kind === 'module' ? 'import' : 'require'));
        const installed = await run(
          'npm',
          ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball],
          app,
        );
        assert.equal(installed.code, 0, show(installed));
      }),
    );
  });

  after(async () => {
    await server?.close();
    if (work !== undefined) await rm(work, { recursive: true, force: true });
  });

  test('the tarball holds compiled JavaScript and its types: no TypeScript sources, no tests', async () => {
    const listed = await run('tar', ['-tzf', tarball], work);
    assert.equal(listed.code, 0, show(listed));
    const files = listed.stdout
      .trim()
      .split('\n')
      .map((line) => line.replace(/^package\//, ''));
    for (const file of [
      'bin/riverse.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/register.js',
      'dist/tool-api.js',
      'dist/tool-api.d.ts',
      'dist/cli/main.js',
      'dist/tool-runtime/isolation/tool-worker.js',
      'dist/server/dashboard/static/index.html',
      'dist/server/dashboard/static/app.js',
      // The built-in tools, compiled, with their helpers (and no tests: checked below).
      'dist/agent/tools/web_fetch.js',
      'dist/agent/tools/file_read.js',
      'dist/agent/tools/_roots.js',
      'README.md',
    ]) {
      assert.ok(files.includes(file), `${file} is missing from the tarball`);
    }
    // Exactly the listed built-ins (their `_` helpers beside them): not the seed's example, not a newcomer's own tries.
    assert.deepEqual(
      files
        .map((file) => /^dist\/agent\/tools\/([^_/][^/]*)\.js$/.exec(file)?.[1])
        .filter((name) => name !== undefined)
        .sort(),
      (await shippedBuiltins()).sort(),
    );
    assert.deepEqual(
      files.filter((file) => /(?<!\.d)\.[mc]?ts$/.test(file)),
      [],
      'TypeScript sources in the package',
    );
    assert.deepEqual(
      files.filter((file) => /\.test\.|[/]testing[/]|test-support/.test(file)),
      [],
      'test code in the package',
    );
    const { size } = await stat(tarball);
    // About 390 kB with the dashboard, 450 kB with the router (its lexicon, the semantic stage, three guides' sections) and the service;
    // MCP both ways (src/mcp and the guides' sections) about 20 kB more; approvals (the desk, the prompt, the
    // dashboard's cards, the guides' sections) about 15 kB more; riverse.yaml's problems in three languages, oxc as
    // the type stripper and the loader pool about 5 kB more (553 kB); the house (a file per provider's descriptor
    // and per step of the turn, the dashboard's JSDoc types) about 25 kB more (578 kB); the built-in tools, compiled
    // without their comments (dist/agent/tools), about 24 kB more (607 kB); the tool contract's content parts
    // (638 kB); /v1 at full fidelity (structured output, tool choice, sampling, the request time rule, their
    // phrases in three languages, the README's lines) about 16 kB more (654 kB); the Responses API (its reader,
    // items, events, routes and the response store) about 12 kB more (666 kB); rich results (parts, progress and
    // logs through every host and MCP both ways, the guides' sections in three languages) about 11 kB more; images to the models
    // (each provider's shape, the vision tables, /v1's image input), MCP at 2026-07-28, the MCP client's
    // OAuth sign-in and elicitation, the manifest cache's key, routing's learned fields: 751 kB in all. Form-shaped
    // questions and Mcp-Param headers (036: ask-form, the terminal's and the dashboard's forms, the guides' sections
    // in three languages) took it just past 800 kB (800.6 kB); tasks, OpenTelemetry out, the traces' pictures and the
    // service's words to about 876 kB; the JavaScript compiled without its comments (007's addendum) to 766 kB.
    // The async store (037) and the PostgreSQL store (038: pool, schema, a part per concept, events; about 21 kB) to 800.5 kB;
    // replicas (039: turn ownership, approvals across replicas, shared secrets), a tool's sample and roots (040),
    // asks_first, notifications/tasks, remote tasks across a restart and earlier calls' parts to 841 kB.
    assert.ok(size < 860_000, `the tarball is ${size} bytes`);
  });

  for (const kind of ['commonjs', 'module'] as const) {
    describe(`in a ${kind === 'module' ? '"type": "module"' : 'CommonJS (npm init -y)'} app`, () => {
      test("npx riverse tools run runs the app's own TypeScript tool", async () => {
        const result = await run('npx', ['riverse', 'tools', 'run', 'greet', 'name=Ada'], apps[kind]);
        assert.equal(result.code, 0, show(result));
        assert.equal(result.stdout, 'Hi, Ada [en]\n');
      });

      test('tools new writes a tool and its test, and every command it prints runs as printed', async () => {
        const created = await run('npx', ['riverse', 'tools', 'new', 'my_tool'], apps[kind]);
        assert.equal(created.code, 0, show(created));
        // A CommonJS package makes .ts files CommonJS: there the template is ES module TypeScript as .mts.
        const extension = kind === 'module' ? 'ts' : 'mts';
        assert.match(
          created.stdout,
          new RegExp(
            `^Created agent/tools/my_tool\\.${extension} and agent/tools/my_tool\\.test\\.${extension}\\.$`,
            'm',
          ),
        );
        const commands = [...created.stdout.matchAll(/^ {2}(\S.*?) +# .*$/gm)].map((match) => match[1]!);
        assert.equal(commands.length, 3, show(created));
        for (const command of commands) {
          const [program, ...args] = command.split(' ');
          const result = await run(program!, args, apps[kind]);
          assert.equal(result.code, 0, `${command}\n${show(result)}`);
        }
      });

      test(`the API, by ${kind === 'module' ? 'import' : 'require'}: the registry runs the tool, and one turn calls it through a model`, async (t) => {
        const result = await run('node', ['embed.js'], apps[kind], { MODEL_URL: server.url });
        assert.equal(result.code, 0, show(result));
        assert.equal(result.stderr, '');
        const output = JSON.parse(result.stdout) as Record<string, unknown>;
        t.diagnostic(`on Node ${String(output.node)}`);
        const greet = (output.tools as { name: string }[]).find((tool) => tool.name === 'greet');
        assert.deepEqual(greet, {
          name: 'greet',
          file: join(apps[kind], 'agent', 'tools', kind === 'module' ? 'greet.ts' : 'greet.mts'),
          available: true,
        });
        assert.deepEqual(output.direct, { success: true, data: 'Hi, Grace [en]' });
        assert.equal(output.text, 'I greeted Ada.');
        assert.equal(output.stopReason, 'answer');
        assert.deepEqual(output.calls, [{ success: true, data: 'Hi, Ada [en]' }]);
        assert.equal(output.deep, 'ERR_PACKAGE_PATH_NOT_EXPORTED', 'a deep import into the package must be refused');
      });
    });
  }

  test("the built-in tools come with the package, beside the app's own, on with their safe defaults, switchable as a group and one by one", async (t) => {
    const app = apps.commonjs;
    const config = join(app, 'riverse.yaml');
    t.after(() => rm(config, { force: true }));
    const listed = async () => {
      const result = await run('npx', ['riverse', 'tools', 'list', '--json'], app);
      assert.equal(result.code, 0, show(result));
      const { tools, diagnostics } = JSON.parse(result.stdout) as {
        tools: { name: string; file: string; available: boolean }[];
        diagnostics: { severity: string }[];
      };
      assert.deepEqual(
        diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
        [],
      );
      return new Map(tools.map((tool) => [tool.name, tool]));
    };
    const found = await listed();
    for (const name of ['current_time', 'web_search', 'web_fetch', 'file_read', 'file_list', 'grep', 'ask_user'])
      assert.equal(found.get(name)?.available, true, `${name} is not available: ${JSON.stringify(found.get(name))}`);
    // What writes or runs programs is there but off until turned on.
    for (const name of ['file_write', 'shell_exec']) assert.equal(found.get(name)?.available, false, name);
    assert.equal(found.get('greet')?.available, true);
    assert.ok(
      found.get('file_read')!.file.startsWith(join(app, 'node_modules', 'riverse')),
      found.get('file_read')!.file,
    );
    // A built-in runs from the package, in a tool process of its own, like the app's tools.
    const time = await run('npx', ['riverse', 'tools', 'run', 'current_time', 'time_zone=UTC'], app);
    assert.equal(time.code, 0, show(time));
    assert.match(time.stdout, /\d{4}-\d{2}-\d{2}/);

    await writeFile(config, 'tools:\n  web_fetch:\n    enabled: false\n  file_write:\n    enabled: true\n');
    const switched = await listed();
    assert.equal(switched.get('web_fetch')?.available, false);
    assert.equal(switched.get('file_write')?.available, true);
    assert.equal(switched.get('file_read')?.available, true);

    await writeFile(config, 'tools:\n  builtins: false\n');
    const left = [...(await listed()).values()];
    assert.deepEqual(
      left.filter((tool) => tool.file.includes('node_modules')),
      [],
    );
    assert.ok(left.some((tool) => tool.name === 'greet'));
    const checked = await run('npx', ['riverse', 'tools', 'check'], app);
    assert.equal(checked.code, 0, show(checked));
  });

  test("npx riverse ask answers through a model, calling the app's tool", async () => {
    const result = await run('npx', ['riverse', 'ask', 'Say hello to Ada'], apps.module, {
      RIVERSE_MODEL: 'openai:test-model',
      OPENAI_BASE_URL: server.url,
    });
    assert.equal(result.code, 0, show(result));
    assert.equal(result.stdout, 'I greeted Ada.\n');
  });

  test('riverse/register lets a test import a tool file that needs the transform (an enum), as the guide says', async () => {
    const app = apps.module;
    await writeFile(
      join(app, 'level.ts'),
      `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';

enum Level { Low = 'low', High = 'high' }

export class LevelTool extends BaseTool<{ high?: boolean }> {
  manifest(): ToolManifest {
    return { name: 'level', description: 'Says the level', parameters: { high: { type: 'boolean', description: 'High or not' } }, examples: ['What level?', 'Is it high?'] };
  }
  execute(params: { high?: boolean }): ToolResult {
    return ToolResult.ok(params.high === true ? Level.High : Level.Low);
  }
}
`,
    );
    await writeFile(
      join(app, 'level.test.ts'),
      `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runTool } from 'riverse';
import { LevelTool } from './level.ts';

test('level', async () => assert.deepEqual(await runTool(LevelTool, { high: true }), { success: true, data: 'high' }));
`,
    );
    const result = await run('npx', ['node', '--import', 'riverse/register', '--test', 'level.test.ts'], app);
    assert.equal(result.code, 0, show(result));
    assert.match(result.stdout, /\bpass 1\b/);
  });

  test("the published types: a consumer and the README's examples type-check, every value has a nameable type, internals are not in them", async () => {
    const app = apps.module;
    await writeFile(join(app, 'consumer.ts'), CONSUMER);
    // The README's code, compiled so that it cannot rot: the tool of "Write a tool", and the blocks
    // of "Embedding" one after the other, as one program.
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const section = (title: string) =>
      readme.slice(readme.indexOf(`\n## ${title}\n`), readme.indexOf('\n## ', readme.indexOf(`\n## ${title}\n`) + 1));
    const blocks = (title: string) => [...section(title).matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
    assert.equal(blocks('Write a tool').length, 1);
    assert.equal(blocks('Embedding').length, 3);
    // CommonJS TypeScript gets the same types through require (Node 22.12+ can require the package).
    await writeFile(
      join(app, 'consumer.cts'),
      "import { ToolRegistry, type TurnResult } from 'riverse';\nexport const load = (): Promise<ToolRegistry> => ToolRegistry.load();\nexport type Result = TurnResult;\n",
    );
    await writeFile(join(app, 'readme-tool.ts'), blocks('Write a tool')[0]!);
    await writeFile(join(app, 'readme-embedding.ts'), `${blocks('Embedding').join('\n')}\nexport {};\n`);
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2024',
          module: 'nodenext',
          strict: true,
          // A declaration for every export: tsc reports any type it cannot name from 'riverse'.
          declaration: true,
          emitDeclarationOnly: true,
          outDir: 'types-out',
          allowImportingTsExtensions: true,
          skipLibCheck: false,
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['consumer.ts', 'consumer.cts', 'readme-tool.ts', 'readme-embedding.ts'],
      }),
    );
    const checked = await run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', '.'], app);
    assert.equal(checked.code, 0, show(checked));
    assert.deepEqual(unnamedPublicTypes(typesEntry(join(app, 'node_modules', 'riverse'))), []);
  });

  test('on a Node older than engines names, the command says which Node it needs and how to get it', async (t) => {
    const older = await olderNode();
    if (older === undefined) return t.skip('no Node older than the engines range on PATH');
    const result = await run(
      older,
      [join(apps.commonjs, 'node_modules', 'riverse', 'bin', 'riverse.js'), '--version'],
      apps.commonjs,
    );
    assert.equal(result.code, 1, show(result));
    const needed = /\d+\.\d+/.exec(packageJson.engines.node)![0];
    assert.match(
      result.stderr,
      new RegExp(`^riverse needs Node\\.js ${needed.replace('.', '\\.')} or newer; this is Node\\.js \\d+`),
    );
    assert.match(result.stderr, /npm install --save-dev node@24/);
    // The library says the same when an app imports or requires it (not a SyntaxError about node:module).
    for (const kind of ['module', 'commonjs'] as const) {
      const embedded = await run(older, ['embed.js'], apps[kind]);
      assert.equal(embedded.code, 1, show(embedded));
      assert.match(
        embedded.stderr,
        new RegExp(`riverse needs Node\\.js ${needed.replace('.', '\\.')} or newer; this is Node\\.js \\d+`),
      );
      assert.match(embedded.stderr, /npm install --save-dev node@24 .*npx node app\.js/);
      assert.doesNotMatch(embedded.stderr, /SyntaxError/);
    }
    const hooks = await run(older, ['--import', 'riverse/register', '-e', '0'], apps.module);
    assert.equal(hooks.code, 1, show(hooks));
    assert.match(hooks.stderr, /riverse needs Node\.js/);
  });
});

/** The first `node` on PATH outside node_modules, when it is older than what engines asks for (the machine's own Node 20 here). */
async function olderNode(): Promise<string | undefined> {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    const node = join(folder, 'node');
    if (folder.includes('node_modules') || !existsSync(node)) continue;
    const version = await run(node, ['-p', 'process.versions.node'], tmpdir());
    const [major = 0, minor = 0] = version.stdout.trim().split('.').map(Number);
    const [neededMajor = 0, neededMinor = 0] = /(\d+)\.(\d+)/.exec(packageJson.engines.node)!.slice(1).map(Number);
    return major < neededMajor || (major === neededMajor && minor < neededMinor) ? node : undefined;
  }
  return undefined;
}
