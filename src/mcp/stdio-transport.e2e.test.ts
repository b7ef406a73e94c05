// `riverse mcp` as a real child process, fed what the SDK's own stdio transport drops or dies on:
// a line over its 10 MiB buffer, a batch, a line that is not JSON, and an answer too long for the
// client's buffer. Each gets an answer, and the session goes on.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { tempDir, writeFiles, type Cleanup } from '../tool-runtime/test-support.ts';

const BIN = new URL('../../bin/riverse.js', import.meta.url).pathname;
const MIB = 1024 * 1024;
const BIG = `import { BaseTool, ToolResult } from 'riverse';
export class BigTool extends BaseTool {
  manifest() {
    return {
      name: 'big',
      description: 'Answers with as many characters as asked.',
      parameters: { chars: { type: 'number', required: true }, pad: { type: 'string' } },
      examples: ['a big answer', 'make it long'],
    };
  }
  execute(params) { return ToolResult.ok('ab'.repeat(params.chars / 2)); }
}
`;

async function project(t: Cleanup): Promise<string> {
  const dir = await tempDir(t, 'riverse-mcp-lines-');
  await writeFiles(join(dir, 'agent', 'tools'), { 'big.ts': BIG });
  await writeFiles(dir, { 'riverse.yaml': 'tools:\n  isolation: none\n  max_result_chars: 100000000\n' });
  return dir;
}

type Reply = { id?: string | number | null; result?: any; error?: { code: number; message: string } };

/** `riverse mcp` with its stdin and stdout as raw lines: `send` a line, `next` the next message out. */
function rawServer(t: Cleanup, dir: string) {
  const child = spawn(process.execPath, [BIN, 'mcp'], {
    cwd: dir,
    env: { ...process.env, RIVERSE_CACHE_DIR: join(dir, 'cache') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const replies: Reply[] = [];
  let waiting: (() => void) | undefined;
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      replies.push(JSON.parse(line) as Reply);
    }
    waiting?.();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  t.after(() => {
    child.kill();
  });
  return {
    send: (line: string) => void child.stdin.write(`${line}\n`),
    /** The next message out, or a failure naming what stderr said if the process ends first. */
    next: () =>
      new Promise<Reply>((resolve, reject) => {
        const look = () => {
          if (replies.length > 0) {
            waiting = undefined;
            resolve(replies.shift()!);
          }
        };
        waiting = look;
        look();
        void exited.then((code) => replies.length === 0 && reject(new Error(`riverse mcp exited ${code}: ${stderr}`)));
      }),
    stderr: () => stderr,
  };
}

const rpc = (id: number, method: string, params: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

test('riverse mcp answers a line over 10 MiB, a batch and a line that is not JSON with errors, and goes on', async (t) => {
  const server = rawServer(t, await project(t));
  server.send(
    rpc(1, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    }),
  );
  assert.equal((await server.next()).result.serverInfo.name, 'riverse');
  server.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));

  // As the SDK's client writes a request: the id last, after 11 MiB of arguments.
  const huge = JSON.stringify({
    method: 'tools/call',
    params: { name: 'big', arguments: { chars: 2, pad: 'x'.repeat(11 * MIB) } },
    jsonrpc: '2.0',
    id: 7,
  });
  server.send(huge);
  const tooLong = await server.next();
  assert.equal(tooLong.id, 7);
  assert.equal(tooLong.error?.code, -32600);
  assert.match(tooLong.error!.message, new RegExp(`its line was ${Buffer.byteLength(huge)} bytes`));
  assert.match(tooLong.error!.message, /at most 10485760 bytes[\s\S]*the session goes on/);

  server.send(`[${rpc(8, 'tools/list')}]`);
  const batch = await server.next();
  assert.equal(batch.id, null);
  assert.equal(batch.error?.code, -32600);
  assert.match(
    batch.error!.message,
    /JSON-RPC batches are not accepted: MCP removed batching in its 2025-06-18 revision/,
  );

  server.send('{"jsonrpc": "2.0", "id": 9, "method": ');
  const parse = await server.next();
  assert.equal(parse.error?.code, -32700);
  assert.match(parse.error!.message, /a line on stdin is not JSON/);

  server.send(JSON.stringify({ jsonrpc: '2.0', id: 10, method: 42 }));
  const invalid = await server.next();
  assert.equal(invalid.id, 10);
  assert.equal(invalid.error?.code, -32600);
  assert.match(invalid.error!.message, /not a JSON-RPC 2\.0 message/);

  // The same session still answers.
  server.send(rpc(11, 'tools/list'));
  const listed = await server.next();
  assert.equal(listed.id, 11);
  assert.deepEqual(
    listed.result.tools.map((tool: { name: string }) => tool.name),
    ['big'],
  );
  server.send(rpc(12, 'tools/call', { name: 'big', arguments: { chars: 4 } }));
  assert.deepEqual((await server.next()).result, { content: [{ type: 'text', text: 'abab' }] });
  assert.match(server.stderr(), /riverse mcp: connection problem: Request too large/);
});

test('an answer over the client read buffer reaches the SDK client cut, with a marker, and the session goes on', async (t) => {
  const dir = await project(t);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: dir,
    env: { ...process.env, RIVERSE_CACHE_DIR: join(dir, 'cache') } as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'riverse-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const chars = 12 * MIB;
  const result = await client.callTool({ name: 'big', arguments: { chars } });
  const content = result.content as Array<{ type: string; text: string }>;
  assert.equal(content.length, 2);
  assert.ok(content[0]!.text.length < 10 * MIB && content[0]!.text.length > 9 * MIB, `${content[0]!.text.length}`);
  assert.ok('ab'.repeat(chars / 2).startsWith(content[0]!.text));
  assert.match(
    content[1]!.text,
    /^\[Cut by Riverse: this result was \d+ bytes, over the \d+ bytes one stdio message may carry\. What is above is its beginning\.\]$/,
  );
  assert.deepEqual((await client.callTool({ name: 'big', arguments: { chars: 2 } })).content, [
    { type: 'text', text: 'ab' },
  ]);
});
