// context.resultPart in a whole turn: a tool reads a picture an earlier call returned, in the same
// turn (the result as the model was given it) and in the session's next turn (from its trace),
// against the real local OpenAI-protocol server, real tool hosts and a real SQLite store.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ReplyHandler } from '../models/testing/openai-wire.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import { Assistant } from './assistant.ts';
import { loadRegistry, modelServer, tempDir, testModel } from './turn-test-support.ts';

const TOOLS = {
  'snap.ts': `import { BaseTool } from 'riverse';
export class SnapTool extends BaseTool {
  manifest() { return { name: 'snap', description: 'Takes a picture', examples: ['take a picture', 'snap one'] }; }
  execute() {
    return { success: true, data: 'A picture; it is attached.', content: [{ type: 'text', text: 'A picture.' }, { type: 'image', data: new Uint8Array([137, 80, 78, 71, 1, 2, 3]), mimeType: 'image/png' }] };
  }
}
`,
  'look.ts': `import { BaseTool, ToolResult } from 'riverse';
export class LookTool extends BaseTool {
  manifest() {
    return { name: 'look', description: 'Looks at a picture an earlier call returned', parameters: { call: { type: 'string', required: true, description: 'Its call id' }, index: { type: 'integer', description: 'Its part' } }, examples: ['look at it', 'what is in that picture'] };
  }
  async execute(params, context) {
    const part = await context.resultPart(params.call, params.index);
    if (part === undefined) return ToolResult.ok('nothing found');
    return ToolResult.ok(part.type === 'text' ? 'text: ' + part.text : part.type + ' ' + part.mimeType + ' ' + Buffer.from(part.data, typeof part.data === 'string' ? 'base64' : undefined).length + ' bytes');
  }
}
`,
};

/** "snap": snap, then look at its picture; "again": look at the first turn's picture, then at its text part. */
const model: ReplyHandler = (request) => {
  const messages = request.body.messages;
  const asked = String(messages.filter((message) => message.role === 'user').at(-1)?.content);
  const results = messages
    .slice(messages.findLastIndex((message) => message.role === 'user'))
    .filter((m) => m.role === 'tool');
  if (asked === 'snap') {
    if (results.length === 0) return { toolCalls: [{ name: 'snap', arguments: {}, id: 'call_snap' }] };
    if (results.length === 1)
      return { toolCalls: [{ name: 'look', arguments: { call: 'call_snap' }, id: 'call_look' }] };
  }
  if (asked === 'again' && results.length === 0)
    return {
      toolCalls: [
        { name: 'look', arguments: { call: 'call_snap' }, id: 'call_again' },
        { name: 'look', arguments: { call: 'call_snap', index: 1 }, id: 'call_text' },
        { name: 'look', arguments: { call: 'call_none' }, id: 'call_none_look' },
      ],
    };
  return { text: results.map((result) => String(result.content)).join(' | ') };
};

describe('context.resultPart in a turn', () => {
  it("finds an earlier call's picture in the same turn, and in the session's next turn through its trace", {
    timeout: 30_000,
  }, async (t) => {
    const dir = await tempDir(t, 'riverse-earlier-parts-');
    const registry = await loadRegistry(t, { files: TOOLS });
    const store = SqliteStore.open(join(dir, 'data'));
    t.after(() => store.close());
    const server = await modelServer(t, model);
    const assistant = new Assistant({ model: testModel(server), registry, store });
    const first = await assistant.turn('snap', { session: 'pictures' });
    assert.equal(first.stopReason, 'answer');
    assert.equal(first.toolCalls[1]?.result.data, 'image image/png 7 bytes', 'in the same turn');
    const second = await assistant.turn('again', { session: 'pictures' });
    assert.deepEqual(
      second.toolCalls.map((call) => call.result.data),
      ['image image/png 7 bytes', 'text: A picture.', 'nothing found'],
      "from the first turn's trace: its picture, its text part by index, and no such call",
    );
    // Another session does not see this one's pictures.
    const other = await assistant.turn('again', { session: 'elsewhere' });
    assert.equal(other.toolCalls[0]?.result.data, 'nothing found');
  });
});
