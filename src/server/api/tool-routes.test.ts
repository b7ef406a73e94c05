// /api/tools over real HTTP: real tool files in a temp project, riverse.yaml rewritten on disk,
// the live registry reloaded, and the model (the local OpenAI-protocol server) shown what is on.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { modelServer, testModel } from '../../assistant/turn-test-support.ts';
import { createProbe, probeRef, toolSource } from '../../tool-runtime/test-support.ts';
import { chat, raw, startTestService } from '../server-test-support.ts';

const WEATHER = toolSource('weather', {
  manifest: `description: { en: 'Get the weather for a city', zh: '查询城市天气', ja: '都市の天気を調べる' },
    parameters: {
      city: { type: 'string', required: true, description: { en: 'City name', zh: '城市名' } },
      unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
      days: { type: 'integer' },
    },`,
  examples: "{ en: ['weather in Tokyo?'], zh: ['东京天气？'] }",
  execute: 'return ToolResult.ok(`${params.city}: sunny, ${params.unit}, ${params.days ?? 1} day(s)`);',
});
const FAILING = toolSource('failing', { execute: "return ToolResult.fail('the service is down');" });
const BROKEN =
  "import { BaseTool } from 'riverse';\nexport class BrokenTool extends BaseTool {\n  manifest() { return { name: 'broken', description: 'x'  }\n";
const FILES = { 'weather.ts': WEATHER, 'failing.ts': FAILING, 'broken.ts': BROKEN };
const YAML =
  '# My Riverse settings\ntools:\n  isolation: none # quick loads\n\n  # the weather tool needs no key\n  weather:\n    units: metric # kept\n';

describe('GET /api/tools', () => {
  it('lists every tool with its file, folder, availability, schema, examples and diagnostics, and the files that failed', async (t) => {
    const { port } = await startTestService(t, { files: FILES, yaml: YAML });
    const { json, status } = await raw(port, '/api/tools');
    assert.equal(status, 200);
    assert.deepEqual(
      json.tools.map((tool: { name: string }) => tool.name),
      ['failing', 'weather'],
    );
    const weather = json.tools[1];
    assert.deepEqual(
      { ...weather, parameters: undefined },
      {
        name: 'weather',
        description: 'Get the weather for a city',
        file: join('agent', 'tools', 'weather.ts'),
        source: join('agent', 'tools'),
        available: true,
        enabled: true,
        isolation: 'none',
        approval: 'never',
        parameters: undefined,
        examples: ['weather in Tokyo?'],
        diagnostics: weather.diagnostics,
      },
    );
    // Its own diagnostics: one example only is a warning, its file relative to the project.
    assert.deepEqual(
      weather.diagnostics.map(({ severity, code, file, tool }: Record<string, string>) => ({
        severity,
        code,
        file,
        tool,
      })),
      [{ severity: 'warning', code: 'manifest-warning', file: join('agent', 'tools', 'weather.ts'), tool: 'weather' }],
    );
    assert.match(weather.diagnostics[0].message, /only one example/);
    assert.deepEqual(weather.parameters.required, ['city']);
    assert.deepEqual(weather.parameters.properties.unit, { type: 'string', enum: ['c', 'f'], default: 'c' });
    assert.equal(json.failures.length, 1);
    assert.equal(json.failures[0].file, join('agent', 'tools', 'broken.ts'));
    assert.equal(json.failures[0].diagnostics[0].code, 'syntax-error');
    assert.ok(!('text' in json.failures[0].diagnostics[0]));
  });

  it("speaks the reader's language: descriptions, parameters, examples and diagnostics", async (t) => {
    const { port } = await startTestService(t, { files: FILES });
    const { json } = await raw(port, '/api/tools', { headers: { 'accept-language': 'zh-CN' } });
    const weather = json.tools.find((tool: { name: string }) => tool.name === 'weather');
    assert.equal(weather.description, '查询城市天气');
    assert.equal(weather.parameters.properties.city.description, '城市名');
    assert.deepEqual(weather.examples, ['东京天气？']);
    assert.match(json.failures[0].diagnostics[0].message, /^语法错误/);
  });

  it('shows one tool; an unknown name is 404 with the closest one, a file that failed says why', async (t) => {
    const { port } = await startTestService(t, { files: FILES });
    assert.equal((await raw(port, '/api/tools/weather')).json.name, 'weather');
    const typo = await raw(port, '/api/tools/wether');
    assert.equal(typo.status, 404);
    assert.equal(typo.json.error.code, 'tool-not-found');
    assert.match(typo.json.error.message, /"weather"/);
    const broken = await raw(port, '/api/tools/broken');
    assert.equal(broken.status, 404);
    assert.match(broken.json.error.message, /did not load.*\n.*syntax error/);
  });
});

describe('PUT /api/tools/:name/enabled', () => {
  it('switches a tool off and on in the store, riverse.yaml untouched, and the next turn sees it', async (t) => {
    const server = await modelServer(t, { text: 'ok' });
    const { port, url, dir, context } = await startTestService(t, {
      files: FILES,
      yaml: YAML,
      model: testModel(server),
    });
    const off = await raw(port, '/api/tools/weather/enabled', { method: 'PUT', body: { enabled: false } });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.json.enabled, false);
    assert.equal(off.json.available, false);
    assert.equal(off.json.reason, 'turned off in the config (tools.weather.enabled: false)');
    assert.equal(await readFile(join(dir, 'riverse.yaml'), 'utf8'), YAML, 'the file is not written');
    assert.deepEqual(await context.store.toolSwitches.all(), new Map([['weather', false]]));
    // The assistant no longer offers it.
    await chat(url, { message: 'weather?' });
    assert.deepEqual(
      server.requests.at(-1)!.body.tools?.map((tool) => tool.function.name),
      ['failing'],
    );
    const zh = await raw(port, '/api/tools/weather?lang=zh');
    assert.equal(zh.json.reason, '已在配置中关闭（tools.weather.enabled: false）');

    const on = await raw(port, '/api/tools/weather/enabled', { method: 'PUT', body: { enabled: true } });
    assert.equal(on.json.available, true);
    assert.equal(on.json.enabled, true);
    assert.equal(await readFile(join(dir, 'riverse.yaml'), 'utf8'), YAML);
    assert.deepEqual(await context.store.toolSwitches.all(), new Map([['weather', true]]));
    await chat(url, { message: 'weather?' });
    assert.deepEqual(
      server.requests
        .at(-1)!
        .body.tools?.map((tool) => tool.function.name)
        .sort(),
      ['failing', 'weather'],
    );
  });

  it("keeps two switches made at once, and a stored switch wins over riverse.yaml's entry", async (t) => {
    const { port, context } = await startTestService(t, {
      files: FILES,
      yaml: 'tools:\n  isolation: none\n  weather:\n    enabled: false\n',
    });
    assert.equal((await raw(port, '/api/tools/weather')).json.available, false, 'off in the file');
    const both = await Promise.all([
      raw(port, '/api/tools/weather/enabled', { method: 'PUT', body: { enabled: true } }),
      raw(port, '/api/tools/failing/enabled', { method: 'PUT', body: { enabled: false } }),
    ]);
    assert.deepEqual(
      both.map((response) => response.status),
      [200, 200],
    );
    assert.deepEqual(
      await context.store.toolSwitches.all(),
      new Map([
        ['failing', false],
        ['weather', true],
      ]),
    );
    assert.deepEqual(
      (await raw(port, '/api/tools')).json.tools.map((tool: { name: string; available: boolean }) => [
        tool.name,
        tool.available,
      ]),
      [
        ['failing', false],
        ['weather', true],
      ],
    );
  });

  it('shows a tool that is off by default switched off, and one switch turns it on', async (t) => {
    const careful = toolSource('careful', { manifest: 'offByDefault: true,' });
    const { port, context } = await startTestService(t, { files: { ...FILES, 'careful.ts': careful } });
    const before = await raw(port, '/api/tools/careful');
    assert.equal(before.json.enabled, false, 'the switch shows it off');
    assert.equal(before.json.available, false);
    assert.match(before.json.reason, /off until it is switched on .*tools\.careful\.enabled: true/);
    assert.match((await raw(port, '/api/tools/careful?lang=ja')).json.reason, /オンにするまで無効です/);
    const on = await raw(port, '/api/tools/careful/enabled', { method: 'PUT', body: { enabled: true } });
    assert.equal(on.status, 200, on.text);
    assert.deepEqual([on.json.enabled, on.json.available], [true, true]);
    assert.deepEqual(await context.store.toolSwitches.all(), new Map([['careful', true]]));
    const off = await raw(port, '/api/tools/careful/enabled', { method: 'PUT', body: { enabled: false } });
    assert.deepEqual([off.json.enabled, off.json.available], [false, false]);
  });

  it('shows the built-ins that are off by default (file_write, shell_exec) off, and the switch turns file_write on', async (t) => {
    const builtins = fileURLToPath(new URL('../../../agent/tools', import.meta.url));
    const { port } = await startTestService(t, {
      yaml: `tools:\n  isolation: none\n  dirs: [${JSON.stringify(builtins)}]\n`,
    });
    for (const name of ['file_write', 'shell_exec']) {
      const view = (await raw(port, `/api/tools/${name}`)).json;
      assert.deepEqual([view.enabled, view.available], [false, false], name);
    }
    assert.equal((await raw(port, '/api/tools/file_read')).json.enabled, true);
    const on = await raw(port, '/api/tools/file_write/enabled', { method: 'PUT', body: { enabled: true } });
    assert.deepEqual([on.json.enabled, on.json.available], [true, true]);
  });

  it('reloads only the file of the tool it switches', async (t) => {
    const probe = createProbe('switch-loads');
    const counted = (name: string) =>
      toolSource(name, {
        header: `${probeRef('switch-loads')}.${name} = (${probeRef('switch-loads')}.${name} ?? 0) + 1;`,
      });
    const { port } = await startTestService(t, { files: { 'one.ts': counted('one'), 'two.ts': counted('two') } });
    assert.deepEqual([probe.one, probe.two], [1, 1]);
    await raw(port, '/api/tools/one/enabled', { method: 'PUT', body: { enabled: false } });
    await raw(port, '/api/tools/one/enabled', { method: 'PUT', body: { enabled: true } });
    assert.deepEqual([probe.one, probe.two], [3, 1], 'two.ts was not loaded again');
    assert.equal((await raw(port, '/api/tools/one')).json.available, true);
  });

  it('checks the body and the name', async (t) => {
    const { port } = await startTestService(t, { files: FILES });
    const bad = await raw(port, '/api/tools/weather/enabled', { method: 'PUT', body: { enabled: 'no' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.param, 'enabled');
    assert.equal(
      (await raw(port, '/api/tools/nothing/enabled', { method: 'PUT', body: { enabled: false } })).status,
      404,
    );
  });
});

describe('POST /api/tools/:name/run', () => {
  it('runs a tool as a model call runs: checked, coerced, with its defaults, timed', async (t) => {
    const { port } = await startTestService(t, { files: FILES });
    const run = await raw(port, '/api/tools/weather/run', {
      method: 'POST',
      body: { params: { city: 'Tokyo', days: '3' } },
    });
    assert.equal(run.status, 200);
    assert.equal(run.json.success, true);
    assert.equal(run.json.data, 'Tokyo: sunny, c, 3 day(s)');
    assert.equal(typeof run.json.durationMs, 'number');
    const failed = await raw(port, '/api/tools/failing/run', { method: 'POST', body: {} });
    assert.deepEqual(
      { ...failed.json, durationMs: 0 },
      { success: false, data: '', error: 'the service is down', durationMs: 0 },
    );
  });

  it('traces a run by hand, as a model call is traced, in no session', async (t) => {
    const { port } = await startTestService(t, { files: FILES });
    await raw(port, '/api/tools/weather/run', { method: 'POST', body: { params: { city: 'Oslo' } } });
    await raw(port, '/api/tools/failing/run', { method: 'POST', body: {} });
    const { traces } = (await raw(port, '/api/traces')).json;
    assert.deepEqual(
      traces.map((trace: Record<string, unknown>) => [trace.tool, trace.success, trace.byHand, trace.session]),
      [
        ['failing', false, true, ''],
        ['weather', true, true, ''],
      ],
    );
    assert.deepEqual(traces[1].params, { city: 'Oslo' });
    assert.equal(traces[1].data, 'Oslo: sunny, c, 1 day(s)');
    assert.equal(traces[0].error, 'the service is down');
    assert.deepEqual((await raw(port, '/api/sessions')).json.sessions, [], 'the runs are in no session');
  });

  it("explains refused arguments in the reader's language", async (t) => {
    const { port } = await startTestService(t, { files: FILES });
    const en = await raw(port, '/api/tools/weather/run', { method: 'POST', body: { params: { unit: 'k' } } });
    assert.equal(en.json.success, false);
    assert.equal(en.json.code, 'invalid-params');
    assert.match(en.json.error, /city/);
    const ja = await raw(port, '/api/tools/weather/run?lang=ja', { method: 'POST', body: { params: { unit: 'k' } } });
    assert.notEqual(ja.json.error, en.json.error);
  });

  it("says a throw in the reader's language", async (t) => {
    const boom = toolSource('boom', { execute: "throw new Error('no luck');" });
    const { port } = await startTestService(t, { files: { 'boom.ts': boom } });
    const en = await raw(port, '/api/tools/boom/run', { method: 'POST', body: {} });
    assert.match(en.json.error, /^boom failed: no luck \(at .*boom\.ts:\d+:\d+\)$/);
    const zh = await raw(port, '/api/tools/boom/run?lang=zh', { method: 'POST', body: {} });
    assert.match(zh.json.error, /^boom 执行失败：no luck（位于 .*boom\.ts:\d+:\d+）$/);
  });

  it('answers an unknown tool with 404, one switched off with 409, and bad params with 400', async (t) => {
    const { port } = await startTestService(t, {
      files: FILES,
      yaml: 'tools:\n  isolation: none\n  failing:\n    enabled: false\n',
    });
    const unknown = await raw(port, '/api/tools/wether/run', { method: 'POST', body: {} });
    assert.equal(unknown.status, 404);
    assert.match(unknown.json.error.message, /Did you mean "weather"|"weather"/);
    const off = await raw(port, '/api/tools/failing/run', { method: 'POST', body: {} });
    assert.equal(off.status, 409);
    assert.equal(off.json.error.code, 'tool-unavailable');
    assert.match(off.json.error.message, /turned off/);
    const list = await raw(port, '/api/tools/weather/run', { method: 'POST', body: { params: ['Tokyo'] } });
    assert.equal(list.status, 400);
    assert.equal(list.json.error.param, 'params');
  });

  it('runs in a separate process when that is how the tool runs', async (t) => {
    const pid = toolSource('pid', { execute: 'return ToolResult.ok(String(process.pid));' });
    const { port } = await startTestService(t, { files: { 'pid.ts': pid }, yaml: 'tools:\n  isolation: process\n' });
    const run = await raw(port, '/api/tools/pid/run', { method: 'POST', body: {} });
    assert.equal(run.json.success, true, run.text);
    assert.notEqual(run.json.data, String(process.pid));
    assert.equal((await raw(port, '/api/tools/pid')).json.isolation, 'process');
  });
});
