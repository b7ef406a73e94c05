// An MCP server's tools in a turn obey approvals like drop-in tools: mcp.servers.<name>.approval,
// against the real fixture server over stdio. Whether a call ran is read from the server itself:
// add_tool adds a tool to its list.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Assistant } from '../assistant/assistant.ts';
import { modelServer, testModel } from '../assistant/turn-test-support.ts';
import type { TurnEvent } from '../assistant/turn-events.ts';
import { LiveToolRegistry } from '../tool-runtime/live-registry.ts';
import { McpTools } from './mcp-tools.ts';

const FIXTURE = new URL(
  import.meta.url.endsWith('.ts') ? './testing/fixture-server.ts' : './testing/fixture-server.js',
  import.meta.url,
).pathname;

let dir: string;
before(() => void (dir = mkdtempSync(join(tmpdir(), 'riverse-mcp-approvals-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

test('mcp.servers.<name>.approval: always — denied, the server is not called; approved, it is', async (t) => {
  const tools = await McpTools.start({
    config: {
      mcp: { servers: { fx: { command: process.execPath, args: [FIXTURE], timeout_ms: 5_000, approval: 'always' } } },
    },
    baseDir: dir,
  });
  const live = await LiveToolRegistry.open({ folders: [join(dir, 'no-tools')], sources: [tools], watch: false });
  t.after(async () => {
    await live.close();
    await tools.close();
  });
  assert.equal(live.current.get('fx__add_tool')?.manifest.approval, 'always');
  const server = await modelServer(t, (request) =>
    request.body.messages.at(-1)?.role === 'tool'
      ? { text: 'ok' }
      : { toolCalls: [{ name: 'fx__add_tool', arguments: {} }] },
  );
  const assistant = new Assistant({ model: testModel(server), registry: () => live.current });
  const answering = (decision: 'approve' | 'deny') => (event: TurnEvent) => {
    if (event.type === 'approval-request')
      void assistant.approvals.answer(event.approvalId, {
        decision,
        callId: event.callId,
        tool: 'fx__add_tool',
        params: {},
      });
  };

  const denied = await assistant.turn('add a tool', { session: 'one', onEvent: answering('deny') });
  assert.equal(denied.toolCalls[0]!.result.code, 'denied');
  // A round trip to the server after the turn: a list change from a call would have come before it.
  assert.equal((await live.current.execute('fx__echo', { text: 'hi' })).data, 'hi');
  assert.equal(live.current.get('fx__added'), undefined, 'the server did not run add_tool');

  const added = new Promise<void>((resolve) =>
    live.onChange(() => live.current.get('fx__added') !== undefined && resolve()),
  );
  const approved = await assistant.turn('add a tool', { session: 'two', onEvent: answering('approve') });
  assert.equal(approved.toolCalls[0]!.result.data, 'added');
  await added;
});
