import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { compileSchema } from '../../../schema/compile-schema.ts';
import type { JsonSchema } from '../../../tool-runtime/parameter-schema.ts';
import type { ChatMessage } from '../../chat-message.ts';
import type { ToolDefinition } from '../../chat-model.ts';
import { createGeminiModel, type GeminiOptions } from './gemini.ts';
import { FOREIGN_SIGNATURE } from './gemini-request.ts';
import type { RetryNotice } from '../openai/openai-compatible.ts';
import {
  startGeminiTestServer,
  type GeminiReplyHandler,
  type GeminiReplySpec,
  type GeminiTestServer,
} from '../../testing/gemini-wire.ts';
import { replies } from '../../testing/wire-server.ts';
import { callsOf, collect, failure, reasonOf, textOf } from '../../testing/model-events.ts';

const open: GeminiTestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function serve(handler: GeminiReplyHandler | GeminiReplySpec): Promise<GeminiTestServer> {
  const server = await startGeminiTestServer(handler);
  open.push(server);
  return server;
}

function modelFor(server: GeminiTestServer, options: Partial<GeminiOptions> = {}) {
  return createGeminiModel({
    model: 'gemini-test',
    baseUrl: server.url,
    apiKey: 'AIza-test',
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
    properties: { city: { type: 'string', description: 'City name' } },
    required: ['city'],
    additionalProperties: false,
  },
};

describe('createGeminiModel: replies', () => {
  it('streams a text reply as text deltas, then finish with usage', async () => {
    const server = await serve({
      text: 'Sunny and 21 C in Tokyo.',
      usage: { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 },
    });
    const events = await collect(modelFor(server).stream({ messages: ASK, stream: true }));
    assert.ok(events.filter((event) => event.type === 'text-delta').length > 1, 'several deltas');
    assert.equal(textOf(events), 'Sunny and 21 C in Tokyo.');
    assert.deepEqual(events.at(-1), { type: 'finish', reason: 'stop', usage: { inputTokens: 12, outputTokens: 7 } });
  });

  it('gives the same events without streaming', async () => {
    const server = await serve({ text: 'Sunny.', usage: { promptTokenCount: 3, candidatesTokenCount: 2 } });
    const events = await collect(modelFor(server).stream({ messages: ASK }));
    assert.deepEqual(events, [
      { type: 'text-delta', text: 'Sunny.' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 3, outputTokens: 2 } },
    ]);
  });

  it('leaves out thought parts, and counts thinking tokens as output', async () => {
    const server = await serve({
      thought: 'The user wants the weather…',
      text: 'Sunny.',
      usage: { promptTokenCount: 3, candidatesTokenCount: 2, thoughtsTokenCount: 40 },
    });
    for (const stream of [true, false]) {
      const events = await collect(modelFor(server).stream({ messages: ASK, stream }));
      assert.equal(textOf(events), 'Sunny.');
      assert.deepEqual(events.at(-1), {
        type: 'finish',
        reason: 'stop',
        usage: { inputTokens: 3, outputTokens: 42, reasoningTokens: 40 },
      });
    }
  });

  it('gives a function call, with a made-up id, as a tool-call (and, streaming, one delta)', async () => {
    const server = await serve({ functionCalls: [{ name: 'weather', args: { city: 'Tokyo', unit: 'celsius' } }] });
    const events = await collect(modelFor(server).stream({ messages: ASK, tools: [WEATHER], stream: true }));
    const [call] = callsOf(events);
    assert.match(call!.id, /^call_\d+_\w+$/);
    assert.deepEqual(call, { id: call!.id, name: 'weather', arguments: '{"city":"Tokyo","unit":"celsius"}' });
    assert.deepEqual(
      events.filter((event) => event.type === 'tool-call-delta'),
      [
        {
          type: 'tool-call-delta',
          index: 0,
          id: call!.id,
          name: 'weather',
          argumentsDelta: '{"city":"Tokyo","unit":"celsius"}',
        },
      ],
    );
    assert.equal(reasonOf(events), 'tool-calls', 'Gemini says STOP after calls');
  });

  it('gives several function calls that follow text, streaming or not, each with its own id', async () => {
    const server = await serve({
      text: 'Let me check both.',
      functionCalls: [
        { name: 'weather', args: { city: 'Tokyo' } },
        { name: 'weather', args: { city: 'Paris' } },
        { name: 'clock', args: {} },
      ],
    });
    const ids = new Set<string>();
    for (const stream of [true, false]) {
      const events = await collect(modelFor(server).stream({ messages: ASK, tools: [WEATHER], stream }));
      assert.equal(textOf(events), 'Let me check both.');
      const calls = callsOf(events);
      assert.deepEqual(
        calls.map((call) => [call.name, call.arguments]),
        [
          ['weather', '{"city":"Tokyo"}'],
          ['weather', '{"city":"Paris"}'],
          ['clock', '{}'],
        ],
      );
      for (const call of calls) ids.add(call.id);
      assert.equal(reasonOf(events), 'tool-calls');
      assert.equal(
        events.some((event) => event.type === 'tool-call-delta'),
        stream,
      );
    }
    assert.equal(ids.size, 6, 'no id repeats');
  });

  it('maps finish reasons, and a blocked prompt to content-filter', async () => {
    const reasons: [string, string][] = [
      ['MAX_TOKENS', 'length'],
      ['SAFETY', 'content-filter'],
      ['RECITATION', 'content-filter'],
      ['OTHER', 'other'],
      ['STOP', 'stop'],
    ];
    for (const [wire, reason] of reasons) {
      const server = await serve({ text: 'cut', finishReason: wire });
      for (const stream of [true, false])
        assert.equal(
          reasonOf(await collect(modelFor(server).stream({ messages: ASK, stream }))),
          reason,
          `${wire} stream=${stream}`,
        );
    }
    const blocked = await serve({
      body: JSON.stringify({
        promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
        usageMetadata: { promptTokenCount: 5 },
      }),
    });
    for (const stream of [true, false]) {
      assert.deepEqual(await collect(modelFor(blocked).stream({ messages: ASK, stream })), [
        { type: 'finish', reason: 'content-filter', usage: { inputTokens: 5 } },
      ]);
    }
  });

  it('accepts a streaming request answered with a JSON array of chunks', async () => {
    const chunk = (text: string, finishReason?: string) => ({
      candidates: [
        {
          content: { role: 'model', parts: [{ text }] },
          index: 0,
          ...(finishReason === undefined ? {} : { finishReason }),
        },
      ],
    });
    const server = await serve({ body: JSON.stringify([chunk('not '), chunk('streamed', 'STOP')]) });
    assert.deepEqual(await collect(modelFor(server).stream({ messages: ASK, stream: true })), [
      { type: 'text-delta', text: 'not ' },
      { type: 'text-delta', text: 'streamed' },
      { type: 'finish', reason: 'stop' },
    ]);
  });
});

describe('createGeminiModel: the request', () => {
  it('sends the system prompt, user/model turns, function calls and their results merged into one turn in call order', async () => {
    const server = await serve({ text: 'ok' });
    const messages: ChatMessage[] = [
      ...ASK,
      {
        role: 'assistant',
        content: 'Checking.',
        toolCalls: [
          { id: 'call_1', name: 'weather', arguments: '{"city":"Tokyo"}' },
          { id: 'call_2', name: 'weather', arguments: '{"city":"Paris"}' },
          { id: 'call_3', name: 'clock', arguments: '' },
        ],
      },
      { role: 'tool', toolCallId: 'call_2', name: 'weather', content: 'Paris: rain, 9 C' },
      { role: 'tool', toolCallId: 'call_1', name: 'weather', content: 'Tokyo: sunny, 21 C' },
      { role: 'tool', toolCallId: 'call_3', name: 'clock', content: 'Error: the clock broke', isError: true },
      { role: 'assistant', content: 'Sunny in Tokyo, rain in Paris.' },
      { role: 'user', content: 'Thanks' },
    ];
    await collect(modelFor(server).stream({ system: 'You are Riverse.', messages }));
    const { body } = server.requests[0]!;
    assert.deepEqual(body.systemInstruction, { parts: [{ text: 'You are Riverse.' }] });
    assert.deepEqual(body.contents, [
      { role: 'user', parts: [{ text: 'What is the weather in Tokyo?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Checking.' },
          // A call this model object did not receive gets Google's stand-in signature, on the first call only.
          { functionCall: { name: 'weather', args: { city: 'Tokyo' } }, thoughtSignature: FOREIGN_SIGNATURE },
          { functionCall: { name: 'weather', args: { city: 'Paris' } } },
          { functionCall: { name: 'clock', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'weather', response: { content: 'Tokyo: sunny, 21 C' } } },
          { functionResponse: { name: 'weather', response: { content: 'Paris: rain, 9 C' } } },
          { functionResponse: { name: 'clock', response: { error: 'Error: the clock broke' } } },
        ],
      },
      { role: 'model', parts: [{ text: 'Sunny in Tokyo, rain in Paris.' }] },
      { role: 'user', parts: [{ text: 'Thanks' }] },
    ]);
    assert.equal('model' in body, false);
  });

  it('posts to the model URL (alt=sse when streaming) with the key in x-goog-api-key', async () => {
    const server = await serve({ text: 'ok' });
    const model = modelFor(server, { model: 'gemini-2.5-flash' });
    await collect(model.stream({ messages: ASK, stream: true }));
    await collect(model.stream({ messages: ASK }));
    assert.deepEqual(
      server.requests.map((request) => request.url),
      [
        '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
        '/v1beta/models/gemini-2.5-flash:generateContent',
      ],
    );
    for (const request of server.requests) {
      assert.equal(request.headers['x-goog-api-key'], 'AIza-test');
      assert.equal(request.headers.authorization, undefined);
      assert.equal(request.headers['content-type'], 'application/json');
    }
  });

  it('sends tools as functionDeclarations in the gemini dialect (no additionalProperties anywhere), and omits an empty list', async () => {
    const server = await serve({ text: 'ok' });
    const nested: ToolDefinition = {
      name: 'plan',
      description: 'Plans a trip',
      parameters: {
        type: 'object',
        properties: {
          stops: {
            type: 'array',
            items: {
              type: 'object',
              properties: { city: { type: 'string' } },
              required: ['city'],
              additionalProperties: false,
            },
          },
        },
        required: [],
        additionalProperties: false,
      },
    };
    const clock: ToolDefinition = {
      name: 'clock',
      description: 'The time',
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
    };
    const model = modelFor(server);
    // The caller compiles to the model's dialect, once: the adapter sends what it is given.
    const tools = [WEATHER, nested, clock].map((tool) => ({
      ...tool,
      parameters: compileSchema(tool.parameters, model.dialect!) as JsonSchema,
    }));
    await collect(model.stream({ messages: ASK, tools, stream: true }));
    await collect(model.stream({ messages: ASK, tools: [] }));
    const [first, second] = server.requests.map((request) => request.body);
    assert.deepEqual(first?.tools, [
      {
        functionDeclarations: [
          {
            name: 'weather',
            description: 'Current weather for a city',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string', description: 'City name' } },
              required: ['city'],
            },
          },
          {
            name: 'plan',
            description: 'Plans a trip',
            parameters: {
              type: 'object',
              properties: {
                stops: {
                  type: 'array',
                  items: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
                },
              },
            },
          },
          { name: 'clock', description: 'The time' },
        ],
      },
    ]);
    assert.doesNotMatch(JSON.stringify(first?.tools), /additionalProperties/);
    assert.equal('tools' in second!, false);
    assert.equal('systemInstruction' in second!, false);
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
      server.requests.map((request) => request.body.tools?.[0]?.functionDeclarations[0]?.description),
      ['Current weather for a city', 'Current weather for a city', 'changed'],
    );
  });

  it("gives back a call's thought signature and server id with the call and its response", async () => {
    const server = await serve(
      replies([
        {
          functionCalls: [
            { name: 'weather', args: { city: 'Tokyo' }, id: 'fc-1', thoughtSignature: 'c2lnLUE=' },
            { name: 'weather', args: { city: 'Oslo' } },
          ],
        },
        { text: 'ok' },
      ]),
    );
    const model = modelFor(server);
    const calls = callsOf(await collect(model.stream({ messages: ASK, tools: [WEATHER], stream: true })));
    assert.equal(calls[0]?.id, 'fc-1', "the server's id is kept");
    const messages: ChatMessage[] = [
      ...ASK,
      { role: 'assistant', content: '', toolCalls: calls },
      ...calls.map((call): ChatMessage => ({ role: 'tool', toolCallId: call.id, name: call.name, content: '16 C' })),
    ];
    await collect(model.stream({ messages, tools: [WEATHER], stream: true }));
    const [, modelTurn, results] = server.requests[1]!.body.contents;
    assert.deepEqual(modelTurn?.parts, [
      { functionCall: { name: 'weather', args: { city: 'Tokyo' }, id: 'fc-1' }, thoughtSignature: 'c2lnLUE=' },
      { functionCall: { name: 'weather', args: { city: 'Oslo' } } },
    ]);
    assert.deepEqual(results?.parts, [
      { functionResponse: { name: 'weather', response: { content: '16 C' }, id: 'fc-1' } },
      { functionResponse: { name: 'weather', response: { content: '16 C' } } },
    ]);
  });

  it('invents no signature for a call that came without one', async () => {
    const server = await serve(
      replies([{ functionCalls: [{ name: 'weather', args: { city: 'Tokyo' } }] }, { text: 'ok' }]),
    );
    const model = modelFor(server);
    const [call] = callsOf(await collect(model.stream({ messages: ASK, tools: [WEATHER] })));
    const messages: ChatMessage[] = [
      ...ASK,
      { role: 'assistant', content: '', toolCalls: [call!] },
      { role: 'tool', toolCallId: call!.id, name: 'weather', content: '16 C' },
    ];
    await collect(model.stream({ messages, tools: [WEATHER] }));
    assert.deepEqual(server.requests[1]!.body.contents[1], {
      role: 'model',
      parts: [{ functionCall: { name: 'weather', args: { city: 'Tokyo' } } }],
    });
  });

  it('has a gemini:model id, native tool calling by default, and checks the base URL', () => {
    const model = createGeminiModel({ model: 'gemini-2.5-flash' });
    assert.equal(model.id, 'gemini:gemini-2.5-flash');
    assert.equal(model.toolCalling, 'native');
    assert.equal(createGeminiModel({ model: 'm', toolCalling: 'text' }).toolCalling, 'text');
    assert.throws(() => createGeminiModel({ model: 'm', baseUrl: 'generativelanguage.googleapis.com' }), {
      code: 'not-configured',
    });
  });
});

describe('createGeminiModel: errors', () => {
  const KEY_INVALID = {
    status: 400,
    error: 'API key not valid. Please pass a valid API key.',
    errorDetails: [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
    ],
  } satisfies GeminiReplySpec;

  it('reports 400 API_KEY_INVALID as auth, naming GEMINI_API_KEY, without retrying', async () => {
    const server = await serve(KEY_INVALID);
    const error = await failure(modelFor(server).stream({ messages: ASK, stream: true }));
    assert.equal(error.code, 'auth');
    assert.equal(error.status, 400);
    assert.match(
      error.message,
      /gemini rejected the API key \(HTTP 400 from http:\/\/127\.0\.0\.1:\d+\/v1beta: API key not valid\. Please pass a valid API key\.\); check GEMINI_API_KEY/,
    );
    assert.equal(server.requests.length, 1);
  });

  it('says to set GEMINI_API_KEY when there is no key', async () => {
    const server = await serve({ text: 'never' });
    const error = await failure(modelFor(server, { apiKey: undefined }).stream({ messages: ASK }));
    assert.equal(error.code, 'auth');
    assert.equal(error.status, 403);
    assert.match(
      error.message,
      /asks for an API key \(HTTP 403: Method doesn't allow unregistered callers.*\); set GEMINI_API_KEY$/,
    );
  });

  it('passes on the message of a 400 INVALID_ARGUMENT as bad-request', async () => {
    const server = await serve({
      status: 400,
      error:
        '* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties: should be non-empty for OBJECT type',
    });
    const error = await failure(modelFor(server).stream({ messages: ASK }));
    assert.equal(error.code, 'bad-request');
    assert.equal(error.retryable, false);
    assert.match(
      error.message,
      /gemini rejected the request for model "gemini-test" \(HTTP 400: \* GenerateContentRequest\.tools/,
    );
    assert.equal(server.requests.length, 1);
  });

  it('names the model and URL on a 404', async () => {
    const server = await serve({
      status: 404,
      error: 'models/gemini-nope is not found for API version v1beta, or is not supported for generateContent.',
    });
    const error = await failure(modelFor(server, { model: 'gemini-nope' }).stream({ messages: ASK }));
    assert.equal(error.code, 'not-found');
    assert.ok(
      error.message.includes(`model "gemini-nope" or URL ${server.url}/models/gemini-nope:generateContent not found`),
      error.message,
    );
    assert.match(error.message, /is not found for API version v1beta/);
  });

  it("honours Google's RetryInfo when there is no Retry-After, and gives up when it asks for too long", async () => {
    const retryInfo = (retryDelay: string) => [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }];
    const server = await serve(
      replies([
        { status: 429, error: 'You exceeded your current quota', errorDetails: retryInfo('0.15s') },
        { text: 'ok' },
      ]),
    );
    const notices: RetryNotice[] = [];
    assert.equal(
      textOf(await collect(modelFor(server, { onRetry: (notice) => notices.push(notice) }).stream({ messages: ASK }))),
      'ok',
    );
    assert.equal(notices[0]?.delayMs, 150);

    const daily = await serve({
      status: 429,
      error: 'You exceeded your current quota',
      errorDetails: retryInfo('3600s'),
    });
    const error = await failure(modelFor(daily).stream({ messages: ASK }));
    assert.equal(error.code, 'rate-limited');
    assert.match(error.message, /asks to wait 3600 s before retrying/);
    assert.equal(daily.requests.length, 1);
  });
});
