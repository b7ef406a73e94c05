// Riverse as a client of the reference "everything" server (npm, over stdio) when the server asks
// for a model: its trigger-sampling-request tool, called in a whole turn, sends
// sampling/createMessage back; the person is asked in the turn's channel (a question event) and,
// once they allow it, the turn's own model answers it (a model request under the call's span).
// Declined, the model is not asked and the server hears the refusal.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Assistant } from '../assistant/assistant.ts';
import type { TurnEvent } from '../assistant/turn-events.ts';
import { eventually, modelServer, sharedCleanup, tempDir, testModel } from '../assistant/turn-test-support.ts';
import { replies } from '../models/testing/wire-server.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { McpTools } from './mcp-tools.ts';

const packages = new URL('../../node_modules/@modelcontextprotocol/', import.meta.url).pathname;
const EVERYTHING = join(packages, 'server-everything/dist/index.js');
const SAMPLING_TOOL = 'everything__trigger-sampling-request';

const shared = sharedCleanup();
let registry: ToolRegistry;
let store: SqliteStore;
before(async () => {
  const dir = await tempDir(shared, 'riverse-everything-sampling-');
  const tools = await McpTools.start({
    config: {
      mcp: {
        startup_timeout_ms: 60_000,
        servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
      },
    },
    baseDir: dir,
  });
  shared.after(() => tools.close());
  registry = await ToolRegistry.load({ folders: [], sources: [tools], isolation: 'none' });
  store = SqliteStore.open(join(dir, 'data'));
  shared.after(() => store.close());
});
after(() => shared.run());

describe("a server's sampling request in a turn", () => {
  it('is put to the person first; allowed, the turn’s model answers it, traced under the call', async (t) => {
    // The server offers the tool only to a client that declared sampling: Riverse does, where a person can be asked.
    assert.ok(
      registry.get(SAMPLING_TOOL) !== undefined,
      registry
        .tools()
        .map((tool) => tool.name)
        .join(', '),
    );
    const server = await modelServer(
      t,
      replies([
        {
          toolCalls: [
            { id: 'call_s', name: SAMPLING_TOOL, arguments: { prompt: 'a haiku about rivers', maxTokens: 40 } },
          ],
        },
        { text: 'Water finds its way', usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 } },
        { text: 'The server got its haiku.' },
      ]),
    );
    const assistant = new Assistant({ model: testModel(server), registry, store });
    const events: TurnEvent[] = [];
    const turn = assistant.turn('Trigger a sampling request', { session: 'sampling', onEvent: (e) => events.push(e) });
    await eventually(() => events.some((event) => event.type === 'question'), 'the question', 30_000);
    const question = events.find((event) => event.type === 'question')!;
    assert.equal(question.type, 'question');
    assert.match(
      question.question,
      /MCP server "everything" asks to use Riverse's model for a reply of at most 40 tokens/,
    );
    assert.match(question.question, /a haiku about rivers/);
    assert.deepEqual(question.choices, ['Allow', 'Decline']);
    assert.equal(await assistant.approvals.reply(question.questionId, 'Allow'), true);
    const result = await turn;
    assert.equal(result.text, 'The server got its haiku.', JSON.stringify(result.error));
    const call = result.toolCalls[0]!;
    assert.equal(call.result.success, true, call.result.error);
    assert.match(call.result.data, /LLM sampling result/);
    assert.match(call.result.data, /Water finds its way/);
    // The server's own request reached the model: its system prompt and its bound.
    const sampled = server.requests[1]!.body as {
      messages: Array<{ role: string; content: unknown }>;
      max_tokens?: number;
      max_completion_tokens?: number;
    };
    assert.deepEqual(sampled.messages[0], { role: 'system', content: 'You are a helpful test server.' });
    assert.equal(sampled.max_tokens ?? sampled.max_completion_tokens, 40);

    const [summary] = await store.turnTraces.list({ session: 'sampling' });
    const trace = (await store.turnTraces.get(summary!.id))!;
    const callSpan = trace.spans.find((span) => span.kind === 'tool-call')!;
    const sampleSpan = trace.spans.find((span) => span.attributes['riverse.sample'] === true);
    assert.equal(sampleSpan?.parentId, callSpan.spanId);
  });

  it('declined, the model is not asked and the server hears the refusal', async (t) => {
    const server = await modelServer(
      t,
      replies([
        { toolCalls: [{ id: 'call_d', name: SAMPLING_TOOL, arguments: { prompt: 'anything', maxTokens: 10 } }] },
        { text: 'It was declined.' },
      ]),
    );
    const assistant = new Assistant({ model: testModel(server), registry, store });
    const events: TurnEvent[] = [];
    const turn = assistant.turn('Trigger a sampling request', { session: 'declined', onEvent: (e) => events.push(e) });
    await eventually(() => events.some((event) => event.type === 'question'), 'the question', 30_000);
    const question = events.find((event) => event.type === 'question')!;
    assert.equal(question.type, 'question');
    await assistant.approvals.reply(question.questionId, 'Decline');
    const result = await turn;
    assert.equal(result.text, 'It was declined.');
    assert.equal(server.requests.length, 2, 'no request for the sample');
    const call = result.toolCalls[0]!;
    assert.match(
      `${call.result.data}${call.result.error ?? ''}`,
      /declined everything's request to use Riverse's model/,
    );
  });
});
