// The turn loop against the real local OpenAI-protocol server, with tools loaded from real files:
// the weather conversation in three languages, events, parallel and exclusive tools, rounds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { replies } from '../models/testing/wire-server.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { Assistant } from './assistant.ts';
import { runTurn } from './run-turn.ts';
import type { TurnEvent } from './turn-events.ts';
import {
  assertWellFormed,
  eventOrder,
  loadRegistry,
  messagesOf,
  modelServer,
  napTool,
  sharedCleanup,
  STREAMED_ORDER,
  systemOf,
  testModel,
  textDeltas,
  toolDescription,
  toolMessagesOf,
  UNSTREAMED_ORDER,
  WEATHER_CONVERSATIONS,
  wttrServer,
  type WttrServer,
} from './turn-test-support.ts';

const shared = sharedCleanup();
let wttr: WttrServer;
let weatherTools: ToolRegistry;
before(async () => {
  wttr = await wttrServer(shared);
  weatherTools = await loadRegistry(shared, { wttrUrl: wttr.url });
});
after(() => shared.run());

/** The same conversation in each language, with the texts the weather manifest and tool give in it. */

describe('runTurn: the weather conversation', () => {
  for (const language of ['en', 'zh', 'ja'] as const) {
    for (const stream of [true, false]) {
      it(`${language}, ${stream ? 'streamed' : 'not streamed'}: calls weather, sends the result back, returns the reply`, async (t) => {
        const talk = WEATHER_CONVERSATIONS[language];
        const server = await modelServer(
          t,
          replies([{ toolCalls: [{ name: 'weather', arguments: { city: talk.city } }] }, { text: talk.answer }]),
        );
        const events: TurnEvent[] = [];
        const wttrSeen = wttr.requests.length;
        const result = await runTurn({
          model: testModel(server),
          registry: weatherTools,
          history: [],
          input: talk.input,
          language,
          stream,
          onEvent: (event) => events.push(event),
        });

        assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
        assert.equal(result.text, talk.answer);
        assert.equal(result.requests, 2);
        assert.equal(server.requests.length, 2, 'one round of calls costs exactly two model requests');
        for (const request of server.requests) assert.equal(request.body.stream, stream);

        // The first request: the user's message, the system prompt and the tool in the user's language.
        const [first, second] = server.requests as [(typeof server.requests)[0], (typeof server.requests)[0]];
        assert.ok(systemOf(first).startsWith(talk.system), systemOf(first));
        assert.ok(toolDescription(first, 'weather')?.startsWith(talk.description), toolDescription(first, 'weather'));
        assert.deepEqual(messagesOf(first), [{ role: 'user', content: talk.input }]);

        // The tool ran against the local wttr.in, in the user's language.
        assert.deepEqual(wttr.requests.slice(wttrSeen), [{ city: talk.city, lang: language }]);
        assert.equal(result.toolCalls.length, 1);
        assert.deepEqual(result.toolCalls[0]!.params, { city: talk.city });
        assert.equal(result.toolCalls[0]!.result.success, true);

        // The second request carries the call and its result.
        const sent = messagesOf(second);
        assert.equal(sent.length, 3);
        assert.equal(sent[1]!.role, 'assistant');
        assert.equal(sent[1]!.tool_calls?.[0]?.id, 'call_1');
        assert.equal(sent[1]!.tool_calls?.[0]?.function?.name, 'weather');
        assert.deepEqual(toolMessagesOf(second), [{ role: 'tool', tool_call_id: 'call_1', content: talk.toolSays }]);
        assert.ok(systemOf(second).startsWith(talk.system));
        assert.ok(second.body.tools !== undefined, 'the tools are offered again after the results');

        // What the turn added to the conversation.
        assert.deepEqual(result.messages, [
          { role: 'user', content: talk.input },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'call_1', name: 'weather', arguments: JSON.stringify({ city: talk.city }) }],
          },
          { role: 'tool', toolCallId: 'call_1', name: 'weather', content: talk.toolSays },
          { role: 'assistant', content: talk.answer },
        ]);
        assertWellFormed(result.messages);

        // Events, in order.
        assert.deepEqual(eventOrder(events), stream ? STREAMED_ORDER : UNSTREAMED_ORDER);
        assert.equal(textDeltas(events).join(''), talk.answer);
        if (stream) assert.ok(textDeltas(events).length > 1, 'a streamed reply arrives in pieces');
        const done = events.at(-1);
        assert.ok(done?.type === 'done' && done.result === result);
        const committed = events.flatMap((event) => (event.type === 'messages' ? event.messages : []));
        assert.deepEqual(committed, result.messages, 'the messages events carry exactly the turn messages');
      });
    }
  }

  it('a turn without tool calls costs exactly one model request (tools still offered)', async (t) => {
    const server = await modelServer(t, { text: 'Hello! How can I help?' });
    const events: TurnEvent[] = [];
    const result = await runTurn({
      model: testModel(server),
      registry: weatherTools,
      history: [],
      input: 'Hi there',
      language: 'en',
      onEvent: (event) => events.push(event),
    });
    assert.equal(result.stopReason, 'answer');
    assert.equal(result.text, 'Hello! How can I help?');
    assert.equal(result.requests, 1);
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]!.body.tools?.length, 1);
    assert.deepEqual(result.toolCalls, []);
    assert.deepEqual(eventOrder(events), ['messages', 'text-delta', 'messages', 'done']);
    assert.ok(result.usage.inputTokens! > 0 && result.usage.outputTokens! > 0, 'usage is counted');
  });

  it('sends the history before the new message', async (t) => {
    const server = await modelServer(t, { text: 'Still 16 °C.' });
    const history = [
      { role: 'user' as const, content: 'Weather in Tokyo?' },
      { role: 'assistant' as const, content: 'It is 16 °C.' },
    ];
    const result = await runTurn({
      model: testModel(server),
      registry: weatherTools,
      history,
      input: 'And now?',
      language: 'en',
    });
    assert.equal(result.stopReason, 'answer');
    assert.deepEqual(messagesOf(server.requests[0]!), [...history, { role: 'user', content: 'And now?' }]);
    assert.deepEqual(
      result.messages,
      [
        { role: 'user', content: 'And now?' },
        { role: 'assistant', content: 'Still 16 °C.' },
      ],
      'the history is not repeated in the result',
    );
  });
});

describe('Assistant.stream()', () => {
  for (const stream of [true, false]) {
    it(`yields the turn's events in order, ending with done (${stream ? 'streamed' : 'not streamed'})`, async (t) => {
      const talk = WEATHER_CONVERSATIONS.en;
      const server = await modelServer(
        t,
        replies([{ toolCalls: [{ name: 'weather', arguments: { city: 'Tokyo' } }] }, { text: talk.answer }]),
      );
      const assistant = new Assistant({ model: testModel(server), registry: weatherTools, stream });
      const events: TurnEvent[] = [];
      for await (const event of assistant.stream(talk.input)) events.push(event);
      assert.deepEqual(eventOrder(events), stream ? STREAMED_ORDER : UNSTREAMED_ORDER);
      assert.equal(textDeltas(events).join(''), talk.answer);
      const done = events.at(-1);
      assert.ok(done?.type === 'done');
      assert.equal(done.result.stopReason, 'answer');
      assert.equal(done.result.text, talk.answer);
      const call = events.find((event) => event.type === 'tool-call');
      const result = events.find((event) => event.type === 'tool-result');
      assert.deepEqual(call, { type: 'tool-call', callId: 'call_1', tool: 'weather', params: { city: 'Tokyo' } });
      assert.ok(
        result?.type === 'tool-result' && result.call.result.success && result.call.result.data === talk.toolSays,
      );
      assert.equal(server.requests.length, 2);
    });
  }
});

describe('runTurn: several tools in one round', () => {
  let tools: ToolRegistry;
  before(async () => {
    tools = await loadRegistry(shared, {
      files: {
        'nap_a.ts': napTool('nap_a'),
        'nap_b.ts': napTool('nap_b'),
        'nap_alone.ts': napTool('nap_alone', { exclusive: true }),
      },
    });
    // The first call of a tool compiles its parameter validator: not part of what the timings measure.
    for (const name of ['nap_a', 'nap_b', 'nap_alone'])
      assert.equal((await tools.execute(name, { ms: 0 })).success, true);
  });

  const times = (data: string) => JSON.parse(data) as { tool: string; start: number; end: number };

  it('run in parallel, and their results come back in call order', async (t) => {
    const server = await modelServer(
      t,
      replies([
        {
          toolCalls: [
            { name: 'nap_a', arguments: { ms: 170 }, id: 'call_a' },
            { name: 'nap_b', arguments: { ms: 30 }, id: 'call_b' },
          ],
        },
        { text: 'Both done.' },
      ]),
    );
    const order: string[] = [];
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Take two naps',
      language: 'en',
      onEvent: (event) => {
        if (event.type === 'tool-call') order.push(`call ${event.tool}`);
        if (event.type === 'tool-result') order.push(`result ${event.call.tool}`);
      },
    });
    assert.equal(result.stopReason, 'answer');
    assert.deepEqual(
      order.slice(0, 2),
      ['call nap_a', 'call nap_b'],
      `both started before either ended: ${order.join(', ')}`,
    );

    assert.deepEqual(
      result.toolCalls.map((call) => [call.callId, call.tool]),
      [
        ['call_a', 'nap_a'],
        ['call_b', 'nap_b'],
      ],
    );
    const [a, b] = result.toolCalls.map((call) => times(call.result.data)) as [
      ReturnType<typeof times>,
      ReturnType<typeof times>,
    ];
    assert.ok(Math.max(a.start, b.start) < Math.min(a.end, b.end), 'the two calls overlapped');
    assert.ok(b.end <= a.end, 'nap_b finished first, yet its result comes second');
    assert.deepEqual(
      toolMessagesOf(server.requests[1]!).map((message) => [message.tool_call_id, times(message.content!).tool]),
      [
        ['call_a', 'nap_a'],
        ['call_b', 'nap_b'],
      ],
    );
    assertWellFormed(result.messages);
  });

  it('a tool marked exclusive runs alone', async (t) => {
    const server = await modelServer(
      t,
      replies([
        {
          toolCalls: [
            { name: 'nap_a', arguments: { ms: 80 }, id: 'call_a' },
            { name: 'nap_alone', arguments: { ms: 80 }, id: 'call_alone' },
            { name: 'nap_b', arguments: { ms: 80 }, id: 'call_b' },
          ],
        },
        { text: 'All done.' },
      ]),
    );
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Nap three times',
      language: 'en',
    });
    assert.equal(result.stopReason, 'answer');
    assert.deepEqual(
      result.toolCalls.map((call) => call.tool),
      ['nap_a', 'nap_alone', 'nap_b'],
    );
    const [a, alone, b] = result.toolCalls.map((call) => times(call.result.data)) as Array<ReturnType<typeof times>>;
    for (const other of [a!, b!]) {
      const overlap = Math.min(alone!.end, other.end) - Math.max(alone!.start, other.start);
      assert.ok(
        overlap <= 0,
        `${other.tool} ran ${overlap} ms at the same time as the exclusive tool: ${JSON.stringify({ alone, other })}`,
      );
    }
    assert.deepEqual(
      toolMessagesOf(server.requests[1]!).map((message) => message.tool_call_id),
      ['call_a', 'call_alone', 'call_b'],
    );
  });
});

describe('runTurn: rounds', () => {
  it('runs several rounds: call → result → another call → result → answer', async (t) => {
    const server = await modelServer(
      t,
      replies([
        { toolCalls: [{ name: 'weather', arguments: { city: 'Tokyo' }, id: 'call_tokyo' }] },
        {
          text: 'Let me check Paris too.',
          toolCalls: [{ name: 'weather', arguments: { city: 'Paris' }, id: 'call_paris' }],
        },
        { text: 'Tokyo and Paris are both at 16 °C.' },
      ]),
    );
    const result = await runTurn({
      model: testModel(server),
      registry: weatherTools,
      history: [],
      input: 'Compare Tokyo and Paris',
      language: 'en',
    });
    assert.equal(result.stopReason, 'answer');
    assert.equal(result.text, 'Tokyo and Paris are both at 16 °C.');
    assert.equal(result.requests, 3);
    assert.equal(server.requests.length, 3);
    assert.deepEqual(
      toolMessagesOf(server.requests[1]!).map((message) => message.tool_call_id),
      ['call_tokyo'],
    );
    assert.deepEqual(
      toolMessagesOf(server.requests[2]!).map((message) => message.tool_call_id),
      ['call_tokyo', 'call_paris'],
    );
    assert.ok(toolMessagesOf(server.requests[2]!)[1]!.content!.startsWith('Paris: '));
    assert.deepEqual(
      result.messages.map((message) => message.role),
      ['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant'],
    );
    assert.equal(result.messages[3]!.content, 'Let me check Paris too.', 'text beside a call is kept');
    assertWellFormed(result.messages);
    for (const request of server.requests) assert.ok(request.body.tools !== undefined);
  });

  it('stops at maxRounds: the last request goes without tools, stopReason round-limit', async (t) => {
    let calls = 0;
    const server = await modelServer(t, (request) =>
      request.body.tools !== undefined
        ? { toolCalls: [{ name: 'weather', arguments: { city: 'Tokyo' }, id: `call_${++calls}` }] }
        : { text: 'Tokyo is at 16 °C.' },
    );
    const result = await runTurn({
      model: testModel(server),
      registry: weatherTools,
      history: [],
      input: 'Keep checking Tokyo',
      language: 'en',
      maxRounds: 2,
    });
    assert.equal(result.stopReason, 'round-limit');
    assert.equal(result.text, 'Tokyo is at 16 °C.');
    assert.equal(server.requests.length, 3);
    assert.equal(result.requests, 3);
    assert.equal(result.toolCalls.length, 2);
    assert.ok(server.requests[0]!.body.tools !== undefined && server.requests[1]!.body.tools !== undefined);
    const last = server.requests[2]!;
    assert.equal(last.body.tools, undefined, 'the final request offers no tools');
    assert.match(systemOf(last), /Stopped after 2 rounds of tool calls/);
    assert.equal(toolMessagesOf(last).length, 2, 'the final request still has every result');
    assert.deepEqual(result.messages.at(-1), { role: 'assistant', content: 'Tokyo is at 16 °C.' });
    assertWellFormed(result.messages);
  });
});
