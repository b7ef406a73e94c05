// Declarative tools (*.tools.yaml) through the registry: the guide's five-line weather tool against a
// local wttr.in, hostile parameter values in every place a template puts them, command tools
// without a shell, diagnostics at their line, and hot reload.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LiveToolRegistry } from '../live-registry.ts';
import { ToolRegistry } from '../tool-registry.ts';

describe('declarative tools', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'riverse-declared-')));
  let server: Server;
  let port = 0;
  const seen: Array<{ method: string; url: string; headers: Record<string, unknown>; body: string }> = [];
  before(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
        if (request.url?.startsWith('/to?'))
          return void response.writeHead(302, { location: decodeURIComponent(request.url.slice(4)) }).end();
        if (request.url === '/fail')
          return void response.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance');
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            current_condition: [{ temp_C: '16', weatherDesc: [{ value: 'Sunny' }] }],
            echo: { url: request.url, body },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });
  const folder = (name: string, files: Record<string, string>) => {
    const path = join(dir, name);
    rmSync(path, { recursive: true, force: true });
    mkdirSync(path);
    for (const [file, text] of Object.entries(files)) writeFileSync(join(path, file), text);
    return path;
  };
  // Each site reached by name through tools.<name>.hosts, allowed by allow_hosts: no DNS, no loopback rule bent.
  const site = { hosts: { 'wttr.test': '127.0.0.1', 'api.test': '127.0.0.1' }, allow_hosts: ['wttr.test', 'api.test'] };

  test("the guide's weather tool, in five lines of YAML", async () => {
    const yaml = [
      'weather:',
      '  description: Get the current weather for a city',
      "  parameters: { city: { required: true, description: 'City name, e.g. Tokyo' } }",
      "  examples: [\"What's the weather in Tokyo?\", 'Is it raining in London?']",
      `  http: { url: 'http://wttr.test:${port}/{city}?format=j1', result: current_condition.0 }`,
    ].join('\n');
    const registry = await ToolRegistry.load({
      folders: [folder('weather', { 'weather.tools.yaml': yaml })],
      baseDir: dir,
      config: { tools: { weather: site } },
    });
    assert.deepEqual(registry.diagnostics, []);
    const result = await registry.execute('weather', { city: 'Tokyo' });
    assert.deepEqual(JSON.parse(result.data), { temp_C: '16', weatherDesc: [{ value: 'Sunny' }] });
    assert.match((await registry.execute('weather', {})).error ?? '', /missing required parameter "city"/);
  });

  const HOSTILE = `../../admin?x=1&y=2#frag ", "admin": true, "z": "\r\nX-Injected: 1`;

  test('hostile values cannot leave their place: URL path and query, JSON body, form body', async () => {
    const yaml = `
lookup:
  description: Look a word up
  parameters:
    word: { required: true, description: The word }
    limit: { type: integer, description: How many }
    note: Optional note
  examples: [Look up tea, Define matcha]
  http:
    url: 'http://api.test:${port}/words/{word}'
    method: POST
    query: { q: '{word}', n: '{limit}' }
    json: { word: '{word}', limit: '{limit}', note: '{note}', phrase: 'the word is {word}', list: ['{word}', '{note}'] }
send_form:
  description: Send a form
  parameters: { word: The word }
  examples: [Send tea, Send matcha]
  http: { url: 'http://api.test:${port}/form', method: POST, form: { w: '{word}', fixed: 'a&b' } }
`;
    const registry = await ToolRegistry.load({
      folders: [folder('hostile', { 'api.tools.yaml': yaml })],
      baseDir: dir,
      config: { tools: { lookup: site, send_form: site } },
    });
    assert.deepEqual(registry.diagnostics, []);
    const result = await registry.execute('lookup', { word: HOSTILE, limit: 3 });
    assert.equal(result.success, true, result.error);
    const request = seen.at(-1)!;
    const url = new URL(request.url, 'http://x');
    // One path segment, whatever the value holds.
    assert.equal(url.pathname, `/words/${encodeURIComponent(HOSTILE)}`);
    assert.deepEqual(
      [...url.searchParams],
      [
        ['q', HOSTILE],
        ['n', '3'],
      ],
    );
    assert.equal(request.headers['x-injected'], undefined);
    // The body is the template's shape; the value is one JSON string, of its own type where it stands alone; "note" left out.
    assert.deepEqual(JSON.parse(request.body), {
      word: HOSTILE,
      limit: 3,
      phrase: `the word is ${HOSTILE}`,
      list: [HOSTILE],
    });
    assert.equal(request.headers['content-type'], 'application/json');
    await registry.execute('send_form', { word: 'x&fixed=evil' });
    assert.deepEqual(
      [...new URLSearchParams(seen.at(-1)!.body)],
      [
        ['w', 'x&fixed=evil'],
        ['fixed', 'a&b'],
      ],
    );
  });

  test('a header cannot be split; settings come from the tool section; the same SSRF rules as web_fetch', async () => {
    const yaml = `
keyed:
  description: Call a keyed API
  parameters: { who: Who }
  examples: [Call the API, Ask the API]
  http: { url: 'http://api.test:${port}/keyed', headers: { authorization: 'Bearer {config.api_key}', x-who: '{who}' }, result: echo }
open:
  description: Fetch anything
  parameters: { url: { required: true, description: Where } }
  examples: [Fetch it, Get it]
  http: { url: 'http://api.test:${port}/to?{url}' }
`;
    const path = folder('keyed', { 'keyed.tools.yaml': yaml });
    const registry = await ToolRegistry.load({
      folders: [path],
      baseDir: dir,
      config: { tools: { keyed: { ...site, api_key: 'K1' }, open: site } },
    });
    const before = seen.length;
    assert.match(
      (await registry.execute('keyed', { who: 'me\r\nX-Evil: 1' })).error ?? '',
      /x-who header contains a line break/,
    );
    assert.equal(seen.length, before, 'nothing was sent');
    assert.equal((await registry.execute('keyed', { who: 'me' })).success, true);
    assert.equal(seen.at(-1)?.headers.authorization, 'Bearer K1');
    const unset = await ToolRegistry.load({ folders: [path], baseDir: dir, config: { tools: { keyed: site } } });
    assert.equal(
      (await unset.execute('keyed', {})).error,
      'keyed cannot run yet: set tools.keyed.api_key in riverse.yaml.',
    );
    assert.equal(
      (await unset.execute('keyed', {}, { language: 'ja' })).error,
      'keyed はまだ実行できません：riverse.yaml で tools.keyed.api_key を設定してください。',
    );
    // A redirect into loopback by address, and a direct fetch without allow_hosts, are refused.
    const redirected = await registry.execute('open', { url: `http://127.0.0.1:${port}/secret` });
    assert.match(redirected.error ?? '', /^Refused: 127\.0\.0\.1 is a loopback address.*tools\.open\.allow_private/);
    const inJapanese = await registry.execute('open', { url: `http://127.0.0.1:${port}/secret` }, { language: 'ja' });
    assert.match(
      inJapanese.error ?? '',
      /^拒否しました：127\.0\.0\.1 はループバックアドレスです。.*tools\.open\.allow_private/,
    );
    const bare = await ToolRegistry.load({
      folders: [path],
      baseDir: dir,
      config: { tools: { open: { hosts: site.hosts } } },
    });
    assert.match(
      (await bare.execute('open', { url: 'x' })).error ?? '',
      /^Refused: api\.test resolves to 127\.0\.0\.1/,
    );
    assert.equal(
      seen.some((request) => request.url === '/secret'),
      false,
    );
  });

  test('command tools: one argv element per value, no shell, no option injection, left-out parameters dropped', async () => {
    const marker = join(dir, 'pwned');
    const yaml = `
say:
  description: Say something
  parameters: { text: { required: true, description: What to say }, suffix: Optional suffix }
  examples: [Say hello, Say goodbye]
  command: [printf, '[%s]', '{text}', '--suffix={suffix}']
list_file:
  description: List a file
  parameters: { name: { required: true, description: File name } }
  examples: [List a.txt, Show b.txt]
  command: [ls, '-d', '--', '{name}']
`;
    const registry = await ToolRegistry.load({
      folders: [folder('commands', { 'commands.tools.yaml': yaml })],
      baseDir: dir,
      config: {},
    });
    assert.deepEqual(registry.diagnostics, []);
    assert.equal(
      registry.get('say')?.manifest.approval,
      'always',
      'a command asks a person first unless the file says otherwise',
    );
    const hostile = `; touch ${marker} $(touch ${marker}) \`touch ${marker}\` | touch ${marker}`;
    assert.deepEqual(await registry.execute('say', { text: hostile }), { success: true, data: `[${hostile}]` });
    assert.deepEqual(await registry.execute('say', { text: 'a b', suffix: 'c d' }), {
      success: true,
      data: '[a b][--suffix=c d]',
    });
    assert.equal(existsSync(marker), false);
    assert.match(
      (await registry.execute('say', { text: '--help' })).error ?? '',
      /starts with "-", which printf would read as an option/,
    );
    // After a literal "--" the program reads the value as a name, not an option.
    const dashed = await registry.execute('list_file', { name: '-la' });
    assert.equal(dashed.success, false);
    assert.match(dashed.error ?? '', /ls exited with code 2: .*'?-la'?.*No such file/);
    // The same failures in the person's language.
    assert.match(
      (await registry.execute('say', { text: '--help' }, { language: 'ja' })).error ?? '',
      /^値 "--help" は "-" で始まるため、printf がオプションとして読んでしまいます。/,
    );
    const zh = await registry.execute('list_file', { name: '-la' }, { language: 'zh' });
    assert.match(zh.error ?? '', /^ls 退出：退出码 2：.*No such file/);
  });

  test('what asks a person first by default: a command and an HTTP call that sends (POST…), not a GET; approval: never in the file says otherwise', async () => {
    const yaml = `
read_it:
  description: Read a thing
  examples: [Read it, Fetch it]
  http: { url: 'https://api.test/thing' }
post_it:
  description: Send a thing
  parameters: { text: What to send }
  examples: [Send it, Post it]
  http: { url: 'https://api.test/thing', method: post, json: { text: '{text}' } }
quiet_post:
  description: Ping a thing
  approval: never
  examples: [Ping it, Poke it]
  http: { url: 'https://api.test/ping', method: POST }
`;
    const registry = await ToolRegistry.load({
      folders: [folder('approvals', { 'approvals.tools.yaml': yaml })],
      baseDir: dir,
      config: {},
    });
    assert.deepEqual(registry.diagnostics, []);
    assert.deepEqual(
      ['read_it', 'post_it', 'quiet_post'].map((name) => registry.get(name)?.manifest.approval),
      [undefined, 'always', 'never'],
    );
  });

  test('diagnostics at their line: YAML errors, unknown fields, unknown placeholders, manifest problems', async () => {
    const broken = 'good:\n  description: x\n  http: { url: "http://a.test/" }\n bad indentation: [\n';
    const problems = `
one:
  description: First
  examples: [a, b]
  http: { url: 'http://a.test/{nope}', methd: GET }
two:
  descripton: Second
  command: [echo, hi]
three:
  description: Third
  parameters: { n: { type: int } }
  http: { url: 'http://a.test/' }
  command: [echo]
four:
  description: Fourth
  command: ['{x}']
  parameters: { x: X }
`;
    const registry = await ToolRegistry.load({
      folders: [
        folder('diagnostics', {
          'broken.tools.yaml': broken,
          'problems.tools.yml': problems,
          'data.yaml': 'not: [a tool',
        }),
      ],
      baseDir: dir,
      config: {},
    });
    const found = registry.diagnostics.map((diagnostic) => [
      diagnostic.file.split('/').pop(),
      diagnostic.line,
      diagnostic.code,
      diagnostic.tool,
      diagnostic.message,
    ]);
    const has = (file: string, line: number, code: string, pattern: RegExp) =>
      assert.ok(
        found.some(([f, l, c, , m]) => f === file && l === line && c === code && pattern.test(String(m))),
        `${file}:${line} ${code} ${pattern} in ${JSON.stringify(found, null, 1)}`,
      );
    has('broken.tools.yaml', 4, 'syntax-error', /the YAML does not parse/);
    has('problems.tools.yml', 5, 'invalid-manifest', /\{nope\} names no parameter/);
    has('problems.tools.yml', 5, 'invalid-manifest', /unknown field "methd" \(did you mean "method"\?\)/);
    has('problems.tools.yml', 7, 'invalid-manifest', /unknown field "descripton" \(did you mean "description"\?\)/);
    has('problems.tools.yml', 10, 'invalid-manifest', /declare exactly one of http/);
    has('problems.tools.yml', 16, 'invalid-manifest', /the program must be written out/);
    // A tool that only fails the manifest's own checks gets the manifest's diagnostic, at its line.
    const onlyManifest = await ToolRegistry.load({
      folders: [
        folder('manifest', {
          'm.tools.yaml':
            'three:\n  description: Third\n  parameters:\n    n: { type: int }\n  http: { url: "http://a.test/" }\n',
        }),
      ],
      baseDir: dir,
      config: {},
    });
    const typeProblem = onlyManifest.diagnostics.find((diagnostic) => diagnostic.code === 'invalid-manifest');
    assert.equal(typeProblem?.line, 4);
    // And its column: the value at fault (`int`), for the caret under it.
    assert.equal(typeProblem?.column, '    n: { type: int }'.indexOf('int') + 1);
    assert.match(typeProblem?.message ?? '', /parameters\.n\.type/);
    assert.deepEqual(
      registry.list().map((tool) => tool.name),
      [],
      'no broken tool is registered; data.yaml is not a tool file',
    );
  });

  test('a tools file is hot-reloaded like any tool file', async (t) => {
    const path = folder('live', {
      'live.tools.yaml': `echo_it:\n  description: Echo\n  parameters: { text: Text }\n  examples: [Echo a, Echo b]\n  command: [printf, 'v1 %s', '{text}']\n`,
    });
    const live = await LiveToolRegistry.open({ folders: [path], baseDir: dir });
    t.after(() => live.close());
    const events: string[] = [];
    live.onChange((changes) => events.push(...changes.map((change) => change.event)));
    assert.deepEqual(await live.current.execute('echo_it', { text: 'x' }), { success: true, data: 'v1 x' });
    const until = async (check: () => Promise<boolean>) => {
      for (let waited = 0; waited < 15_000 && !(await check()); waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
    };
    writeFileSync(
      join(path, 'live.tools.yaml'),
      `echo_it:\n  description: Echo\n  parameters: { text: Text }\n  examples: [Echo a, Echo b]\n  command: [printf, 'v2 %s', '{text}']\n`,
    );
    await until(async () => (await live.current.execute('echo_it', { text: 'x' })).data === 'v2 x');
    assert.deepEqual(await live.current.execute('echo_it', { text: 'x' }), { success: true, data: 'v2 x' });
    writeFileSync(join(path, 'live.tools.yaml'), 'echo_it: [\n');
    await until(async () => events.includes('broken'));
    assert.ok(events.includes('broken'), JSON.stringify(events));
    assert.deepEqual(
      await live.current.execute('echo_it', { text: 'x' }),
      { success: true, data: 'v2 x' },
      'the last good version stays',
    );
  });
});
