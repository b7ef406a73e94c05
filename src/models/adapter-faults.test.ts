// The faults every HTTP adapter meets, one suite run against each through its wire on the one test
// server: rate limits with Retry-After, 5xx, refused connections, silent and stalling servers, cut
// and unfinished streams, web pages and broken JSON, error events, and cancellation. What only one
// provider does (its error bodies, its key checks, its retry hints) is tested in its own file.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { createAnthropicModel } from './providers/anthropic/anthropic.ts';
import type { ChatMessage } from './chat-message.ts';
import type { ChatModel, ModelRequest, RetryNotice } from './chat-model.ts';
import { createGeminiModel } from './providers/gemini/gemini.ts';
import type { RequestOptions } from './model-request.ts';
import { createOpenAICompatibleModel } from './providers/openai/openai-compatible.ts';
import { startAnthropicTestServer, type ReplySpec as AnthropicReplySpec } from './testing/anthropic-wire.ts';
import { chunk, startGeminiTestServer, type GeminiReplySpec } from './testing/gemini-wire.ts';
import { collect, failure, textOf } from './testing/model-events.ts';
import { startOpenAITestServer, type ReplySpec as OpenAIReplySpec } from './testing/openai-wire.ts';
import { replies, type ReplyControls } from './testing/wire-server.ts';

/** What the suite scripts: the controls every reply has, and a text answer. */
type FaultReply = ReplyControls & { text?: string };
/** One reply, replies in order, or a reply made as each request arrives. */
type FaultReplies = FaultReply | readonly FaultReply[] | (() => FaultReply);

interface Server {
  url: string;
  requests: unknown[];
  close(): Promise<void>;
}

interface Adapter {
  name: string;
  start(reply: FaultReplies): Promise<Server>;
  model(server: Server, options?: RequestOptions & { apiKey?: string }): ChatModel;
  /** The URL a streaming request goes to. */
  streamUrl(server: Server): string;
  /** How its 429 message begins. */
  rateLimited: string;
  /** A stream that yields each text at once, then ends without finishing (`tail` payloads after them). */
  partial(texts: readonly string[], tail?: readonly (string | object)[]): FaultReply;
  /** A whole answer of `text` as the server streams it, but without its end (finish reason, last events). */
  unfinished(text: string): FaultReply;
  /** A stream holding one error event saying `message`. */
  errorEvent(message: string): FaultReply;
  /** What the error of that event says. */
  errorEventSays: RegExp;
  /** Events a streamed text answer sends before its first text. */
  preamble: number;
  /** Events of a streamed "one two three four five" up to and with "two ". */
  twoWords: number;
}

const handler = (reply: FaultReplies) => (Array.isArray(reply) ? replies(reply) : reply);
const anthropicText = (text: string) => ({
  type: 'content_block_delta',
  index: 0,
  delta: { type: 'text_delta', text },
});
const MESSAGE_START = {
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    content: [],
    usage: { input_tokens: 5, output_tokens: 1 },
  },
};

const ADAPTERS: Adapter[] = [
  {
    name: 'openai-compatible',
    start: (reply) => startOpenAITestServer(handler(reply) as OpenAIReplySpec),
    model: (server, options) =>
      createOpenAICompatibleModel({
        model: 'test-model',
        baseUrl: server.url,
        apiKey: 'sk-test',
        retryDelayMs: 5,
        ...options,
      }),
    streamUrl: (server) => `${server.url}/chat/completions`,
    rateLimited: 'rate limit reached',
    // Without [DONE]: with it, a stream without finish_reason is complete.
    partial: (texts, tail = []) =>
      ({
        events: [...texts.map((content) => ({ choices: [{ index: 0, delta: { content } }] })), ...tail],
        done: false,
      }) as OpenAIReplySpec,
    unfinished: (text) => ({ text, finishReason: null, done: false }) as OpenAIReplySpec,
    errorEvent: (message) => ({ events: [{ error: { message, type: 'server_error' } }] }),
    errorEventSays: /The model is overloaded/,
    preamble: 1,
    twoWords: 3,
  },
  {
    name: 'anthropic',
    start: (reply) => startAnthropicTestServer(handler(reply) as AnthropicReplySpec),
    model: (server, options) =>
      createAnthropicModel({
        model: 'claude-test',
        baseUrl: server.url,
        apiKey: 'sk-ant-test',
        retryDelayMs: 5,
        ...options,
      }),
    streamUrl: (server) => `${server.url}/v1/messages`,
    rateLimited: 'rate limit reached',
    // A text block that opens with text, so that the first event yields at once.
    partial: ([first = '', ...rest], tail = []) => ({
      events: [
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: first } },
        ...rest.map(anthropicText),
        ...tail,
      ],
    }),
    // No message_delta, no message_stop.
    unfinished: (text) => ({
      events: [
        MESSAGE_START,
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        anthropicText(text),
      ],
    }),
    errorEvent: (message) => ({
      events: [MESSAGE_START, { type: 'error', error: { type: 'overloaded_error', message } }],
    }),
    errorEventSays: /overloaded_error: The model is overloaded/,
    preamble: 2,
    twoWords: 5,
  },
  {
    name: 'gemini',
    start: (reply) => startGeminiTestServer(handler(reply) as GeminiReplySpec),
    model: (server, options) =>
      createGeminiModel({
        model: 'gemini-test',
        baseUrl: server.url,
        apiKey: 'AIza-test',
        retryDelayMs: 5,
        ...options,
      }),
    streamUrl: (server) => `${server.url}/models/gemini-test:streamGenerateContent?alt=sse`,
    rateLimited: 'rate limit or quota reached',
    partial: (texts, tail = []) => ({ events: [...texts.map((text) => chunk([{ text }])), ...tail] }),
    unfinished: (text) => ({ text, finishReason: null }) as GeminiReplySpec,
    // By its code: an error event is an HTTP error sent in the stream.
    errorEvent: (message) => ({ events: [{ error: { code: 503, message, status: 'UNAVAILABLE' } }] }),
    errorEventSays: /HTTP 503.*The model is overloaded/,
    preamble: 0,
    twoWords: 2,
  },
];

const ASK: ChatMessage[] = [{ role: 'user', content: 'What is the weather in Tokyo?' }];
const WEB_PAGE: FaultReply = {
  body: '<!DOCTYPE html><html><body>Welcome</body></html>',
  headers: { 'content-type': 'text/html' },
};

for (const adapter of ADAPTERS) {
  const open: Server[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  const serve = async (reply: FaultReplies) => {
    const server = await adapter.start(reply);
    open.push(server);
    return server;
  };

  describe(`${adapter.name}: faults`, () => {
    it('retries a 429, honouring Retry-After, then succeeds', async () => {
      const server = await serve([
        { status: 429, headers: { 'retry-after': '0.2' }, error: 'Slow down, please' },
        { text: 'ok' },
      ]);
      const notices: RetryNotice[] = [];
      const started = performance.now();
      const events = await collect(
        adapter.model(server, { onRetry: (notice) => notices.push(notice) }).stream({ messages: ASK, stream: true }),
      );
      assert.ok(performance.now() - started >= 190, 'waited for Retry-After');
      assert.equal(textOf(events), 'ok');
      assert.equal(server.requests.length, 2);
      assert.deepEqual(
        notices.map((notice) => [notice.delayMs, notice.error.code]),
        [[200, 'rate-limited']],
      );
      assert.ok(
        notices[0]!.error.message.includes(`${adapter.rateLimited} (HTTP 429: Slow down, please)`),
        notices[0]!.error.message,
      );
    });

    it('gives up at once when Retry-After is longer than the longest wait', async () => {
      const server = await serve({ status: 429, headers: { 'retry-after': '120' }, error: 'slow down' });
      const error = await failure(adapter.model(server).stream({ messages: ASK }));
      assert.equal(error.code, 'rate-limited');
      assert.equal(error.status, 429);
      assert.match(error.message, /asks to wait 120 s/);
      assert.equal(server.requests.length, 1);
    });

    it('retries a 5xx, then succeeds; after maxRetries of them fails with server-error', async () => {
      const flaky = await serve([{ status: 503, error: 'Try again later' }, { text: 'ok' }]);
      assert.equal(textOf(await collect(adapter.model(flaky).stream({ messages: ASK, stream: true }))), 'ok');
      assert.equal(flaky.requests.length, 2);
      for (const status of [500, 502, 503]) {
        const down = await serve({ status, error: 'An internal error has occurred' });
        const error = await failure(adapter.model(down, { maxRetries: 2 }).stream({ messages: ASK }));
        assert.equal(error.code, 'server-error');
        assert.equal(error.status, status);
        assert.equal(error.retryable, true);
        assert.ok(
          error.message.includes(`HTTP ${status} from ${down.url}: An internal error has occurred`),
          error.message,
        );
        assert.equal(down.requests.length, 3);
      }
    });

    it('says the server is not running when the connection is refused, after retrying', async () => {
      const server = await adapter.start({ text: 'gone' });
      await server.close();
      const notices: RetryNotice[] = [];
      const error = await failure(
        adapter.model(server, { maxRetries: 1, onRetry: (notice) => notices.push(notice) }).stream({ messages: ASK }),
      );
      assert.equal(error.code, 'network');
      assert.equal(error.retryable, true);
      assert.equal(error.message, `cannot reach ${server.url}: connection refused; is the server running?`);
      assert.equal(notices.length, 1);
    });

    it('times out a server that never answers, retrying first', { timeout: 20_000 }, async () => {
      const server = await serve({ hang: true });
      const error = await failure(
        adapter.model(server, { timeoutMs: 80, maxRetries: 1 }).stream({ messages: ASK, stream: true }),
      );
      assert.equal(error.code, 'timeout');
      assert.ok(error.message.includes(`no response from ${adapter.streamUrl(server)} within 0.08 s`), error.message);
      assert.equal(server.requests.length, 2);
    });

    it('times out a stream that stalls after it began, without retrying', async () => {
      const server = await serve({ ...adapter.partial(['one ', 'two']), chunkDelayMs: 600 });
      const error = await failure(adapter.model(server, { timeoutMs: 150 }).stream({ messages: ASK, stream: true }));
      assert.equal(error.code, 'timeout');
      assert.equal(textOf(error.before), 'one ');
      assert.match(error.message, /stopped sending for 0\.15 s/);
      assert.equal(server.requests.length, 1);
    });

    it('does not count a slow consumer against the timeout', async () => {
      const server = await serve({ text: 'one two', chunkDelayMs: 20 });
      const events = await collect(
        adapter.model(server, { timeoutMs: 100 }).stream({ messages: ASK, stream: true }),
        () => new Promise((resolve) => setTimeout(resolve, 150)),
      );
      assert.equal(textOf(events), 'one two');
    });

    it('reports a stream cut after events as stream-cut, without retrying', async () => {
      const server = await serve({ text: 'one two three four five', cutAfterChunks: adapter.twoWords });
      const error = await failure(adapter.model(server).stream({ messages: ASK, stream: true }));
      assert.equal(error.code, 'stream-cut');
      assert.equal(textOf(error.before), 'one two ');
      assert.equal(server.requests.length, 1);
    });

    it('retries a response cut before any event, streaming or not', async () => {
      const server = await serve([
        { text: 'lost', cutAfterChunks: adapter.preamble },
        { text: 'half', cutAfterChunks: 0 },
        { text: 'whole' },
      ]);
      assert.equal(textOf(await collect(adapter.model(server).stream({ messages: ASK, stream: true }))), 'whole');
      assert.equal(server.requests.length, 3);
      const plain = await serve({ text: 'never whole', cutAfterChunks: 1 });
      const error = await failure(adapter.model(plain, { maxRetries: 1 }).stream({ messages: ASK }));
      assert.equal(error.code, 'stream-cut');
      assert.equal(plain.requests.length, 2);
    });

    it('reports a stream that ends without finishing as stream-cut', async () => {
      const server = await serve(adapter.unfinished('and then'));
      const error = await failure(adapter.model(server).stream({ messages: ASK, stream: true }));
      assert.equal(error.code, 'stream-cut');
      assert.equal(textOf(error.before), 'and then');
    });

    it('reports a web page, streaming or not, and broken JSON in a stream as bad-response', async () => {
      const page = await serve(WEB_PAGE);
      for (const stream of [false, true]) {
        const error = await failure(adapter.model(page).stream({ messages: ASK, stream }));
        assert.equal(error.code, 'bad-response');
        assert.match(error.message, /not JSON.*looks like a web page: check .*base URL/);
      }
      const broken = await serve(adapter.partial(['hi'], ['{"candidates": [']));
      const error = await failure(adapter.model(broken).stream({ messages: ASK, stream: true }));
      assert.equal(error.code, 'bad-response');
      assert.equal(textOf(error.before), 'hi');
    });

    it('reports an error event in the stream as server-error', async () => {
      const server = await serve(adapter.errorEvent('The model is overloaded'));
      const error = await failure(adapter.model(server, { maxRetries: 0 }).stream({ messages: ASK, stream: true }));
      assert.equal(error.code, 'server-error');
      assert.match(error.message, adapter.errorEventSays);
    });
  });

  describe(`${adapter.name}: cancelling`, () => {
    const request = (signal: AbortSignal): ModelRequest => ({ messages: ASK, stream: true, signal });

    // The server sends nothing more after the first event and the adapter's own timeout is the default
    // 60 s: only the abort can end these requests within the test's timeout.
    it('stops a stream at once when the signal aborts', { timeout: 20_000 }, async () => {
      const server = await serve({ ...adapter.partial(['one ', 'two']), hangAfterChunks: 1 });
      const controller = new AbortController();
      const error = await failure(adapter.model(server).stream(request(controller.signal)), () => controller.abort());
      assert.equal(error.code, 'aborted');
      assert.equal(textOf(error.before), 'one ');
      assert.equal(server.requests.length, 1);
    });

    it('stops while waiting for the headers, and during a Retry-After wait', { timeout: 20_000 }, async () => {
      const controller = new AbortController();
      // Aborts once the server holds the request and sends no headers.
      const waiting = await serve(() => {
        controller.abort();
        return { hang: true };
      });
      assert.equal((await failure(adapter.model(waiting).stream(request(controller.signal)))).code, 'aborted');
      assert.equal(waiting.requests.length, 1);
      // Aborts once the wait of 50 s (within the longest wait, 60 s) has begun.
      const limited = await serve({ status: 429, headers: { 'retry-after': '50' } });
      const again = new AbortController();
      const notices: RetryNotice[] = [];
      const onRetry = (notice: RetryNotice) => {
        notices.push(notice);
        setImmediate(() => again.abort());
      };
      const error = await failure(adapter.model(limited, { onRetry }).stream(request(again.signal)));
      assert.equal(error.code, 'aborted');
      assert.deepEqual(
        notices.map((notice) => notice.delayMs),
        [50_000],
        'the abort came during the wait',
      );
      assert.equal(limited.requests.length, 1, 'no request after the abort');
    });

    it('sends nothing when the signal has already aborted', async () => {
      const server = await serve({ text: 'never' });
      const error = await failure(adapter.model(server).stream(request(AbortSignal.abort())));
      assert.equal(error.code, 'aborted');
      assert.equal(server.requests.length, 0);
    });

    it('lets the consumer stop early, and the model still works after', async () => {
      const server = await serve({ text: 'one two three four', chunkDelayMs: 20 });
      const model = adapter.model(server);
      for await (const event of model.stream({ messages: ASK, stream: true })) {
        assert.equal(event.type, 'text-delta');
        break;
      }
      assert.equal(textOf(await collect(model.stream({ messages: ASK, stream: true }))), 'one two three four');
    });
  });
}
