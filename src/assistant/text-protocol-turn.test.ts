// The turn loop under the text protocol (models without function calling), against the real local
// OpenAI-protocol server: instructions in the system prompt, a fenced JSON call parsed and run, the
// results sent back as a user message, one repair round, and the automatic fallback.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { replies } from '../models/testing/wire-server.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { runTurn } from './run-turn.ts';
import type { TurnEvent } from './turn-events.ts';
import {
  loadRegistry,
  messagesOf,
  modelServer,
  sharedCleanup,
  SKY,
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
const block = (json: string) => `${FENCE}json\n${json}\n${FENCE}`;
const TOKYO_CALL = block('{"tool": "weather", "arguments": {"city": "Tokyo"}}');
/** The closing brace of the call is missing. */
const BROKEN_CALL = block('{"tool": "weather", "arguments": {"city": "Tokyo"}');

describe('runTurn with toolCalling: text', () => {
  it('puts the tools in the system prompt, runs a fenced JSON call, returns the results as a user message', async (t) => {
    const server = await modelServer(t, replies([{ text: TOKYO_CALL }, { text: 'It is 16 °C in Tokyo.' }]));
    const events: TurnEvent[] = [];
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Weather in Tokyo?',
      language: 'en',
      toolCalling: 'text',
      onEvent: (event) => events.push(event),
    });

    assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
    assert.equal(result.text, 'It is 16 °C in Tokyo.');
    assert.equal(server.requests.length, 2);
    for (const request of server.requests)
      assert.equal(request.body.tools, undefined, 'no native tools in a text-protocol request');

    const system = systemOf(server.requests[0]!);
    assert.ok(system.startsWith('You are Riverse'));
    assert.match(system, /## Tools\nTo call a tool, reply with ONLY a fenced JSON block/);
    assert.match(system, /- weather: Get the current weather for a city/);
    assert.match(system, /"city":\{"type":"string"/);

    assert.equal(result.toolCalls.length, 1);
    assert.equal(result.toolCalls[0]!.tool, 'weather');
    assert.deepEqual(result.toolCalls[0]!.params, { city: 'Tokyo' });
    assert.equal(result.toolCalls[0]!.result.success, true);

    const sent = messagesOf(server.requests[1]!);
    assert.deepEqual(
      sent.map((message) => message.role),
      ['user', 'assistant', 'user'],
    );
    assert.equal(sent[1]!.content, TOKYO_CALL, "the model's own call block is kept as it wrote it");
    assert.equal(sent[1]!.tool_calls, undefined);
    const results = sent[2]!.content!;
    assert.match(results, /^\[Tool results\]\n\n1\. weather \(succeeded\)\n```\nTokyo: Partly cloudy, 16°C/);
    assert.match(results, /Answer the user with these results/);

    // The user sees the answer, never the call block.
    assert.equal(textDeltas(events).join(''), 'It is 16 °C in Tokyo.');
    assert.deepEqual(
      result.messages.map((message) => message.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
  });

  it('speaks the user language: instructions and results in Japanese', async (t) => {
    const server = await modelServer(
      t,
      replies([{ text: block('{"tool": "weather", "arguments": {"city": "東京"}}') }, { text: '東京は 16°C です。' }]),
    );
    const result = await runTurn({
      model: testModel(server, { toolCalling: 'text' }),
      registry: tools,
      history: [],
      input: '東京の天気は？',
      language: 'ja',
    });
    assert.equal(result.stopReason, 'answer');
    const system = systemOf(server.requests[0]!);
    assert.ok(system.startsWith('あなたは Riverse'));
    assert.match(system, /## ツール/);
    assert.match(system, /- weather: 指定した都市の現在の天気を調べる/);
    const results = messagesOf(server.requests[1]!)[2]!.content!;
    assert.match(results, /^\[ツールの結果\]\n\n1\. weather \(成功\)/);
    assert.ok(results.includes(`東京：${SKY.ja}、16°C`));
  });

  it('a failed call is reported as FAILED in the results', async (t) => {
    const server = await modelServer(
      t,
      replies([{ text: block('{"tool": "weather", "arguments": {}}') }, { text: 'Which city?' }]),
    );
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Weather?',
      language: 'en',
      toolCalling: 'text',
    });
    assert.equal(result.stopReason, 'answer');
    const results = messagesOf(server.requests[1]!)[2]!.content!;
    assert.match(results, /1\. weather \(FAILED\)\n```\nError: Invalid parameters for weather:/);
    assert.match(results, /Expected:/);
  });

  it('a plain answer costs one request and reaches the user whole', async (t) => {
    const server = await modelServer(t, { text: 'Hello! Nothing to look up.' });
    const events: TurnEvent[] = [];
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Hi',
      language: 'en',
      toolCalling: 'text',
      onEvent: (event) => events.push(event),
    });
    assert.equal(result.stopReason, 'answer');
    assert.equal(result.text, 'Hello! Nothing to look up.');
    assert.equal(server.requests.length, 1);
    assert.equal(textDeltas(events).join(''), 'Hello! Nothing to look up.');
  });

  it('a malformed call gets one repair round that names the error', async (t) => {
    const server = await modelServer(
      t,
      replies([{ text: BROKEN_CALL }, { text: TOKYO_CALL }, { text: 'It is 16 °C in Tokyo.' }]),
    );
    const events: TurnEvent[] = [];
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Weather in Tokyo?',
      language: 'en',
      toolCalling: 'text',
      onEvent: (event) => events.push(event),
    });

    assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
    assert.equal(result.text, 'It is 16 °C in Tokyo.');
    assert.equal(server.requests.length, 3);
    const repair = messagesOf(server.requests[1]!);
    assert.deepEqual(
      repair.map((message) => message.role),
      ['user', 'assistant', 'user'],
    );
    assert.equal(repair[1]!.content, BROKEN_CALL);
    assert.match(repair[2]!.content!, /^Your tool call could not be used:\nThe ```json block is not valid JSON: /);
    assert.match(repair[2]!.content!, /Expected \{"tool": "<tool name>", "arguments": \{\.\.\.\}\}/);
    assert.ok(systemOf(server.requests[1]!).includes('## Tools'), 'the repair request still has the instructions');
    assert.ok(
      events.some((event) => event.type === 'retry' && /not valid JSON/.test(event.reason)),
      'a retry event says why',
    );
    assert.equal(result.toolCalls.length, 1);
    assert.equal(result.toolCalls[0]!.result.success, true);
  });

  it('if the repair fails too, the turn ends with error unparsable-tool-call, never a silent "no tools"', async (t) => {
    const server = await modelServer(t, { text: BROKEN_CALL });
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Weather in Tokyo?',
      language: 'en',
      toolCalling: 'text',
    });
    assert.equal(result.stopReason, 'error');
    assert.equal(result.error?.code, 'unparsable-tool-call');
    assert.match(result.error!.message, /not valid JSON/);
    assert.match(result.text, /^The model tried to call a tool but its request could not be understood: /);
    assert.equal(server.requests.length, 2, 'one repair round only');
    assert.deepEqual(result.toolCalls, []);
  });
});

describe('runTurn: falling back to the text protocol', () => {
  it('a server answering "does not support tools" to native tools gets the text protocol, in this turn and the next', async (t) => {
    let textReplies = 0;
    const server = await modelServer(t, (request) => {
      if (request.body.tools !== undefined)
        return { status: 400, error: 'registry.ollama.ai/library/gemma:2b does not support tools' };
      const turnReplies = [TOKYO_CALL, 'It is 16 °C in Tokyo.', 'Hello again.'];
      return { text: turnReplies[textReplies++] ?? 'unexpected' };
    });
    // Without a `textOnly` of the caller's, the fallback is remembered with the model object, for its next turn.
    const model = testModel(server, { model: 'gemma:2b' });
    assert.equal(model.toolCalling, 'native');

    const result = await runTurn({ model, registry: tools, history: [], input: 'Weather in Tokyo?', language: 'en' });
    assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
    assert.equal(result.text, 'It is 16 °C in Tokyo.');
    assert.equal(result.toolCalls[0]?.result.success, true);
    assert.equal(server.requests.length, 3);
    assert.equal(result.requests, 3, 'the refused request counts');
    assert.ok(server.requests[0]!.body.tools !== undefined, 'native tools were tried first');
    assert.equal(server.requests[1]!.body.tools, undefined);
    assert.match(systemOf(server.requests[1]!), /## Tools/);
    assert.deepEqual(
      messagesOf(server.requests[1]!),
      [{ role: 'user', content: 'Weather in Tokyo?' }],
      'the failed request left nothing behind',
    );
    assert.equal(messagesOf(server.requests[2]!)[2]!.role, 'user');

    const next = await runTurn({ model, registry: tools, history: result.messages, input: 'Hi', language: 'en' });
    assert.equal(next.stopReason, 'answer');
    assert.equal(next.text, 'Hello again.');
    assert.equal(server.requests.length, 4, 'the next turn goes straight to the text protocol');
    assert.match(systemOf(server.requests[3]!), /## Tools/);
  });

  it('another 400 is reported, not taken for a missing tool feature', async (t) => {
    const server = await modelServer(t, { status: 400, error: "Invalid value for 'messages'" });
    const result = await runTurn({
      model: testModel(server, { model: 'strict-model' }),
      registry: tools,
      history: [],
      input: 'Hello',
      language: 'en',
    });
    assert.equal(result.stopReason, 'error');
    assert.equal(result.error?.code, 'bad-request');
    assert.equal(server.requests.length, 1);
  });
});
