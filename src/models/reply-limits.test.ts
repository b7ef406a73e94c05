// Hostile model servers against the limits of one model request: replies past their size caps,
// streamed or not, end with `reply-too-large` while the server is still sending; arguments nested
// deeper than JSON.stringify goes still become a tool call; a silent server costs two waits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChatMessage } from './chat-message.ts';
import { anthropicRequestBody } from './providers/anthropic/anthropic-request.ts';
import { createAnthropicModel } from './providers/anthropic/anthropic.ts';
import { GeminiCallMemory } from './providers/gemini/gemini-call-memory.ts';
import { requestBody as geminiRequestBody } from './providers/gemini/gemini-request.ts';
import { createGeminiModel } from './providers/gemini/gemini.ts';
import { createOpenAICompatibleModel, type OpenAICompatibleOptions } from './providers/openai/openai-compatible.ts';
import { DEFAULT_MAX_REPLY_CHARS, wireLimit } from './reply-limits.ts';
import { startAnthropicTestServer } from './testing/anthropic-wire.ts';
import { startFloodServer, type FloodMode, type FloodServer } from './testing/flood-server.ts';
import { startGeminiTestServer } from './testing/gemini-wire.ts';
import { startOpenAITestServer } from './testing/openai-wire.ts';
import { callsOf, collect, failure, textOf } from './testing/model-events.ts';

const ASK: ChatMessage[] = [{ role: 'user', content: 'Say a lot.' }];
const MB = 1024 * 1024;

let server: FloodServer;
before(async () => {
  server = await startFloodServer({ bytes: 100 * MB });
});
after(() => server.close());

const model = (mode: FloodMode, options: Partial<OpenAICompatibleOptions> = {}) =>
  createOpenAICompatibleModel({
    model: 'flood',
    baseUrl: `${server.url}/${mode}/v1`,
    maxRetries: 2,
    retryDelayMs: 5,
    ...options,
  });

/** Runs one request and says how much the server had sent by the time the client gave up. */
async function fails(mode: FloodMode, options: Partial<OpenAICompatibleOptions> = {}, stream = true) {
  const before = server.sent;
  const error = await failure(model(mode, options).stream({ messages: ASK, stream }));
  return { error, sentMb: (server.sent - before) / MB };
}

describe('reply size caps', () => {
  it('stops a streamed reply at max_reply_chars, keeping what came before, and tells where to raise it', async () => {
    const { error, sentMb } = await fails('text', { maxReplyChars: 100_000 });
    assert.equal(error.code, 'reply-too-large');
    assert.equal(error.retryable, false);
    assert.deepEqual(error.limit, { setting: 'model_options.max_reply_chars', value: 100_000 });
    assert.match(
      error.message,
      /a reply of more than 100000 characters .*Raise model_options\.max_reply_chars in riverse\.yaml/,
    );
    const text = textOf(error.before);
    assert.ok(text.length <= 100_000 && text.length > 90_000, `the text up to the cap was given: ${text.length}`);
    assert.ok(sentMb < 10, `the connection was dropped at the cap, not read to the end (${sentMb.toFixed(1)} MB sent)`);
  });

  it('stops one tool call’s streaming arguments at max_tool_call_chars, naming the tool', async () => {
    const { error, sentMb } = await fails('args', { maxToolCallChars: 50_000 });
    assert.equal(error.code, 'reply-too-large');
    assert.deepEqual(error.limit, { setting: 'model_options.max_tool_call_chars', value: 50_000 });
    assert.match(error.message, /arguments of more than 50000 characters for the tool call "echo"/);
    assert.ok(sentMb < 10, `${sentMb.toFixed(1)} MB sent`);
  });

  it('counts every tool call of a reply toward max_reply_chars: many calls within their own cap still add up', async (t) => {
    const many = await startOpenAITestServer({
      toolCalls: Array.from({ length: 20 }, (_, index) => ({
        name: 'echo',
        arguments: { text: `${index}${'x'.repeat(1_000)}` },
      })),
    });
    t.after(() => many.close());
    for (const stream of [true, false]) {
      const model = createOpenAICompatibleModel({
        model: 'm',
        baseUrl: many.url,
        maxReplyChars: 10_000,
        maxToolCallChars: 2_000,
      });
      const error = await failure(model.stream({ messages: ASK, stream }));
      assert.equal(error.code, 'reply-too-large', `stream: ${stream}`);
      assert.match(error.message, /a reply of more than 10000 characters \(text and tool-call arguments together\)/);
    }
  });

  it('refuses a stream line that never ends instead of buffering it', async () => {
    const caps = { maxReplyChars: 10_000, maxToolCallChars: 10_000 };
    const { error, sentMb } = await fails('line', caps);
    assert.equal(error.code, 'reply-too-large');
    assert.match(error.message, new RegExp(`a stream event of more than ${wireLimit(caps)} characters`));
    assert.ok(sentMb < 10, `${sentMb.toFixed(1)} MB sent`);
  });

  it('reads a non-streamed body only up to what a capped reply can need', async () => {
    const caps = { maxReplyChars: 10_000, maxToolCallChars: 10_000 };
    const { error, sentMb } = await fails('body', caps, false);
    assert.equal(error.code, 'reply-too-large');
    assert.match(error.message, new RegExp(`a response body of more than ${wireLimit(caps)} bytes`));
    assert.ok(sentMb < 10, `${sentMb.toFixed(1)} MB sent`);
  });

  it('caps with defaults too: 100 MB of streamed text ends at the default cap, and the process stays small', async () => {
    let peak = process.memoryUsage.rss();
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
    const { error, sentMb } = await fails('text').finally(() => clearInterval(sample));
    assert.equal(error.code, 'reply-too-large');
    assert.equal(error.limit?.value, DEFAULT_MAX_REPLY_CHARS);
    assert.ok(sentMb < 20, `${sentMb.toFixed(1)} MB sent`);
    // The server runs in this process too: the figure bounds both.
    assert.ok(peak < 300 * MB, `peak RSS ${Math.round(peak / MB)} MB`);
  });
});

describe('the caps hold for every HTTP provider', () => {
  it('Anthropic: streamed text, and one tool_use input', async (t) => {
    const server = await startAnthropicTestServer((_request, index) =>
      index === 0
        ? { text: 'word '.repeat(500) }
        : { toolCalls: [{ name: 'write', input: { text: 'x'.repeat(5_000) } }], argumentPieces: 50 },
    );
    t.after(() => server.close());
    const anthropic = createAnthropicModel({
      model: 'claude-test',
      baseUrl: server.url,
      apiKey: 'k',
      maxReplyChars: 1_000,
      maxToolCallChars: 1_000,
    });
    const text = await failure(anthropic.stream({ messages: ASK, stream: true }));
    assert.equal(text.code, 'reply-too-large');
    assert.equal(text.limit?.setting, 'model_options.max_reply_chars');
    const call = await failure(anthropic.stream({ messages: ASK, stream: true }));
    assert.match(call.message, /for the tool call "write"/);
  });

  it('Gemini: a function call’s arguments, streamed or not', async (t) => {
    const server = await startGeminiTestServer({
      functionCalls: [{ name: 'write', args: { text: 'x'.repeat(5_000) } }],
    });
    t.after(() => server.close());
    const gemini = createGeminiModel({
      model: 'gemini-test',
      baseUrl: server.url,
      apiKey: 'k',
      maxToolCallChars: 1_000,
    });
    for (const stream of [true, false]) {
      const error = await failure(gemini.stream({ messages: ASK, stream }));
      assert.equal(error.code, 'reply-too-large', `stream: ${stream}`);
      assert.deepEqual(error.limit, { setting: 'model_options.max_tool_call_chars', value: 1_000 });
    }
  });
});

describe('arguments nested deeper than JSON.stringify goes', () => {
  it('still become a tool call (for the tool registry to refuse), not a failed reply', async () => {
    const events = await collect(model('deep').stream({ messages: ASK, stream: false }));
    const [call] = callsOf(events);
    assert.equal(call?.name, 'echo');
    assert.equal(call.arguments.length, 10_000 * 6 + 1, 'the whole object, as text');
    assert.doesNotThrow(() => JSON.parse(call.arguments));
  });

  it('are sent back to every provider in the next request', () => {
    const deep = `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const history: ChatMessage[] = [
      ...ASK,
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'echo', arguments: deep }] },
      { role: 'tool', toolCallId: 'call_1', name: 'echo', content: 'Error: nested too deep', isError: true },
    ];
    const tools = [{ name: 'echo', description: 'Echoes', parameters: { type: 'object' } }];
    for (const body of [
      anthropicRequestBody('"m"', 1024, { messages: history, tools }),
      geminiRequestBody({ messages: history, tools }, new GeminiCallMemory()),
    ]) {
      assert.ok(body.includes(deep), 'the arguments as they came');
      assert.doesNotThrow(() => JSON.parse(body));
    }
  });
});

describe('a silent server', () => {
  it('is asked once more after the first timeout, not max_retries times, and the error names the setting', {
    timeout: 20_000,
  }, async () => {
    const before = server.requests;
    const { error } = await fails('silent', { timeoutMs: 150, maxRetries: 3 });
    assert.equal(error.code, 'timeout');
    assert.deepEqual(error.limit, { setting: 'model_options.timeout_ms', value: 150 });
    assert.match(error.message, /model_options\.timeout_ms/);
    assert.equal(server.requests - before, 2, 'one retry after a timeout, not three');
  });

  it('gets no retry that could not start before the caller’s deadline', async () => {
    const before = server.requests;
    const error = await failure(
      model('silent', { timeoutMs: 100, retryDelayMs: 500 }).stream({ messages: ASK, deadline: Date.now() + 300 }),
    );
    assert.equal(error.code, 'timeout');
    assert.equal(server.requests - before, 1);
  });
});
