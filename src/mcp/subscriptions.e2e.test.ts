// The 2026-07-28 revision's change notices: a client opens a `subscriptions/listen` stream, and a
// tool file saved afterwards reaches it as notifications/tools/list_changed — at /mcp and on stdio.
// (The conformance suite checks the same with a 1.5 s bound; these wait for as long as it takes.)
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestService } from '../server/server-test-support.ts';
import { tempDir, writeFiles } from '../tool-runtime/test-support.ts';

const TOOL = (name: string) => `import { BaseTool, ToolResult } from 'riverse';
export class T extends BaseTool {
  manifest() { return { name: '${name}', description: 'A tool.', examples: ['run ${name}', 'use ${name}'] }; }
  execute() { return ToolResult.ok('${name} ran'); }
}
`;
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'listener', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const LISTEN = {
  jsonrpc: '2.0',
  id: 1,
  method: 'subscriptions/listen',
  params: { _meta: ENVELOPE, notifications: { toolsListChanged: true } },
};

type Message = { method?: string; params?: { _meta?: Record<string, unknown> } };

/** Reads messages as they come, from SSE `data:` lines or bare JSON lines, until `until` says stop. */
async function* messages(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<Message> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of chunks) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      const json = line.startsWith('data:') ? line.slice(5).trim() : line.trim();
      if (json.startsWith('{')) yield JSON.parse(json) as Message;
    }
  }
}

async function heard(stream: AsyncGenerator<Message>, change: () => Promise<void>): Promise<Message[]> {
  const seen: Message[] = [];
  for await (const message of stream) {
    seen.push(message);
    if (message.method === 'notifications/subscriptions/acknowledged') await change();
    if (message.method === 'notifications/tools/list_changed') break;
  }
  return seen;
}

test('/mcp: a tool file saved while a subscriptions/listen stream is open reaches it as tools/list_changed', {
  timeout: 60_000,
}, async (t) => {
  const service = await startTestService(t, { files: { 'one.ts': TOOL('one') }, watch: true });
  const controller = new AbortController();
  t.after(() => controller.abort());
  const response = await fetch(new URL('/mcp', service.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify(LISTEN),
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  const seen = await heard(messages(response.body!), () => writeFile(join(service.tools, 'two.ts'), TOOL('two')));
  assert.equal(seen[0]!.method, 'notifications/subscriptions/acknowledged');
  const notice = seen.at(-1)!;
  assert.equal(notice.method, 'notifications/tools/list_changed');
  assert.ok(notice.params?._meta?.['io.modelcontextprotocol/subscriptionId'] !== undefined, JSON.stringify(notice));
});

test('riverse mcp: the same over stdio, on a connection opened with server/discover', {
  timeout: 60_000,
}, async (t) => {
  const dir = await tempDir(t, 'riverse-mcp-listen-');
  const tools = join(dir, 'agent', 'tools');
  await writeFiles(tools, { 'one.ts': TOOL('one') });
  await writeFiles(dir, { 'riverse.yaml': 'tools:\n  isolation: none\n' });
  const child = spawn(process.execPath, [new URL('../../bin/riverse.js', import.meta.url).pathname, 'mcp'], {
    cwd: dir,
    env: { ...process.env, RIVERSE_CACHE_DIR: join(dir, 'cache') },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  t.after(() => child.kill());
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta: ENVELOPE } })}\n`,
  );
  const stream = messages(child.stdout);
  const discovered = (await stream.next()).value as { result?: { supportedVersions?: string[] } };
  assert.ok(discovered.result?.supportedVersions?.includes('2026-07-28'), JSON.stringify(discovered));
  child.stdin.write(`${JSON.stringify(LISTEN)}\n`);
  const seen = await heard(stream, () => writeFile(join(tools, 'two.ts'), TOOL('two')));
  assert.equal(seen[0]!.method, 'notifications/subscriptions/acknowledged');
  const notice = seen.at(-1)!;
  assert.equal(notice.method, 'notifications/tools/list_changed');
  assert.ok(notice.params?._meta?.['io.modelcontextprotocol/subscriptionId'] !== undefined, JSON.stringify(notice));
});
