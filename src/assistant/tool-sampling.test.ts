// A tool's `context.sample` and `context.roots()` inside Riverse's own turn: the turn's model
// answers the sample (the local OpenAI-protocol server, its token cap in the request, a model
// request under the call's span in the trace), and the roots are the project folder and
// tools.files.roots. The tool runs in a worker and in a process, so both cross a host.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { replies } from '../models/testing/wire-server.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import { Assistant } from './assistant.ts';
import { SAMPLE_MAX_TOKENS } from './tool-sampling.ts';
import { loadRegistry, modelServer, tempDir, testModel } from './turn-test-support.ts';

const POEM_TOOL = `import { BaseTool, ToolResult } from 'riverse';
export class PoemTool extends BaseTool {
  manifest() {
    return { name: 'poem', description: 'Writes a short poem in the folders', examples: ['Write a poem'], parameters: {} };
  }
  async execute(_params, context) {
    const { roots } = await context.roots();
    const reply = await context.sample({
      systemPrompt: 'You write haiku.',
      messages: [{ role: 'user', content: { type: 'text', text: 'A haiku about rivers' } }],
      maxTokens: 90000,
      temperature: 0.3,
    });
    return ToolResult.ok(reply.model + ' | ' + reply.stopReason + ' | ' + reply.content.text + ' | ' + roots.map((root) => root.uri).join(' '));
  }
}
`;

describe('context.sample and context.roots in a turn', () => {
  for (const isolation of ['worker', 'process'] as const)
    it(`the turn's model answers the sample within its cap, traced under the call; the roots are the project's folders (${isolation})`, async (t) => {
      // The project folder is the registry's base folder: here, where the test runs.
      const dir = process.cwd();
      const registry = await loadRegistry(t, {
        files: { 'poem.ts': POEM_TOOL },
        config: { tools: { isolation, files: { roots: ['notes', '/srv/shared'] } } },
      });
      const store = SqliteStore.open(await tempDir(t));
      t.after(() => store.close());
      const server = await modelServer(
        t,
        replies([
          { toolCalls: [{ id: 'call_poem', name: 'poem', arguments: {} }] },
          { text: 'Water finds its way', usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } },
          { text: 'Here is your poem.' },
        ]),
      );
      const assistant = new Assistant({ model: testModel(server), registry, store });
      const result = await assistant.turn('Write a poem', { session: 'poems' });
      assert.equal(result.stopReason, 'answer');
      const call = result.toolCalls[0]!;
      assert.equal(call.result.success, true, call.result.error);
      const [model, stop, text, roots] = call.result.data.split(' | ');
      assert.match(model!, /gpt|test|:/);
      assert.equal(stop, 'endTurn');
      assert.equal(text, 'Water finds its way');
      assert.deepEqual(roots!.split(' '), [
        pathToFileURL(dir).href,
        pathToFileURL(join(dir, 'notes')).href,
        pathToFileURL('/srv/shared').href,
      ]);

      // The sample's request: the tool's system prompt and message, no tools, its maxTokens capped.
      const sampled = server.requests[1]!.body as Record<string, unknown>;
      assert.equal(sampled.tools, undefined);
      assert.deepEqual(
        (sampled.messages as Array<{ role: string; content: unknown }>).map((message) => [
          message.role,
          message.content,
        ]),
        [
          ['system', 'You write haiku.'],
          ['user', 'A haiku about rivers'],
        ],
      );
      assert.equal(sampled.max_tokens ?? sampled.max_completion_tokens, SAMPLE_MAX_TOKENS);
      assert.equal(sampled.temperature, 0.3);

      const [summary] = await store.turnTraces.list({ session: 'poems' });
      const trace = (await store.turnTraces.get(summary!.id))!;
      const callSpan = trace.spans.find((span) => span.kind === 'tool-call')!;
      const sampleSpan = trace.spans.find((span) => span.attributes['riverse.sample'] === true);
      assert.ok(sampleSpan !== undefined, 'a span for the sample');
      assert.equal(sampleSpan.kind, 'model-request');
      assert.equal(sampleSpan.parentId, callSpan.spanId);
      assert.equal(sampleSpan.status, 'ok');
      assert.equal(sampleSpan.attributes['gen_ai.usage.output_tokens'], 5);
      // The turn's own rounds are two requests; the sample is not one of them.
      assert.equal(trace.spans.filter((span) => span.kind === 'model-request').length, 3);
    });

  it('a tool run by hand (no model) gets a ContextUnavailable error that says why', async (t) => {
    const registry = await loadRegistry(t, {
      files: { 'poem.ts': POEM_TOOL },
      config: { tools: { isolation: 'worker' } },
    });
    const result = await registry.execute('poem', {});
    assert.equal(result.success, false);
    assert.match(result.error ?? '', /ContextUnavailable|none can be asked here/);
  });
});
