// A call that starts its tool's host carries the host's start in its span (`riverse.host_start_ms`);
// a call that finds the host running does not. A real worker host, the local OpenAI-protocol server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replies } from '../models/testing/wire-server.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import { Assistant } from './assistant.ts';
import { loadRegistry, modelServer, tempDir, testModel } from './turn-test-support.ts';

const ECHO_TOOL = `import { BaseTool, ToolResult } from 'riverse';
export class EchoTool extends BaseTool {
  manifest() {
    return { name: 'echo', description: 'Says it back', examples: ['echo hi'],
      parameters: { text: { type: 'string', required: true, description: 'What to say' } } };
  }
  async execute(params) { return ToolResult.ok(params.text); }
}
`;

describe('the host start of a tool call', () => {
  it('is on the span of the call that started the host, not on the next one', async (t) => {
    const registry = await loadRegistry(t, {
      files: { 'echo.ts': ECHO_TOOL },
      config: { tools: { isolation: 'worker' } },
    });
    const store = SqliteStore.open(await tempDir(t));
    t.after(async () => await store.close());
    const call = { toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] };
    const server = await modelServer(t, replies([call, { text: 'Said.' }, call, { text: 'Said again.' }]));
    const assistant = new Assistant({ model: testModel(server), registry, store });
    const spanOf = async () => (await store.turnTraces.last())!.spans.find((span) => span.kind === 'tool-call')!;
    assert.equal((await assistant.turn('Echo hi', { session: 'echo' })).stopReason, 'answer');
    const first = await spanOf();
    assert.equal(first.attributes['riverse.isolation'], 'worker');
    assert.equal(typeof first.attributes['riverse.host_start_ms'], 'number');
    assert.ok((first.attributes['riverse.host_start_ms'] as number) >= 0);
    assert.equal((await assistant.turn('Echo hi again', { session: 'echo' })).stopReason, 'answer');
    assert.equal((await spanOf()).attributes['riverse.host_start_ms'], undefined, 'the host was running already');
  });
});
