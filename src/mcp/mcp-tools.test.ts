import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { LiveToolRegistry } from '../tool-runtime/live-registry.ts';
import type { ToolChange } from '../tool-runtime/live-registry.ts';
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import type { McpServerSettings } from './mcp-settings.ts';
import { McpTools } from './mcp-tools.ts';
import { startHttpFixture } from './testing/http-fixture.ts';

const FIXTURE = new URL(
  import.meta.url.endsWith('.ts') ? './testing/fixture-server.ts' : './testing/fixture-server.js',
  import.meta.url,
).pathname;
const fixture = (extra: Partial<McpServerSettings> = {}): McpServerSettings => ({
  command: process.execPath,
  args: [FIXTURE],
  timeout_ms: 2_000,
  ...extra,
});

let dir: string;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'riverse-mcp-'));
  process.on('unhandledRejection', onRejection);
});
after(() => {
  process.off('unhandledRejection', onRejection);
  rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(rejections, [], 'no failure of a server became an unhandled rejection');
});

async function open(servers: Record<string, McpServerSettings>, mcp: Record<string, unknown> = {}) {
  const tools = await McpTools.start({ config: { mcp: { servers, ...mcp } }, baseDir: dir });
  const registry = () => ToolRegistry.load({ folders: [join(dir, 'no-tools')], sources: [tools] });
  return { tools, registry };
}

/** Resolves once `check` holds after one of the source's changes (no timing: it waits for the event). */
function changed(tools: McpTools, check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (check()) return resolve();
    const stop = tools.onChange(() => {
      if (!check()) return;
      stop();
      resolve();
    });
  });
}

test("a server's tools join the registry as <server>__<tool>, with its schema, its results and its errors", async () => {
  const { tools, registry } = await open({ fx: fixture() });
  try {
    const found = await registry();
    assert.deepEqual(
      found.tools().map((tool) => tool.name),
      ['fx__add_tool', 'fx__crash', 'fx__echo', 'fx__fail', 'fx__hang', 'fx__media', 'fx__structured'],
    );
    const echo = found.get('fx__echo')!;
    assert.equal(echo.file, 'mcp:fx');
    // The schema as the server wrote it: types, required, enums and nesting.
    assert.deepEqual(echo.schema.required, ['text']);
    assert.deepEqual(echo.schema.properties?.style?.enum, ['plain', 'loud']);
    assert.deepEqual((echo.schema.properties?.options as { required?: string[] } | undefined)?.required, ['separator']);
    assert.deepEqual(echo.manifest.annotations, { readOnlyHint: true });
    assert.deepEqual(await found.execute('fx__echo', { text: 'hi', times: '2', style: 'loud' }), {
      success: true,
      data: 'HI HI',
    });
    // The same checks as a drop-in tool's, before anything reaches the server.
    const refused = await found.execute('fx__echo', { times: 9, style: 'quiet', options: {} });
    assert.equal(refused.code, 'invalid-params');
    assert.match(refused.error!, /missing required parameter "text"/);
    assert.match(refused.error!, /"times" must be <= 5/);
    assert.match(refused.error!, /"plain", "loud"/);
    assert.match(refused.error!, /separator/);
    // The dialects compile it as any other tool's.
    assert.equal(echo.schemaFor('openai-strict').additionalProperties, false);
    assert.deepEqual(
      await found.execute(
        'fx__echo',
        { text: 'a', times: null, style: null, options: null },
        { dialect: 'openai-strict' },
      ),
      { success: true, data: 'a' },
    );

    assert.deepEqual(await found.execute('fx__structured', {}), {
      success: true,
      data: 'It is 21 degrees.\n{"temperature":21}',
      structured: { temperature: 21 },
    });
    // Lossless: the image and the embedded resource are parts, whole; the model's text is the text.
    const media = await found.execute('fx__media', {});
    assert.equal(
      media.data,
      '[resource link: notes <file:///notes.txt> (text/plain)]\n[resource <file:///readme.md> (text/markdown)]\n# Read me',
    );
    assert.deepEqual(media.content, [
      { type: 'image', data: Buffer.alloc(2048).toString('base64'), mimeType: 'image/png' },
      { type: 'text', text: '[resource link: notes <file:///notes.txt> (text/plain)]' },
      { type: 'resource', uri: 'file:///readme.md', mimeType: 'text/markdown', text: '# Read me' },
    ]);
    assert.deepEqual(await found.execute('fx__fail', {}), {
      success: false,
      data: '',
      error: 'the disk is full',
      code: 'mcp-tool-error',
    });
    const hung = await found.execute('fx__hang', {}, { timeoutMs: 200 });
    assert.equal(hung.code, 'timeout');
    // A hung call does not hold up the next one.
    assert.equal((await found.execute('fx__echo', { text: 'still here' })).data, 'still here');
  } finally {
    await tools.close();
  }
});

test('a server that crashes mid-call fails that call, the others keep working, and it is reconnected', async () => {
  const starts = join(dir, 'starts.txt');
  const { tools, registry } = await open({ fx: fixture({ env: { FIXTURE_STARTS_FILE: starts } }), other: fixture() });
  try {
    const crashed = await (await registry()).execute('fx__crash', {});
    assert.equal(crashed.code, 'mcp-disconnected');
    assert.match(crashed.error!, /fixture: crashing now/);
    // Meanwhile its tools are unavailable, with the reason, and the other server's work.
    const meanwhile = await registry();
    if (tools.statuses()[0]!.state !== 'connected') {
      assert.equal(meanwhile.find('fx__echo')?.available, false);
      assert.match(meanwhile.unavailableMessage('fx__echo')!, /MCP server "fx" is not connected/);
      assert.equal((await meanwhile.execute('fx__echo', { text: 'x' })).code, 'unavailable');
    }
    assert.equal((await meanwhile.execute('other__echo', { text: 'fine' })).data, 'fine');
    await changed(tools, () => tools.statuses()[0]!.state === 'connected');
    assert.equal((await (await registry()).execute('fx__echo', { text: 'back' })).data, 'back');
    assert.equal(tools.statuses()[0]!.failures, 0);
    const started = readFileSync(starts, 'utf8').trim().split('\n').length;
    assert.ok(started >= 2, `started again (${started} starts)`);
  } finally {
    await tools.close();
  }
});

test('a server that fails to start is reported, retried, and does not keep the others out', async () => {
  const { tools, registry } = await open({
    broken: fixture({ env: { FIXTURE_EXIT_AT_START: '1' } }),
    fx: fixture(),
    missing: { command: join(dir, 'no-such-program') },
  });
  try {
    const found = await registry();
    assert.equal((await found.execute('fx__echo', { text: 'ok' })).data, 'ok');
    const broken = found.diagnostics.find((diagnostic) => diagnostic.file === 'mcp:broken')!;
    assert.equal(broken.code, 'mcp-server-unavailable');
    assert.equal(broken.severity, 'error');
    assert.match(broken.message, /MCP server "broken" is not connected: .*refusing to start/);
    assert.match(found.diagnostics.find((diagnostic) => diagnostic.file === 'mcp:missing')!.message, /not connected/);
    const status = tools.statuses().find((server) => server.name === 'broken')!;
    assert.equal(status.state, 'retrying');
    assert.equal(status.failures, 1);
    await changed(tools, () => tools.statuses().find((server) => server.name === 'broken')!.failures >= 2);
  } finally {
    await tools.close();
  }
});

test('a slow server delays start-up by the bound at most, and joins when it answers', async () => {
  // A program that never speaks MCP: its handshake never comes.
  const { tools, registry } = await open(
    { silent: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }, fx: fixture() },
    { startup_timeout_ms: 1_500 },
  );
  try {
    assert.equal(tools.statuses().find((server) => server.name === 'silent')!.state, 'starting');
    assert.equal(
      (await registry()).diagnostics.find((diagnostic) => diagnostic.file === 'mcp:silent')!.severity,
      'warning',
    );
    // The other one (however slow this machine is) joins as soon as it has answered.
    await changed(tools, () => tools.statuses().find((server) => server.name === 'fx')!.state === 'connected');
    const found = await registry();
    assert.equal((await found.execute('fx__echo', { text: 'ready' })).data, 'ready');
  } finally {
    await tools.close();
  }
});

test('allow_tools and deny_tools choose which of its tools join', async () => {
  const { tools, registry } = await open({
    a: fixture({ allow_tools: ['echo', 'fail'] }),
    b: fixture({ deny_tools: ['crash', 'hang'] }),
  });
  try {
    const names = (await registry()).tools().map((tool) => tool.name);
    assert.deepEqual(
      names.filter((name) => name.startsWith('a__')),
      ['a__echo', 'a__fail'],
    );
    assert.ok(!names.includes('b__crash') && !names.includes('b__hang') && names.includes('b__media'));
  } finally {
    await tools.close();
  }
});

test('tools/list_changed updates a live registry at once', async () => {
  const tools = await McpTools.start({ config: { mcp: { servers: { fx: fixture() } } }, baseDir: dir });
  const live = await LiveToolRegistry.open({ folders: [join(dir, 'no-tools')], sources: [tools], watch: false });
  try {
    assert.equal(live.current.get('fx__added'), undefined);
    // Bounded: a fixture that missed its start-up limit has no fx__add_tool, and nothing would come.
    const heard = new Promise<ToolChange[]>((resolve, reject) => {
      const late = setTimeout(() => reject(new Error('no tools/list_changed within 20 s')), 20_000);
      live.onChange((changes) => {
        if (!changes[0]!.tools.includes('fx__added')) return;
        clearTimeout(late);
        resolve(changes);
      });
    });
    const added = await live.current.execute('fx__add_tool', {});
    assert.equal(added.success, true, `fx__add_tool: ${added.error}`);
    const [change] = await heard;
    assert.equal(change!.file, 'mcp:fx');
    assert.equal(change!.event, 'changed');
    assert.equal((await live.current.execute('fx__added', {})).data, 'the added tool ran');
  } finally {
    await live.close();
    await tools.close();
  }
});

test('an HTTP server that forgot the session gets a new one once, and is not asked in a loop', async () => {
  const server = await startHttpFixture();
  const forgetful = await startHttpFixture({ forgetful: true });
  process.env.RIVERSE_TEST_MCP_TOKEN = 'sesame';
  const { tools, registry } = await open({
    remote: { url: server.url, headers: { Authorization: 'Bearer sesame' } },
    forgetful: { url: forgetful.url },
  });
  try {
    const found = await registry();
    assert.deepEqual(await found.execute('remote__greet', { who: 'ada' }), { success: true, data: 'hello ada' });
    assert.equal(server.lastHeaders.authorization, 'Bearer sesame');
    assert.equal(server.initializations, 1);
    server.forgetSessions();
    assert.deepEqual(await found.execute('remote__greet', { who: 'bob' }), { success: true, data: 'hello bob' });
    assert.equal(server.initializations, 2);

    const refused = await found.execute('forgetful__greet', { who: 'eve' });
    assert.equal(refused.code, 'mcp-protocol-error');
    assert.match(refused.error!, /forgot the session again/);
    assert.equal(forgetful.initializations, 2, 'one new session, not a loop');
  } finally {
    await tools.close();
    await server.close();
    await forgetful.close();
    delete process.env.RIVERSE_TEST_MCP_TOKEN;
  }
});

test('an MCP tool is switched off in riverse.yaml like any tool', async () => {
  const tools = await McpTools.start({
    config: { mcp: { servers: { fx: fixture({ allow_tools: ['echo', 'fail'] }) } } },
    baseDir: dir,
  });
  try {
    const registry = await ToolRegistry.load({
      folders: [join(dir, 'no-tools')],
      sources: [tools],
      config: { tools: { fx__fail: { enabled: false } } },
    });
    assert.deepEqual(
      registry.tools().map((tool) => tool.name),
      ['fx__echo'],
    );
    assert.equal(registry.find('fx__fail')?.available, false);
    assert.match(
      registry.unavailableMessage('fx__fail')!,
      /turned off in the config \(tools\.fx__fail\.enabled: false\)/,
    );
  } finally {
    await tools.close();
  }
});

test('an HTTP server that goes down fails the call as disconnected; its tools are unavailable while it is tried again', async () => {
  const server = await startHttpFixture();
  const { tools, registry } = await open({ remote: { url: server.url } });
  try {
    assert.equal((await (await registry()).execute('remote__greet', { who: 'ada' })).data, 'hello ada');
    await server.close();
    const down = await (await registry()).execute('remote__greet', { who: 'bob' });
    assert.equal(down.code, 'mcp-disconnected');
    assert.match(down.error!, /remote could not be reached/);
    assert.equal(tools.statuses()[0]!.state, 'retrying');
    assert.equal((await registry()).find('remote__greet')?.available, false);
  } finally {
    await tools.close();
  }
});
