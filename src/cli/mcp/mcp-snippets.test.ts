// The README's Claude Desktop, Cursor and VS Code snippets, run as given: their command and
// arguments, with the app's folder (/home/me/assistant) a temp app holding Riverse and a Node 24 of
// its own where the snippet says, started the way an MCP client starts a server — a minimal
// environment whose PATH has only the system's directories, and a riverse.yaml whose model settings
// name variables that are unset (its `language:` still holds). The real SDK client lists and calls
// the app's tool over stdio.
import assert from 'node:assert/strict';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { tempDir, writeFiles } from '../../tool-runtime/test-support.ts';
import { ECHO_TOOL } from '../cli-test-support.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;
const APP = '/home/me/assistant';

interface Launch {
  client: string;
  command: string;
  args: string[];
}

/** Each stdio server of the MCP section's JSON snippets, named by the line that introduces it. */
async function snippets(): Promise<Launch[]> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## MCP, both ways\n'), readme.indexOf('\n## Configuration\n'));
  const launches: Launch[] = [];
  for (const match of section.matchAll(/^([^\n]+)\n\n```json\n([\s\S]*?)```/gm)) {
    const parsed = JSON.parse(match[2]!) as {
      mcpServers?: Record<string, { command?: string; args?: string[] }>;
      servers?: Record<string, { command?: string; args?: string[] }>;
    };
    for (const server of Object.values(parsed.mcpServers ?? parsed.servers ?? {}))
      if (server.command !== undefined)
        launches.push({ client: match[1]!, command: server.command, args: server.args ?? [] });
  }
  return launches;
}

test("the README's Claude Desktop, Cursor and VS Code snippets start riverse mcp on the app's Node 24, with no model and a minimal environment", async (t) => {
  const launches = await snippets();
  assert.deepEqual(
    launches.map((launch) => /^(Claude Desktop|Cursor|VS Code)/.exec(launch.client)?.[1]),
    ['Claude Desktop', 'Cursor', 'VS Code'],
  );
  const app = await tempDir(t, 'riverse-snippet-app-');
  await writeFiles(join(app, 'agent', 'tools'), { 'echo.ts': ECHO_TOOL });
  // The model is named only by variables a GUI client's environment does not have.
  await writeFiles(app, {
    'riverse.yaml': [
      'language: ja',
      'model: ${UNSET_RIVERSE_MODEL}',
      'model_options:',
      '  api_key: ${UNSET_VAR}',
      '  max_retries: ${UNSET_RETRIES}',
      'tools:',
      '  isolation: worker',
      '',
    ].join('\n'),
  });
  // Riverse installed in the app (this checkout), and the app's own Node 24 (this one).
  await mkdir(join(app, 'node_modules', 'node', 'bin'), { recursive: true });
  await symlink(ROOT, join(app, 'node_modules', 'riverse'));
  await symlink(process.execPath, join(app, 'node_modules', 'node', 'bin', 'node'));
  for (const launch of launches) {
    const at = (text: string) => text.replaceAll(APP, app);
    const transport = new StdioClientTransport({
      command: at(launch.command),
      args: launch.args.map(at),
      env: { PATH: '/usr/bin:/bin', HOME: app },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'snippet', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((tool) => tool.name),
        ['echo'],
        `${launch.client}\n${stderr}`,
      );
      const called = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      assert.equal(called.isError, undefined, `${launch.client}: ${JSON.stringify(called)}\n${stderr}`);
      // The config's language holds, though its model settings could not be read.
      assert.match(stderr, /stdio の MCP で 1 個のツールを提供しています/, stderr);
    } finally {
      await client.close();
    }
  }
});
