import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { ChatMessage } from './chat-message.ts';
import type { ModelRequest, ToolDefinition } from './chat-model.ts';
import { createOpenAICompatibleModel, type OpenAICompatibleOptions, type RetryNotice } from './openai-compatible.ts';
import { replies, startOpenAITestServer, type OpenAITestServer, type ReplyHandler, type ReplySpec } from './testing/openai-test-server.ts';
import { callsOf, collect, failure, finishOf, textOf } from './testing/model-events.ts';

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
  return createOpenAICompatibleModel({ model: 'test-model', baseUrl: server.url, apiKey: 'sk-test', retryDelayMs: 5, ...options });
}

const ASK: ChatMessage[] = [{ role: 'user', content: 'What is the weather in Tokyo?' }];

const WEATHER: ToolDefinition = {
  name: 'weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};

describe('createOpenAICompatibleModel: replies', () => {
  it('streams a text reply as text deltas, then finish with usage', async () => {
    const server = await serve({ text: 'Sunny and 21 C in Tokyo.', usage: { prompt_tokens: 12, completion_tokens: 7 } });
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
    const server = await serve({ toolCalls: [{ name: 'weather', arguments: { city: 'Tokyo', unit: 'celsius' }, id: 'call_abc' }], argumentPieces: 4 });
    const events = await collect(modelFor(server).stream({ messages: ASK, tools: [WEATHER], stream: true }));
    const deltas = events.filter((event) => event.type === 'tool-call-delta');
    assert.equal(deltas.length, 5);
    assert.deepEqual(deltas[0], { type: 'tool-call-delta', index: 0, id: 'call_abc', name: 'weather', argumentsDelta: '' });
    assert.equal(deltas.map((delta) => delta.argumentsDelta).join(''), '{"city":"Tokyo","unit":"celsius"}');
    assert.deepEqual(callsOf(events), [{ id: 'call_abc', name: 'weather', arguments: '{"city":"Tokyo","unit":"celsius"}' }]);
    assert.equal(finishOf(events)?.type === 'finish' && finishOf(events)?.type, 'finish');
    assert.deepEqual({ ...finishOf(events), usage: undefined }, { type: 'finish', reason: 'tool-calls', usage: undefined });
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
      assert.deepEqual(calls.map((call) => call.arguments), ['{"city":"Tokyo"}', '{"city":"Oslo"}']);
      for (const call of calls) assert.match(call.id, /^call_\d+_\w+$/);
      assert.notEqual(calls[0]?.id, calls[1]?.id);
      const finish = finishOf(events);
      assert.equal(finish?.type === 'finish' ? finish.reason : undefined, 'tool-calls');
    }
  });

  it('tells calls apart when a server leaves out `index`, and accepts arguments sent as an object', async () => {
    const piece = (call: object, finish: string | null = null) => ({ choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: finish }] });
    const server = await serve({
      events: [
        piece({ function: { name: 'weather', arguments: '{"city":' } }),
        piece({ function: { arguments: '"Tokyo"}' } }),
        piece({ function: { name: 'weather', arguments: { city: 'Oslo' } } }),
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      ],
    });
    const events = await collect(modelFor(server).stream({ messages: ASK, stream: true }));
    assert.deepEqual(callsOf(events).map((call) => [call.name, call.arguments]), [
      ['weather', '{"city":"Tokyo"}'],
      ['weather', '{"city":"Oslo"}'],
    ]);
  });

  it('maps finish reasons, and finishes a stream that has [DONE] but no finish_reason', async () => {
    const reasons: [string | null, string][] = [['length', 'length'], ['content_filter', 'content-filter'], ['something_new', 'other'], [null, 'stop']];
    for (const [wire, reason] of reasons) {
      const server = await serve({ text: 'cut', finishReason: wire });
      for (const stream of [true, false]) {
        const finish = finishOf(await collect(modelFor(server).stream({ messages: ASK, stream })));
        assert.equal(finish?.type === 'finish' ? finish.reason : undefined, reason, `${wire} stream=${stream}`);
      }
    }
  });

  it('accepts a plain JSON answer to a streaming request', async () => {
    const completion = { choices: [{ index: 0, message: { role: 'assistant', content: 'not streamed' }, finish_reason: 'stop' }] };
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
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'weather', arguments: '{"city":"Tokyo"}' } }] },
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
    assert.deepEqual(first?.tools, [{ type: 'function', function: { name: 'weather', description: 'Current weather for a city', parameters: WEATHER.parameters } }]);
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
    assert.deepEqual(server.requests.map((request) => request.body.tools?.[0]?.function.description), ['Current weather for a city', 'Current weather for a city', 'changed']);
  });

  it('has a provider:model id and the configured tool-calling mode', async () => {
    const model = createOpenAICompatibleModel({ model: 'qwen3', baseUrl: 'http://127.0.0.1:11434/v1/', provider: 'ollama', toolCalling: 'text' });
    assert.equal(model.id, 'ollama:qwen3');
    assert.equal(model.toolCalling, 'text');
    assert.equal(createOpenAICompatibleModel({ model: 'm', baseUrl: 'http://x/v1' }).toolCalling, 'native');
    assert.throws(() => createOpenAICompatibleModel({ model: 'm', baseUrl: 'localhost:11434' }), { code: 'not-configured' });
  });
});

describe('createOpenAICompatibleModel: errors', () => {
  it('retries a 429, honouring Retry-After, then succeeds', async () => {
    const server = await serve(replies([{ status: 429, headers: { 'retry-after': '0.2' }, error: 'Rate limit reached for requests' }, { text: 'ok' }]));
    const notices: RetryNotice[] = [];
    const started = performance.now();
    const events = await collect(modelFor(server, { onRetry: (notice) => notices.push(notice) }).stream({ messages: ASK, stream: true }));
    assert.ok(performance.now() - started >= 190, 'waited for Retry-After');
    assert.equal(textOf(events), 'ok');
    assert.equal(server.requests.length, 2);
    assert.equal(notices.length, 1);
    assert.equal(notices[0]?.delayMs, 200);
    assert.equal(notices[0]?.error.code, 'rate-limited');
    assert.match(notices[0]!.error.message, /rate limit reached \(HTTP 429: Rate limit reached for requests\)/);
  });

  it('gives up at once when Retry-After is longer than the longest wait', async () => {
    const server = await serve({ status: 429, headers: { 'retry-after': '120' }, error: 'slow down' });
    const error = await failure(modelFor(server).stream({ messages: ASK }));
    assert.equal(error.code, 'rate-limited');
    assert.equal(error.status, 429);
    assert.match(error.message, /asks to wait 120 s/);
    assert.equal(server.requests.length, 1);
  });

  it('does not retry an exhausted quota', async () => {
    const server = await serve({ status: 429, body: JSON.stringify({ error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } }) });
    const error = await failure(modelFor(server).stream({ messages: ASK }));
    assert.equal(error.code, 'rate-limited');
    assert.equal(error.retryable, false);
    assert.match(error.message, /quota exhausted.*You exceeded your current quota/);
    assert.equal(server.requests.length, 1);
  });

  it('retries a 500 up to maxRetries, then fails with server-error', async () => {
    const server = await serve({ status: 500, error: 'The server had an error' });
    const error = await failure(modelFor(server, { maxRetries: 2 }).stream({ messages: ASK, stream: true }));
    assert.equal(error.code, 'server-error');
    assert.equal(error.status, 500);
    assert.equal(error.retryable, true);
    assert.match(error.message, /HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/v1: The server had an error/);
    assert.equal(server.requests.length, 3);
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
      assert.equal(error.message, `${server.url}/chat/completions redirects to ${moved} (HTTP 301); set the base URL to the address it points to`);
    }
    assert.equal(server.requests.length, 2, 'sent once each, never retried nor followed');
  });

  it('says the server is not running when the connection is refused, after retrying', async () => {
    const server = await startOpenAITestServer({ text: 'gone' });
    await server.close();
    const notices: RetryNotice[] = [];
    const error = await failure(modelFor(server, { maxRetries: 1, onRetry: (notice) => notices.push(notice) }).stream({ messages: ASK }));
    assert.equal(error.code, 'network');
    assert.equal(error.retryable, true);
    assert.equal(error.message, `cannot reach ${server.url}: connection refused; is the server running?`);
    assert.equal(notices.length, 1);
  });

  it('times out a server that never answers, retrying first', async () => {
    const server = await serve({ hang: true });
    const started = performance.now();
    const error = await failure(modelFor(server, { timeoutMs: 80, maxRetries: 1 }).stream({ messages: ASK, stream: true }));
    assert.equal(error.code, 'timeout');
    assert.match(error.message, /no response from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions within 0\.08 s/);
    assert.equal(server.requests.length, 2);
    assert.ok(performance.now() - started < 1000);
  });

  it('times out a stream that stalls after it began, without retrying', async () => {
    const text = (content: string) => ({ choices: [{ index: 0, delta: { content } }] });
    const server = await serve({ events: [text('one '), text('two')], chunkDelayMs: 300 });
    const error = await failure(modelFor(server, { timeoutMs: 60 }).stream({ messages: ASK, stream: true }));
    assert.equal(error.code, 'timeout');
    assert.equal(textOf(error.before), 'one ');
    assert.match(error.message, /stopped sending for 0\.06 s/);
    assert.equal(server.requests.length, 1);
  });

  it('does not count a slow consumer against the timeout', async () => {
    const server = await serve({ text: 'one two', chunkDelayMs: 20 });
    const events = await collect(modelFor(server, { timeoutMs: 100 }).stream({ messages: ASK, stream: true }), () => new Promise((resolve) => setTimeout(resolve, 150)));
    assert.equal(textOf(events), 'one two');
  });

  it('reports a stream cut after events as stream-cut, without retrying', async () => {
    const server = await serve({ text: 'one two three four five', cutAfterChunks: 3 });
    const error = await failure(modelFor(server).stream({ messages: ASK, stream: true }));
    assert.equal(error.code, 'stream-cut');
    assert.equal(textOf(error.before), 'one two ');
    assert.equal(server.requests.length, 1);
  });

  it('retries a response cut before any event', async () => {
    const server = await serve(replies([{ text: 'lost', cutAfterChunks: 1 }, { text: 'half', cutAfterChunks: 0 }, { text: 'whole' }]));
    const events = await collect(modelFor(server).stream({ messages: ASK, stream: true }));
    assert.equal(textOf(events), 'whole');
    const plain = await serve({ text: 'never whole', cutAfterChunks: 1 });
    const error = await failure(modelFor(plain, { maxRetries: 1 }).stream({ messages: ASK }));
    assert.equal(error.code, 'stream-cut');
    assert.equal(plain.requests.length, 2);
  });

  it('reports a stream that ends without finish_reason or [DONE] as stream-cut', async () => {
    const server = await serve({ text: 'and then', finishReason: null, done: false });
    const error = await failure(modelFor(server).stream({ messages: ASK, stream: true }));
    assert.equal(error.code, 'stream-cut');
    assert.equal(textOf(error.before), 'and then');
  });

  it('reports a body that is not JSON as bad-response, streaming or not', async () => {
    const page = await serve({ body: '<!DOCTYPE html><html><body>Welcome</body></html>', headers: { 'content-type': 'text/html' } });
    const error = await failure(modelFor(page).stream({ messages: ASK }));
    assert.equal(error.code, 'bad-response');
    assert.match(error.message, /not JSON.*looks like a web page/);

    const pageForStream = await failure(modelFor(page).stream({ messages: ASK, stream: true }));
    assert.equal(pageForStream.code, 'bad-response');

    const stream = await serve({ events: [{ choices: [{ index: 0, delta: { content: 'hi' } }] }, '{"choices": ['] });
    const broken = await failure(modelFor(stream).stream({ messages: ASK, stream: true }));
    assert.equal(broken.code, 'bad-response');
    assert.equal(textOf(broken.before), 'hi');
  });

  it('reports an error event in the stream as server-error', async () => {
    const server = await serve({ events: [{ error: { message: 'The model is overloaded', type: 'server_error' } }] });
    const error = await failure(modelFor(server, { maxRetries: 0 }).stream({ messages: ASK, stream: true }));
    assert.equal(error.code, 'server-error');
    assert.match(error.message, /The model is overloaded/);
  });
});

describe('createOpenAICompatibleModel: cancelling', () => {
  const request = (signal: AbortSignal, extra: Partial<ModelRequest> = {}): ModelRequest => ({ messages: ASK, stream: true, signal, ...extra });

  it('stops a stream at once when the signal aborts', async () => {
    const text = (content: string) => ({ choices: [{ index: 0, delta: { content } }] });
    const server = await serve({ events: [text('one '), text('two')], chunkDelayMs: 2000 });
    const controller = new AbortController();
    let abortedAt = 0;
    const error = await failure(modelFor(server).stream(request(controller.signal)), () => {
      abortedAt = performance.now();
      controller.abort();
    });
    assert.equal(error.code, 'aborted');
    assert.equal(textOf(error.before), 'one ');
    assert.ok(performance.now() - abortedAt < 500, 'aborted quickly');
  });

  it('stops while waiting for the headers, and during a Retry-After wait', async () => {
    for (const reply of [{ hang: true }, { status: 429, headers: { 'retry-after': '5' } }] satisfies ReplySpec[]) {
      const server = await serve(reply);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const started = performance.now();
      const error = await failure(modelFor(server).stream(request(controller.signal)));
      assert.equal(error.code, 'aborted');
      assert.ok(performance.now() - started < 500, 'aborted quickly');
    }
  });

  it('sends nothing when the signal has already aborted', async () => {
    const server = await serve({ text: 'never' });
    const error = await failure(modelFor(server).stream(request(AbortSignal.abort())));
    assert.equal(error.code, 'aborted');
    assert.equal(server.requests.length, 0);
  });

  it('lets the consumer stop early, and the model still works after', async () => {
    const server = await serve({ text: 'one two three four', chunkDelayMs: 20 });
    const model = modelFor(server);
    for await (const event of model.stream({ messages: ASK, stream: true })) {
      assert.equal(event.type, 'text-delta');
      break;
    }
    assert.equal(textOf(await collect(model.stream({ messages: ASK, stream: true }))), 'one two three four');
  });
});
