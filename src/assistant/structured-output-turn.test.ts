// A turn asked for JSON or for a tool choice, against the real local OpenAI-protocol server, in
// the text protocol (where nothing can be forced on the wire) and natively.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { replies } from '../models/testing/wire-server.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { runTurn } from './run-turn.ts';
import type { TurnEvent } from './turn-events.ts';
import {
  loadRegistry,
  modelServer,
  sharedCleanup,
  systemOf,
  testModel,
  textDeltas,
  wttrServer,
} from './turn-test-support.ts';

const shared = sharedCleanup();
let tools: ToolRegistry;
before(async () => {
  const wttr = await wttrServer(shared);
  tools = await loadRegistry(shared, { wttrUrl: wttr.url });
});
after(() => shared.run());

const FENCE = '```';
const TOKYO_CALL = `${FENCE}json\n{"tool": "weather", "arguments": {"city": "Tokyo"}}\n${FENCE}`;
const FORMAT = {
  type: 'json_schema' as const,
  name: 'weather',
  schema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
};

describe('a turn asked for JSON', () => {
  it('in the text protocol: a call still runs, the format is told and not sent beside tools, the answer shown once checked', async (t) => {
    const server = await modelServer(t, replies([{ text: TOKYO_CALL }, { text: 'Warm.' }, { text: '{"celsius":16}' }]));
    const events: TurnEvent[] = [];
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Weather in Tokyo as JSON?',
      language: 'en',
      toolCalling: 'text',
      responseFormat: FORMAT,
      onEvent: (event) => events.push(event),
    });
    assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
    assert.equal(result.text, '{"celsius":16}');
    assert.equal(result.toolCalls.length, 1);
    // Only the checked answer reached the listener: not the call, not the prose.
    assert.deepEqual(textDeltas(events), ['{"celsius":16}']);
    assert.equal(server.requests.length, 3);
    for (const request of server.requests) {
      assert.equal(request.body.response_format, undefined);
      assert.match(systemOf(request), /matches this JSON Schema/);
    }
  });

  it("speaks the person's language when it asks again", async (t) => {
    const server = await modelServer(t, replies([{ text: '晴れ' }, { text: '{"celsius":20}' }]));
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: '東京の天気は？',
      language: 'ja',
      responseFormat: FORMAT,
    });
    assert.equal(result.text, '{"celsius":20}');
    assert.match(String(server.requests[1]!.body.messages.at(-1)!.content), /求められた JSON ではありません/);
  });
});

describe('a turn with a tool choice', () => {
  it('none: no tools are offered, natively or in the text protocol', async (t) => {
    const server = await modelServer(t, { text: 'No tools today.' });
    for (const toolCalling of ['native', 'text'] as const) {
      const result = await runTurn({
        model: testModel(server),
        registry: tools,
        history: [],
        input: 'Weather in Tokyo?',
        language: 'en',
        toolCalling,
        toolChoice: 'none',
      });
      assert.equal(result.text, 'No tools today.');
    }
    for (const request of server.requests) {
      assert.equal(request.body.tools, undefined);
      assert.doesNotMatch(systemOf(request), /"tool":/);
    }
  });

  it('required in the text protocol: the model is told to call, once', async (t) => {
    const server = await modelServer(t, replies([{ text: TOKYO_CALL }, { text: 'It is 16 °C.' }]));
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Tokyo?',
      language: 'en',
      toolCalling: 'text',
      toolChoice: 'required',
    });
    assert.equal(result.stopReason, 'answer');
    assert.match(systemOf(server.requests[0]!), /call one of the tools now/);
    assert.doesNotMatch(systemOf(server.requests[1]!), /call one of the tools now/);
  });

  it('a name no tool has ends the turn before any request, with invalid-tool-choice', async (t) => {
    const server = await modelServer(t, { text: 'unused' });
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Tokyo?',
      language: 'zh',
      toolChoice: { name: 'nope' },
    });
    assert.equal(result.error?.code, 'invalid-tool-choice');
    assert.match(result.text, /“nope”/);
    assert.equal(server.requests.length, 0);
  });
});
