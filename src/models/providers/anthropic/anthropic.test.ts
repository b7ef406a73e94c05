import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { createAnthropicModel, type AnthropicOptions } from './anthropic.ts';
import type { ChatMessage } from '../../chat-message.ts';
import type { ModelEvent, ToolDefinition } from '../../chat-model.ts';
import type { RetryNotice } from '../openai/openai-compatible.ts';
import {
  startAnthropicTestServer,
  type AnthropicTestServer,
  type ReplyHandler,
  type ReplySpec,
} from '../../testing/anthropic-wire.ts';
import { replies } from '../../testing/wire-server.ts';
import { callsOf, collect, failure, finishOf, reasonOf, textOf } from '../../testing/model-events.ts';

const open: AnthropicTestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function serve(handler: ReplyHandler | ReplySpec): Promise<AnthropicTestServer> {
  const server = await startAnthropicTestServer(handler);
  open.push(server);
  return server;
}

function modelFor(server: AnthropicTestServer, options: Partial<AnthropicOptions> = {}) {
  return createAnthropicModel({
    model: 'claude-test',
    baseUrl: server.url,
    apiKey: 'sk-ant-test',
    retryDelayMs: 5,
    ...options,
  });
}

const ASK: ChatMessage[] = [{ role: 'user', content: 'What is the weather in Tokyo?' }];

const sse = (event: object) => event;
const textEvent = (text: string, index = 0) =>
  sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
const START = [
  sse({
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [],
      usage: { input_tokens: 5, output_tokens: 1 },
    },
  }),
  sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
];

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

describe('createAnthropicModel: replies', () => {
  it('streams a text reply as text deltas, then finish with usage', async () => {
    const server = await serve({ text: 'Sunny and 21 C in Tokyo.', usage: { input_tokens: 12, output_tokens: 7 } });
    const events = await collect(modelFor(server).stream({ messages: ASK, stream: true }));
    assert.ok(events.filter((event) => event.type === 'text-delta').length > 1, 'several deltas');
    assert.equal(textOf(events), 'Sunny and 21 C in Tokyo.');
    assert.deepEqual(finishOf(events), { type: 'finish', reason: 'stop', usage: { inputTokens: 12, outputTokens: 7 } });
  });

  it('gives the same events without streaming', async () => {
    const server = await serve({ text: 'Sunny.', usage: { input_tokens: 3, output_tokens: 2 } });
    const events = await collect(modelFor(server).stream({ messages: ASK }));
    assert.deepEqual(events, [
      { type: 'text-delta', text: 'Sunny.' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 3, outputTokens: 2 } },
    ]);
  });

  it('streams a tool_use block whose input comes in input_json_delta pieces', async () => {
    const server = await serve({
      toolCalls: [{ name: 'weather', input: { city: 'Tokyo', unit: 'celsius' }, id: 'toolu_abc' }],
      argumentPieces: 4,
    });
    const events = await collect(modelFor(server).stream({ messages: ASK, tools: [WEATHER], stream: true }));
    const deltas = events.filter((event) => event.type === 'tool-call-delta');
    assert.equal(deltas.length, 5);
    assert.deepEqual(deltas[0], {
      type: 'tool-call-delta',
      index: 0,
      id: 'toolu_abc',
      name: 'weather',
      argumentsDelta: '',
    });
    assert.equal(deltas.map((delta) => delta.argumentsDelta).join(''), '{"city":"Tokyo","unit":"celsius"}');
    assert.deepEqual(callsOf(events), [
      { id: 'toolu_abc', name: 'weather', arguments: '{"city":"Tokyo","unit":"celsius"}' },
    ]);
    const finish = finishOf(events);
    assert.ok(finish?.type === 'finish');
    assert.equal(finish.reason, 'tool-calls');
    assert.ok(finish.usage !== undefined && finish.usage.inputTokens! > 0 && finish.usage.outputTokens! > 0);
  });

  it('gives each tool call at its content_block_stop, before the message ends', { timeout: 20_000 }, async () => {
    const events = [
      ...START.slice(0, 1),
      sse({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} },
      }),
      sse({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"city": "Oslo"}' },
      }),
      sse({ type: 'content_block_stop', index: 0 }),
      sse({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }),
      sse({ type: 'message_stop' }),
    ];
    const request = { messages: ASK, tools: [WEATHER], stream: true };
    const whole = await serve({ events });
    assert.deepEqual(
      (await collect(modelFor(whole).stream(request))).map((event) => event.type),
      ['tool-call-delta', 'tool-call-delta', 'tool-call', 'finish'],
    );
    // The server holds back message_delta and message_stop: the call must come without them.
    const held = await serve({ events, hangAfterChunks: 4 });
    const seen: string[] = [];
    for await (const event of modelFor(held).stream(request)) {
      seen.push(event.type);
      if (event.type === 'tool-call') break;
    }
    assert.deepEqual(
      seen,
      ['tool-call-delta', 'tool-call-delta', 'tool-call'],
      'the call came before message_delta and message_stop',
    );
  });

  it('assembles several tool_use blocks that follow text, streaming or not', async () => {
    const reply: ReplySpec = {
      text: 'Let me check both.',
      toolCalls: [
        { name: 'weather', input: { city: 'Tokyo' } },
        { name: 'weather', input: '{"city":"Paris"}' },
        { name: 'clock', input: {} },
      ],
    };
    const server = await serve(reply);
    for (const stream of [true, false]) {
      const events = await collect(modelFor(server).stream({ messages: ASK, tools: [WEATHER], stream }));
      assert.equal(textOf(events), 'Let me check both.');
      assert.deepEqual(callsOf(events), [
        { id: 'toolu_1', name: 'weather', arguments: '{"city":"Tokyo"}' },
        { id: 'toolu_2', name: 'weather', arguments: '{"city":"Paris"}' },
        { id: 'toolu_3', name: 'clock', arguments: '{}' },
      ]);
      assert.equal(reasonOf(events), 'tool-calls');
      if (stream) {
        const indices = events.flatMap((event) =>
          event.type === 'tool-call-delta' && event.id !== undefined ? [event.index] : [],
        );
        assert.deepEqual(indices, [0, 1, 2], 'tool-call-delta indices count the calls, not the content blocks');
      }
    }
  });

  it('maps stop reasons and sums cached input tokens into the input count', async () => {
    const server = await serve(
      replies([
        { text: 'cut sh', stopReason: 'max_tokens' },
        { text: 'no.', stopReason: 'refusal' },
        {
          text: 'cached',
          usage: { input_tokens: 4, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 2 },
        },
      ]),
    );
    const model = modelFor(server);
    const runs: ModelEvent[][] = [];
    for (let i = 0; i < 3; i++) runs.push(await collect(model.stream({ messages: ASK, stream: i !== 1 })));
    assert.equal(reasonOf(runs[0]!), 'length');
    assert.equal(reasonOf(runs[1]!), 'content-filter');
    assert.deepEqual(finishOf(runs[2]!), {
      type: 'finish',
      reason: 'stop',
      usage: { inputTokens: 124, outputTokens: 2, cachedInputTokens: 100 },
    });
  });

  it('skips ping, thinking blocks and unknown events', async () => {
    const events = [
      ...START.slice(0, 1),
      sse({ type: 'ping' }),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }),
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } }),
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'abc' } }),
      sse({ type: 'content_block_stop', index: 0 }),
      sse({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
      textEvent('Hello', 1),
      sse({ type: 'something_new', detail: 1 }),
      sse({ type: 'content_block_stop', index: 1 }),
      sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } }),
      sse({ type: 'message_stop' }),
    ];
    const server = await serve({ events });
    const got = await collect(modelFor(server).stream({ messages: ASK, stream: true }));
    assert.deepEqual(got, [
      { type: 'text-delta', text: 'Hello' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 5, outputTokens: 3 } },
    ]);
  });

  it('accepts a stream that ends after message_delta without message_stop', async () => {
    const server = await serve({
      events: [...START, textEvent('done anyway'), sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' } })],
    });
    const events = await collect(modelFor(server).stream({ messages: ASK, stream: true }));
    assert.equal(textOf(events), 'done anyway');
    assert.equal(finishOf(events)?.type, 'finish');
  });
});

describe('createAnthropicModel: the request', () => {
  it('sends the system prompt top-level, tool calls as tool_use and a round of results as one user message', async () => {
    const server = await serve({ text: 'ok' });
    const messages: ChatMessage[] = [
      ...ASK,
      {
        role: 'assistant',
        content: 'Checking.',
        toolCalls: [
          { id: 'toolu_9', name: 'weather', arguments: '{"city":"Tokyo"}' },
          { id: 'toolu_10', name: 'weather', arguments: '{"city": "Atlantis"' },
        ],
      },
      { role: 'tool', toolCallId: 'toolu_9', name: 'weather', content: 'Sunny, 21 C' },
      { role: 'tool', toolCallId: 'toolu_10', name: 'weather', content: 'Error: unknown place', isError: true },
      { role: 'user', content: 'And also?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_11', name: 'weather', arguments: '[1,2]' }] },
      { role: 'tool', toolCallId: 'toolu_11', name: 'weather', content: 'Rain' },
      { role: 'assistant', content: 'It is sunny.' },
      { role: 'user', content: 'Thanks' },
    ];
    await collect(modelFor(server).stream({ system: 'You are Riverse.', messages, tools: [WEATHER] }));
    const body = server.requests[0]!.body;
    assert.equal(body.model, 'claude-test');
    assert.equal(body.max_tokens, 4096);
    assert.equal(body.system, 'You are Riverse.');
    assert.deepEqual(body.messages, [
      { role: 'user', content: 'What is the weather in Tokyo?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_9', name: 'weather', input: { city: 'Tokyo' } },
          { type: 'tool_use', id: 'toolu_10', name: 'weather', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_9', content: 'Sunny, 21 C' },
          { type: 'tool_result', tool_use_id: 'toolu_10', content: 'Error: unknown place', is_error: true },
          { type: 'text', text: 'And also?' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_11', name: 'weather', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_11', content: 'Rain' }] },
      { role: 'assistant', content: 'It is sunny.' },
      { role: 'user', content: 'Thanks' },
    ]);
    assert.equal('stream' in body, false);
  });

  it('tells past calls and results as text in a request without tools, which Anthropic requires', async () => {
    const server = await serve({ text: 'It was sunny.' });
    const messages: ChatMessage[] = [
      ...ASK,
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'toolu_1', name: 'weather', arguments: '{"city":"Tokyo"}' },
          { id: 'toolu_2', name: 'weather', arguments: '{"city":"Nowhere"}' },
        ],
      },
      { role: 'tool', toolCallId: 'toolu_1', name: 'weather', content: 'Sunny, 21 C' },
      { role: 'tool', toolCallId: 'toolu_2', name: 'weather', content: 'Error: unknown place', isError: true },
    ];
    const events = await collect(modelFor(server).stream({ messages }));
    assert.equal(textOf(events), 'It was sunny.', 'the server accepted the request');
    assert.deepEqual(server.requests[0]!.body.messages, [
      { role: 'user', content: 'What is the weather in Tokyo?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: '[called tool weather with {"city":"Tokyo"}]' },
          { type: 'text', text: '[called tool weather with {"city":"Nowhere"}]' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: '[result of tool weather: Sunny, 21 C]' },
          { type: 'text', text: '[error from tool weather: Error: unknown place]' },
        ],
      },
    ]);
  });

  it('leaves out empty assistant messages and merges what would then repeat a role', async () => {
    const server = await serve({ text: 'ok' });
    const messages: ChatMessage[] = [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: '  ' },
      { role: 'user', content: 'two' },
    ];
    await collect(modelFor(server).stream({ messages, system: '' }));
    const body = server.requests[0]!.body;
    assert.equal('system' in body, false);
    assert.deepEqual(body.messages, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
    ]);
  });

  it('sends tools with input_schema, the headers, max_tokens and stream', async () => {
    const server = await serve({ text: 'ok' });
    const model = modelFor(server, { maxTokens: 1000, headers: { 'anthropic-beta': 'test-beta' } });
    await collect(model.stream({ messages: ASK, tools: [WEATHER], stream: true }));
    await collect(model.stream({ messages: ASK, tools: [] }));
    const [first, second] = server.requests;
    assert.deepEqual(first?.body.tools, [
      { name: 'weather', description: 'Current weather for a city', input_schema: WEATHER.parameters },
    ]);
    assert.equal(first?.body.stream, true);
    assert.equal(first?.body.max_tokens, 1000);
    assert.equal('tools' in second!.body, false);
    assert.equal(first?.url, '/v1/messages');
    assert.equal(first?.headers['x-api-key'], 'sk-ant-test');
    assert.equal(first?.headers['anthropic-version'], '2023-06-01');
    assert.equal(first?.headers['content-type'], 'application/json');
    assert.equal(first?.headers['anthropic-beta'], 'test-beta');
    assert.equal(first?.headers.authorization, undefined);
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
      server.requests.map((request) => request.body.tools?.[0]?.description),
      ['Current weather for a city', 'Current weather for a city', 'changed'],
    );
  });

  it('has an anthropic:model id, native tool calling by default, and checks its settings', async () => {
    const model = createAnthropicModel({ model: 'claude-sonnet-4-5' });
    assert.equal(model.id, 'anthropic:claude-sonnet-4-5');
    assert.equal(model.toolCalling, 'native');
    assert.equal(createAnthropicModel({ model: 'm', toolCalling: 'text' }).toolCalling, 'text');
    assert.throws(() => createAnthropicModel({ model: 'm', baseUrl: 'api.anthropic.com' }), { code: 'not-configured' });
    assert.throws(() => createAnthropicModel({ model: 'm', maxTokens: 0 }), { code: 'not-configured' });
  });

  it('accepts a base URL that already ends in /v1', async () => {
    const server = await serve({ text: 'ok' });
    assert.equal(
      textOf(await collect(modelFor(server, { baseUrl: `${server.url}/v1/` }).stream({ messages: ASK }))),
      'ok',
    );
  });
});

describe('the Anthropic test server', () => {
  it('rejects what the Messages API rejects, so that the request tests mean something', async () => {
    const server = await serve({ text: 'ok' });
    const post = async (
      body: object,
      headers: Record<string, string> = { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
    ) => {
      const response = await fetch(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { error?: { message?: string } };
      return `${response.status} ${answer.error?.message ?? 'ok'}`;
    };
    const base = { model: 'm', max_tokens: 10 };
    const use = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'weather', input: {} }] };
    const tools = [{ name: 'weather', description: 'd', input_schema: { type: 'object' } }];
    assert.match(await post({ ...base, messages: ASK }, { 'x-api-key': 'k' }), /^400 anthropic-version/);
    assert.match(await post({ ...base, messages: ASK }, { 'anthropic-version': '2023-06-01' }), /^401 x-api-key/);
    assert.match(await post({ model: 'm', messages: ASK }), /^400 max_tokens/);
    assert.match(await post({ ...base, messages: [...ASK, ...ASK] }), /^400 messages: roles must alternate/);
    assert.match(
      await post({ ...base, messages: [...ASK, use, { role: 'user', content: 'hi' }], tools }),
      /^400 messages\.1: `tool_use` ids were found without `tool_result`/,
    );
    assert.match(
      await post({
        ...base,
        messages: [...ASK, use, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2' }] }],
        tools,
      }),
      /^400 .*unexpected `tool_use_id`/,
    );
    assert.match(
      await post({
        ...base,
        messages: [...ASK, use, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1' }] }],
      }),
      /^400 .*must define tools/,
    );
    assert.match(
      await post({ ...base, messages: [...ASK, { role: 'assistant', content: [{ type: 'text', text: '' }] }] }),
      /^400 .*non-whitespace text/,
    );
    assert.equal(
      await post({
        ...base,
        messages: [
          ...ASK,
          use,
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 't1', content: 'x' },
              { type: 'text', text: 'and?' },
            ],
          },
        ],
        tools,
      }),
      '200 ok',
    );
    assert.equal(server.requests.length, 1, 'only the valid request reached the script');
  });
});

describe('createAnthropicModel: errors', () => {
  it('reports a rejected or missing API key naming ANTHROPIC_API_KEY, without retrying', async () => {
    const server = await serve({ status: 401, error: 'invalid x-api-key' });
    const error = await failure(modelFor(server).stream({ messages: ASK }));
    assert.equal(error.code, 'auth');
    assert.equal(error.status, 401);
    assert.match(
      error.message,
      /anthropic rejected the API key \(HTTP 401 from http:\/\/127\.0\.0\.1:\d+: invalid x-api-key\); check ANTHROPIC_API_KEY/,
    );
    assert.equal(server.requests.length, 1);

    const missing = await failure(modelFor(server, { apiKey: undefined }).stream({ messages: ASK }));
    assert.equal(missing.code, 'auth');
    assert.match(
      missing.message,
      /asks for an API key \(HTTP 401: x-api-key header is required\); set ANTHROPIC_API_KEY/,
    );

    const forbidden = await serve({
      status: 403,
      error: 'Your API key does not have permission to use the specified resource.',
    });
    assert.match(
      (await failure(modelFor(forbidden).stream({ messages: ASK }))).message,
      /HTTP 403.*does not have permission.*ANTHROPIC_API_KEY/,
    );
  });

  it("passes on the message of a 400 from Anthropic's error body", async () => {
    const server = await serve({
      status: 400,
      error: 'messages.1.content.0.tool_use.input: Input should be a valid dictionary',
    });
    const error = await failure(modelFor(server).stream({ messages: ASK, stream: true }));
    assert.equal(error.code, 'bad-request');
    assert.equal(error.retryable, false);
    assert.match(
      error.message,
      /\(HTTP 400: messages\.1\.content\.0\.tool_use\.input: Input should be a valid dictionary\)/,
    );
    assert.equal(server.requests.length, 1);
  });

  it('names the model on a 404', async () => {
    const server = await serve({ status: 404, error: 'model: claude-nope' });
    const error = await failure(modelFor(server, { model: 'claude-nope' }).stream({ messages: ASK }));
    assert.equal(error.code, 'not-found');
    assert.match(
      error.message,
      /model "claude-nope" or URL http:\/\/127\.0\.0\.1:\d+\/v1\/messages not found \(HTTP 404: model: claude-nope\)/,
    );
  });

  it('retries 529 overloaded, then succeeds', async () => {
    const server = await serve(
      replies([{ status: 529, error: 'Overloaded' }, { status: 529, error: 'Overloaded' }, { text: 'finally' }]),
    );
    const notices: RetryNotice[] = [];
    const events = await collect(
      modelFor(server, { onRetry: (notice) => notices.push(notice) }).stream({ messages: ASK, stream: true }),
    );
    assert.equal(textOf(events), 'finally');
    assert.equal(server.requests.length, 3);
    assert.deepEqual(
      notices.map((notice) => [notice.error.code, notice.error.status]),
      [
        ['server-error', 529],
        ['server-error', 529],
      ],
    );
    assert.match(
      notices[0]!.error.message,
      /anthropic is overloaded \(HTTP 529 from http:\/\/127\.0\.0\.1:\d+: Overloaded\)/,
    );
  });

  it('retries an error event that comes before any content, not one after', async () => {
    const overloaded = sse({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const server = await serve(
      replies([{ events: [START[0]!, sse({ type: 'ping' }), overloaded] }, { text: 'second try' }]),
    );
    assert.equal(textOf(await collect(modelFor(server).stream({ messages: ASK, stream: true }))), 'second try');
    assert.equal(server.requests.length, 2);

    const late = await serve({ events: [...START, textEvent('Half'), overloaded] });
    const error = await failure(modelFor(late).stream({ messages: ASK, stream: true }));
    assert.equal(error.code, 'server-error');
    assert.match(error.message, /overloaded_error: Overloaded/);
    assert.equal(textOf(error.before), 'Half');
    assert.equal(late.requests.length, 1);

    const invalid = await serve({
      events: [
        START[0]!,
        sse({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long' } }),
      ],
    });
    const bad = await failure(modelFor(invalid).stream({ messages: ASK, stream: true }));
    assert.equal(bad.code, 'bad-request');
    assert.equal(invalid.requests.length, 1);
  });

  it('reports an error body sent with status 200', async () => {
    const server = await serve({
      body: JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }),
    });
    const error = await failure(modelFor(server, { maxRetries: 0 }).stream({ messages: ASK }));
    assert.equal(error.code, 'rate-limited');
    assert.match(error.message, /slow down/);
  });
});
