// A whole assistant turn that uses an MCP server's tools: the real local OpenAI-protocol model
// server, the SDK-built fixture server over stdio, and the turn loop between them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Assistant } from '../assistant/assistant.ts';
import { modelServer, tempDir, testModel } from '../assistant/turn-test-support.ts';
import type { ReplyHandler } from '../models/testing/openai-wire.ts';
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { McpTools } from './mcp-tools.ts';

const FIXTURE = new URL(
  import.meta.url.endsWith('.ts') ? './testing/fixture-server.ts' : './testing/fixture-server.js',
  import.meta.url,
).pathname;

test("a turn calls an MCP server's tools: the model is shown their schema, reads their results and their failures", async (t) => {
  const dir = await tempDir(t, 'riverse-mcp-turn-');
  const tools = await McpTools.start({
    config: { mcp: { servers: { fx: { command: process.execPath, args: [FIXTURE], allow_tools: ['echo', 'fail'] } } } },
    baseDir: dir,
  });
  t.after(() => tools.close());
  const registry = await ToolRegistry.load({ folders: [], sources: [tools], isolation: 'none' });
  const model: ReplyHandler = (request) => {
    const results = request.body.messages.filter((message) => message.role === 'tool');
    if (results.length > 0) return { text: `The tools said: ${results.map((message) => message.content).join(' | ')}` };
    return {
      toolCalls: [
        { name: 'fx__echo', arguments: { text: 'hello', times: 2 }, id: 'call_echo' },
        { name: 'fx__fail', arguments: {}, id: 'call_fail' },
      ],
    };
  };
  const server = await modelServer(t, model);
  const assistant = new Assistant({ model: testModel(server), registry });
  const result = await assistant.turn('Say hello twice, then try the failing tool.');

  const offered = server.requests[0]!.body.tools!.map((tool) => tool.function);
  const echo = offered.find((tool) => tool.name === 'fx__echo')!;
  assert.equal(echo.description, 'Says the text back, a number of times.');
  assert.deepEqual((echo.parameters as { required?: string[] }).required?.includes('text'), true);
  assert.deepEqual(offered.map((tool) => tool.name).sort(), ['fx__echo', 'fx__fail']);

  assert.equal(result.stopReason, 'answer');
  assert.deepEqual(
    result.toolCalls.map((call) => [call.tool, call.result.success, call.result.code]),
    [
      ['fx__echo', true, undefined],
      ['fx__fail', false, 'mcp-tool-error'],
    ],
  );
  assert.match(result.text, /hello hello/);
  assert.match(result.text, /the disk is full/);
});
