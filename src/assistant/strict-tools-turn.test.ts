// Strict tools (decision 009) through the local OpenAI-protocol server: the catalog goes out with
// `strict: true` and every property required, and the null a strict model sends for an optional
// parameter it leaves out never reaches the tool.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { replies } from '../models/testing/wire-server.ts';
import { runTurn } from './run-turn.ts';
import { loadRegistry, modelServer, sharedCleanup, testModel, toolMessagesOf } from './turn-test-support.ts';

const shared = sharedCleanup();
after(() => shared.run());

const REPEAT_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class RepeatTool extends BaseTool {
  manifest() {
    return {
      name: 'repeat',
      description: 'Repeats a word',
      parameters: { word: { type: 'string', required: true, description: 'The word' }, times: { type: 'integer', description: 'How often', default: 2 } },
      examples: ['Say hi twice'],
    };
  }
  async execute(params) {
    return ToolResult.ok(JSON.stringify(params));
  }
}
`;

describe('runTurn with strict tools', () => {
  it('sends strict definitions and drops the nulls of left-out parameters before the tool runs', async (t) => {
    const registry = await loadRegistry(shared, { files: { 'repeat.ts': REPEAT_TOOL } });
    const server = await modelServer(
      t,
      replies([{ toolCalls: [{ name: 'repeat', arguments: { word: 'hi', times: null } }] }, { text: 'done' }]),
    );
    const result = await runTurn({
      model: testModel(server, { strictTools: true }),
      registry,
      history: [],
      input: 'Say hi',
      language: 'en',
    });
    assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
    const tool = server.requests[0]!.body.tools![0]!;
    assert.equal(tool.function.strict, true);
    assert.deepEqual(tool.function.parameters, {
      type: 'object',
      properties: {
        word: { type: 'string', description: 'The word' },
        times: { type: ['integer', 'null'], description: 'How often (default: 2)' },
      },
      required: ['word', 'times'],
      additionalProperties: false,
    });
    // The tool got its default, not the null.
    assert.deepEqual(JSON.parse(toolMessagesOf(server.requests[1]!)[0]!.content as string), { word: 'hi', times: 2 });
  });
});
