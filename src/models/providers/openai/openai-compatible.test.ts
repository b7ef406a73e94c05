import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { ChatMessage } from '../../chat-message.ts';
import type { ToolDefinition } from '../../chat-model.ts';
import { createOpenAICompatibleModel, type OpenAICompatibleOptions } from './openai-compatible.ts';
import {
  startOpenAITestServer,
  type OpenAITestServer,
  type ReplyHandler,
  type ReplySpec,
} from '../../testing/openai-wire.ts';
import { callsOf, collect, failure, finishOf, textOf } from '../../testing/model-events.ts';

const open: OpenAITestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function serve(handler: ReplyHandler | ReplySpec): Promise<OpenAITestServer> {
  const server = await startOpenAITestServer(handler);
  open.push(server);
  return server;
}

function modelFor(server: OpenAITestServer, options: Partial<OpenAICompatibleOptions> = {}) {
  return createOpenAICompatibleModel({
    model: 'test-model',
    baseUrl: server.url,
    apiKey: 'sk-test',
    retryDelayMs: 5,
    ...options,
  });
}

const ASK: ChatMessage[] = [{ role: 'user', content: 'What is the weather in Tokyo?' }];

const WEATHER: ToolDefinition = {
  name: 'weather',
  description: 'Current weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
};

describe('createOpenAICompatibleModel: replies', () => {
  it('streams a text reply as text deltas, then finish with usage', async () => {
    const server = await serve({
      text: 'Sunny and 21 C in Tokyo.',
      usage: { prompt_tokens: 12, completion_tokens: 7 },
    });
    const events = await collect(modelFor(server).stream({ messages: ASK, stream: true }));
    assert.ok(events.filter((event) => event.type === 'text-delta').length > 1, 'several deltas');
    assert.equal(textOf(events), 'Sunny and 21 C in Tokyo.');
    assert.deepEqual(finishOf(events), { type: 'finish', reason: 'stop', usage: { inputTokens: 12, outputTokens: 7 } });
  });

  it('gives the same events without streaming', async () => {
    const server = await serve({ text: 'Sunny.', usage: { prompt_tokens: 3, completion_tokens: 2 } });
    const events = await collect(modelFor(server).stream({ messages: ASK }));
    assert.deepEqual(events, [
      { type: 'text-delta', text: 'Sunny.' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 3, outputTokens: 2 } },
    ]);
  });

  it('streams a tool call whose arguments come over several chunks', async () => {
    const server = await serve({
      toolCalls: [{ name: 'weather', arguments: { city: 'Tokyo', unit: 'celsius' }, id: 'call_abc' }],
      argumentPieces: 4,
    });
    const events = await collect(modelFor(server).stream({ messages: ASK, tools: [WEATHER], stream: true }));
    const deltas = events.filter((event) => event.type === 'tool-call-delta');
    assert.equal(deltas.length, 5);
    assert.deepEqual(deltas[0], {
      type: 'tool-call-delta',
      index: 0,
      id: 'call_abc',
      name: 'weather',
      argumentsDelta: '',
    });
    assert.equal(deltas.map((delta) => delta.argumentsDelta).join(''), '{"city":"Tokyo","unit":"celsius"}');
    assert.deepEqual(callsOf(events), [
      { id: 'call_abc', name: 'weather', arguments: '{"city":"Tokyo","unit":"celsius"}' },
    ]);
    assert.equal(finishOf(events)?.type === 'finish' && finishOf(events)?.type, 'finish');
    assert.deepEqual(
      { ...finishOf(events), usage: undefined },
      { type: 'finish', reason: 'tool-calls', usage: undefined },
    );
  });

  it('assembles several tool calls that follow text, streaming or not', async () => {
    const reply: ReplySpec = {
      text: 'Let me check both.',
      toolCalls: [
        { name: 'weather', arguments: { city: 'Tokyo' } },
        { name: 'weather', arguments: '{"city":"Paris"}' },
      ],
    };
    const server = await serve(reply);
    for (const stream of [true, false]) {
      const events = await collect(modelFor(server).stream({ messages: ASK, tools: [WEATHER], stream }));
      assert.equal(textOf(events), 'Let me check both.');
      assert.deepEqual(callsOf(events), [
        { id: 'call_1', name: 'weather', arguments: '{"city":"Tokyo"}' },
        { id: 'call_2', name: 'weather', arguments: '{"city":"Paris"}' },
      ]);
      const finish = finishOf(events);
      assert.equal(finish?.type === 'finish' ? finish.reason : undefined, 'tool-calls');
    }
  });

  it('makes ids for tool calls sent without them, whole in one chunk, with finish_reason stop (Ollama, llama.cpp)', async () => {
    const server = await serve({
      toolCalls: [
        { name: 'weather', arguments: { city: 'Tokyo' }, id: null },
        { name: 'weather', arguments: { city: 'Oslo' }, id: null },
      ],
      wholeToolCalls: true,
      finishReason: 'stop',
    });
    for (const stream of [true, false]) {
      const events = await collect(modelFor(server).stream({ messages: ASK, tools: [WEATHER], stream }));
      const calls = callsOf(events);
      assert.deepEqual(
        calls.map((call) => call.arguments),
        ['{"city":"Tokyo"}', '{"city":"Oslo"}'],
      );
      for (const call of calls) assert.match(call.id, /^call_\d+_\w+$/);
      assert.notEqual(calls[0]?.id, calls[1]?.id);
      const finish = finishOf(events);
      assert.equal(finish?.type === 'finish' ? finish.reason : undefined, 'tool-calls');
    }
  });

  it('tells calls apart when a server leaves out `index`, and accepts arguments sent as an object', async () => {
    const piece = (call: object, finish: string | null = null) => ({
      choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: finish }],
    });
    const server = await serve({
      events: [
        piece({ function: { name: 'weather', arguments: '{"city":' } }),
        piece({ function: { arguments: '"Tokyo"}' } }),
        piece({ function: { name: 'weather', arguments: { city: 'Oslo' } } }),
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      ],
    });
    const events = await collect(modelFor(server).stream({ messages: ASK, stream: true }));
    assert.deepEqual(
      callsOf(events).map((call) => [call.name, call.arguments]),
      [
        ['weather', '{"city":"Tokyo"}'],
        ['weather', '{"city":"Oslo"}'],
      ],
    );
  });

  it('maps finish reasons, and finishes a stream that has [DONE] but no finish_reason', async () => {
    const reasons: [string | null, string][] = [
      ['length', 'length'],
      ['content_filter', 'content-filter'],
      ['something_new', 'other'],
      [null, 'stop'],
    ];
    for (const [wire, reason] of reasons) {
      const server = await serve({ text: 'cut', finishReason: wire });
      for (const stream of [true, false]) {
        const finish = finishOf(await collect(modelFor(server).stream({ messages: ASK, stream })));
        assert.equal(finish?.type === 'finish' ? finish.reason : undefined, reason, `${wire} stream=${stream}`);
      }
    }
  });

  it('accepts a plain JSON answer to a streaming request', async () => {
    const completion = {
      choices: [{ index: 0, message: { role: 'assistant', content: 'not streamed' }, finish_reason: 'stop' }],
    };
    const server = await serve({ body: JSON.stringify(completion) });
    const events = await collect(modelFor(server).stream({ messages: ASK, stream: true }));
    assert.deepEqual(events, [
      { type: 'text-delta', text: 'not streamed' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('accepts a stream that has finish_reason but no [DONE]', async () => {
    const server = await serve({ text: 'done anyway', done: false });
    const events = await collect(modelFor(server).stream({ messages: ASK, stream: true }));
    assert.equal(textOf(events), 'done anyway');
    assert.equal(finishOf(events)?.type, 'finish');
  });
});

describe('createOpenAICompatibleModel: the request', () => {
  it('sends the system prompt first, then assistant tool calls and tool results in OpenAI form', async () => {
    const server = await serve({ text: 'ok' });
    const messages: ChatMessage[] = [
      ...ASK,
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_9', name: 'weather', arguments: '{"city":"Tokyo"}' }] },
      { role: 'tool', toolCallId: 'call_9', name: 'weather', content: 'Sunny, 21 C' },
      { role: 'assistant', content: 'It is sunny.' },
      { role: 'user', content: 'Thanks' },
    ];
    await collect(modelFor(server).stream({ system: 'You are Riverse.', messages }));
    const body = server.requests[0]!.body;
    assert.equal(body.model, 'test-model');
    assert.deepEqual(body.messages, [
      { role: 'system', content: 'You are Riverse.' },
      { role: 'user', content: 'What is the weather in Tokyo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'weather', arguments: '{"city":"Tokyo"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_9', content: 'Sunny, 21 C' },
      { role: 'assistant', content: 'It is sunny.' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('sends tools in OpenAI form, omits an empty list, and asks for usage only when streaming', async () => {
    const server = await serve({ text: 'ok' });
    const model = modelFor(server, { headers: { 'x-extra': 'yes' } });
    await collect(model.stream({ messages: ASK, tools: [WEATHER], stream: true }));
    await collect(model.stream({ messages: ASK, tools: [] }));
    await collect(model.stream({ messages: ASK }));
    const [first, second, third] = server.requests.map((request) => request.body);
    assert.deepEqual(first?.tools, [
      {
        type: 'function',
        function: { name: 'weather', description: 'Current weather for a city', parameters: WEATHER.parameters },
      },
    ]);
    assert.equal(first?.stream, true);
    assert.deepEqual(first?.stream_options, { include_usage: true });
    for (const body of [second, third]) {
      assert.equal('tools' in body!, false);
      assert.equal(body?.stream, false);
      assert.equal('stream_options' in body!, false);
    }
    assert.equal(server.requests[0]?.headers.authorization, 'Bearer sk-test');
    assert.equal(server.requests[0]?.headers['x-extra'], 'yes');
  });

  it('serializes a tools array once, by identity', async () => {
    const server = await serve({ text: 'ok' });
    const model = modelFor(server);
    const tools = [{ ...WEATHER }];
    await collect(model.stream({ messages: ASK, tools }));
    tools[0]!.description = 'changed';
    await collect(model.stream({ messages: ASK, tools }));
    await collect(model.stream({ messages: ASK, tools: [...tools] }));
    assert.deepEqual(
      server.requests.map((request) => request.body.tools?.[0]?.function.description),
      ['Current weather for a city', 'Current weather for a city', 'changed'],
    );
  });

  it('has a provider:model id and the configured tool-calling mode', async () => {
    const model = createOpenAICompatibleModel({
      model: 'qwen3',
      baseUrl: 'http://127.0.0.1:11434/v1/',
      provider: 'ollama',
      toolCalling: 'text',
    });
    assert.equal(model.id, 'ollama:qwen3');
    assert.equal(model.toolCalling, 'text');
    assert.equal(createOpenAICompatibleModel({ model: 'm', baseUrl: 'http://x/v1' }).toolCalling, 'native');
    assert.throws(() => createOpenAICompatibleModel({ model: 'm', baseUrl: 'localhost:11434' }), {
      code: 'not-configured',
    });
  });
});

describe('createOpenAICompatibleModel: errors', () => {
  it('does not retry an exhausted quota', async () => {
    const server = await serve({
      status: 429,
      body: JSON.stringify({ error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } }),
    });
    const error = await failure(modelFor(server).stream({ messages: ASK }));
    assert.equal(error.code, 'rate-limited');
    assert.equal(error.retryable, false);
    assert.match(error.message, /quota exhausted.*You exceeded your current quota/);
    assert.equal(server.requests.length, 1);
  });

  it('reports a rejected API key with the base URL and the variable to check, without retrying', async () => {
    const server = await serve({ status: 401, error: 'Incorrect API key provided: sk-test.' });
    const error = await failure(modelFor(server).stream({ messages: ASK }));
    assert.equal(error.code, 'auth');
    assert.equal(error.status, 401);
    assert.ok(error.message.includes(server.url), error.message);
    assert.match(error.message, /Incorrect API key provided.*check OPENAI_API_KEY/);
    assert.equal(server.requests.length, 1);

    const groq = await failure(modelFor(server, { provider: 'groq', apiKey: undefined }).stream({ messages: ASK }));
    assert.match(groq.message, /asks for an API key.*set GROQ_API_KEY/);
  });

  it('passes on the server message of a 400', async () => {
    const server = await serve({ status: 400, error: "Invalid schema for function 'weather': 'strng' is not valid" });
    const error = await failure(modelFor(server).stream({ messages: ASK }));
    assert.equal(error.code, 'bad-request');
    assert.equal(error.retryable, false);
    assert.match(error.message, /\(HTTP 400: Invalid schema for function 'weather': 'strng' is not valid/);
  });

  it('names the model and URL on a 404', async () => {
    const server = await serve({ text: 'unreachable' });
    const error = await failure(modelFor(server, { baseUrl: `${server.url}/wrong` }).stream({ messages: ASK }));
    assert.equal(error.code, 'not-found');
    assert.ok(error.message.includes('model "test-model"'), error.message);
    assert.ok(error.message.includes(`${server.url}/wrong/chat/completions`), error.message);
  });

  it('reports a redirect with where it points, without following it (with or without a given fetch)', async () => {
    const moved = 'https://api.example.com/v1/chat/completions';
    const server = await serve({ status: 301, body: '', headers: { location: moved } });
    for (const options of [{}, { fetch }]) {
      const error = await failure(modelFor(server, options).stream({ messages: ASK }));
      assert.equal(error.code, 'bad-request');
      assert.equal(error.status, 301);
      assert.equal(
        error.message,
        `${server.url}/chat/completions redirects to ${moved} (HTTP 301); set the base URL to the address it points to`,
      );
    }
    assert.equal(server.requests.length, 2, 'sent once each, never retried nor followed');
  });
});
