// The memory of models that refuse native tools: kept by whoever owns the turns (each Assistant its
// own), and never over an explicit toolCalling. Against the real local OpenAI-protocol server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChatModel } from '../models/chat-model.ts';
import type { OpenAITestServer } from '../models/testing/openai-wire.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { Assistant } from './assistant.ts';
import { runTurn } from './run-turn.ts';
import { TextOnlyModels } from './text-only-models.ts';
import {
  loadRegistry,
  modelServer,
  sharedCleanup,
  systemOf,
  testModel,
  wttrServer,
  type Cleanup,
} from './turn-test-support.ts';

const shared = sharedCleanup();
let tools: ToolRegistry;
before(async () => {
  const wttr = await wttrServer(shared);
  tools = await loadRegistry(shared, { wttrUrl: wttr.url });
});
after(() => shared.run());

/** A server whose model has no function calling, as Ollama says it; without tools it says hello. */
async function noToolsServer(t: Cleanup): Promise<OpenAITestServer> {
  return modelServer(t, (request) => {
    if (request.body.tools !== undefined)
      return { status: 400, error: 'registry.ollama.ai/library/gemma:2b does not support tools' };
    return { text: 'Hello.' };
  });
}

/** For each request so far: whether it offered native tools (`native`) or the text protocol's (`text`). */
function modes(server: OpenAITestServer): string[] {
  return server.requests.map((request) =>
    request.body.tools !== undefined ? 'native' : /## Tools/.test(systemOf(request)) ? 'text' : 'none',
  );
}

describe('TextOnlyModels', () => {
  it('knows a model by its id; the memory of a model object is its own', () => {
    const model = (id: string) => ({ id, toolCalling: 'native' }) as unknown as ChatModel;
    const memory = new TextOnlyModels();
    memory.add(model('ollama:gemma:2b'));
    assert.equal(memory.has(model('ollama:gemma:2b')), true);
    assert.equal(memory.has(model('ollama:qwen3')), false);
    const one = model('ollama:gemma:2b');
    assert.equal(TextOnlyModels.of(one), TextOnlyModels.of(one));
    assert.notEqual(TextOnlyModels.of(one), TextOnlyModels.of(model('ollama:gemma:2b')));
  });
});

describe('Assistant: a model that refuses native tools', () => {
  it('is remembered by the assistant that found it, not by another on the same model', async (t) => {
    const server = await noToolsServer(t);
    const model = testModel(server, { model: 'gemma:2b' });
    const first = new Assistant({ model, registry: tools });
    const second = new Assistant({ model, registry: tools });

    const found = await first.turn('Hi');
    assert.equal(found.stopReason, 'answer', JSON.stringify(found.error));
    assert.equal(found.text, 'Hello.');
    assert.deepEqual(modes(server), ['native', 'text'], 'refused, then asked again in the text protocol');

    assert.equal((await first.turn('Hi again')).stopReason, 'answer');
    assert.deepEqual(modes(server).slice(2), ['text'], 'its next turn goes straight to the text protocol');

    const other = await second.turn('Hi');
    assert.equal(other.stopReason, 'answer', JSON.stringify(other.error));
    assert.deepEqual(modes(server).slice(3), ['native', 'text'], 'the other assistant finds out for itself');
  });

  it("with toolCalling: native set, stays native: the refusal is the turn's error, every turn", async (t) => {
    const server = await noToolsServer(t);
    const assistant = new Assistant({
      model: testModel(server, { model: 'gemma:2b' }),
      registry: tools,
      toolCalling: 'native',
    });
    for (const input of ['Hi', 'Hi again']) {
      const result = await assistant.turn(input);
      assert.equal(result.stopReason, 'error');
      assert.equal(result.error?.code, 'bad-request');
      assert.match(result.error!.message, /does not support tools/);
      assert.match(result.text, /does not support tools/);
    }
    assert.deepEqual(modes(server), ['native', 'native'], 'never the text protocol');
  });
});

describe('runTurn: the memory and an explicit toolCalling', () => {
  it('a model remembered as refusing native tools is still asked natively when toolCalling says native', async (t) => {
    const server = await noToolsServer(t);
    const model = testModel(server, { model: 'gemma:2b' });
    const textOnly = new TextOnlyModels();
    textOnly.add(model);

    const remembered = await runTurn({ model, registry: tools, history: [], input: 'Hi', language: 'en', textOnly });
    assert.equal(remembered.stopReason, 'answer');
    assert.deepEqual(modes(server), ['text'], "the memory stands in for the model's own mode");

    const explicit = await runTurn({
      model,
      registry: tools,
      history: [],
      input: 'Hi',
      language: 'en',
      textOnly,
      toolCalling: 'native',
    });
    assert.equal(explicit.stopReason, 'error');
    assert.equal(explicit.error?.code, 'bad-request');
    assert.deepEqual(modes(server).slice(1), ['native']);
  });

  it("a memory given to the turn is the one it fills, not the model's own", async (t) => {
    const server = await noToolsServer(t);
    const model = testModel(server, { model: 'gemma:2b' });
    const textOnly = new TextOnlyModels();
    assert.equal(
      (await runTurn({ model, registry: tools, history: [], input: 'Hi', language: 'en', textOnly })).stopReason,
      'answer',
    );
    assert.equal(textOnly.has(model), true);
    assert.equal(TextOnlyModels.of(model).has(model), false);
  });
});
