import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createProject, ECHO_TOOL, parseJson, show, type TempProject } from '../cli-test-support.ts';

const FIXTURE = new URL('../../mcp/testing/fixture-server.ts', import.meta.url).pathname;

describe('the tools commands and riverse mcp list cover MCP servers', { concurrency: 2 }, () => {
  let project: TempProject;
  before(async () => {
    project = await createProject({
      'agent/tools/echo.ts': ECHO_TOOL,
      'riverse.yaml': [
        'mcp:',
        '  servers:',
        '    fx:',
        `      command: ${JSON.stringify(process.execPath)}`,
        `      args: [${JSON.stringify(FIXTURE)}]`,
        '      allow_tools: [echo, fail]',
        '    down:',
        '      command: /no/such/program',
        '',
      ].join('\n'),
    });
  });
  after(() => project?.remove());

  test('tools list: the source column names the server; a server that did not start is reported', async () => {
    const result = await project.run(['tools', 'list']);
    assert.equal(result.code, 0, show(result));
    const rows = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/\s{2,}/));
    assert.deepEqual(
      rows.slice(1).map((row) => row.slice(0, 2)),
      [
        ['echo', 'agent/tools/echo.ts'],
        ['fx__echo', 'mcp:fx'],
        ['fx__fail', 'mcp:fx'],
      ],
    );
    assert.match(
      result.stderr,
      /mcp:down: error \[mcp-server-unavailable\] MCP server "down" is not connected: its command was not found/,
    );
  });

  test("tools show prints the server's schema; tools run calls it, and a failure exits 1", async () => {
    const shown = parseJson(await project.run(['tools', 'show', 'fx__echo', '--json']));
    assert.equal(shown.file, 'mcp:fx');
    assert.equal(shown.schema.properties.times.maximum, 5);
    const ran = await project.run(['tools', 'run', 'fx__echo', 'text=hi', 'times=2']);
    assert.equal(ran.code, 0, show(ran));
    assert.equal(ran.stdout.trim(), 'hi hi');
    const refused = await project.run(['tools', 'run', 'fx__echo', 'times=9']);
    assert.equal(refused.code, 1, show(refused));
    assert.match(refused.stderr, /"times" must be <= 5/);
    const failed = await project.run(['tools', 'run', 'fx__fail']);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /the disk is full/);
  });

  test('tools check counts a server that is down as an error', async () => {
    const result = await project.run(['tools', 'check', '--no-types']);
    assert.equal(result.code, 1, show(result));
    assert.match(result.stdout + result.stderr, /mcp:down/);
  });

  test("mcp list: each server's state, in the person's language; exit 1 while one is down", async () => {
    const listed = await project.run(['mcp', 'list', '--json']);
    assert.equal(listed.code, 0, show(listed));
    const servers = parseJson(listed).servers as Array<{ name: string; state: string; tools: number; reason?: string }>;
    assert.deepEqual(
      servers.map((server) => [server.name, server.state, server.tools]),
      [
        ['down', 'retrying', 0],
        ['fx', 'connected', 2],
      ],
    );
    const table = await project.run(['mcp', 'list', '--lang', 'ja']);
    assert.equal(table.code, 1);
    assert.match(table.stdout, /^サーバー\s+トランスポート\s+状態/);
    assert.match(table.stdout, /fx\s+stdio\s+接続済み\s+2/);
    assert.match(table.stdout, /down\s+stdio\s+未接続\s+0/);
  });
});
