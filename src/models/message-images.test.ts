// A person's pictures in each wire's shape, sent to the real local test servers (Anthropic's holds
// the request to its rules on image blocks); and the helpers the adapters share: base64 of a view
// over its own memory, the size without decoding, the size as a person reads it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from './chat-message.ts';
import { base64Of, formatBytes, imageBytes } from './message-images.ts';
import { createAnthropicModel } from './providers/anthropic/anthropic.ts';
import { createGeminiModel } from './providers/gemini/gemini.ts';
import { createOpenAICompatibleModel } from './providers/openai/openai-compatible.ts';
import { startAnthropicTestServer } from './testing/anthropic-wire.ts';
import { startGeminiTestServer } from './testing/gemini-wire.ts';
import { collect, textOf } from './testing/model-events.ts';
import { startOpenAITestServer } from './testing/openai-wire.ts';
import { PNG_BASE64, PNG_BYTES } from './testing/test-image.ts';

const LINK = 'https://pictures.test/cat.jpg';
const question: ChatMessage[] = [
  {
    role: 'user',
    content: 'What is this?',
    images: [
      { type: 'image', data: PNG_BYTES, mimeType: 'image/png' },
      { type: 'image-url', url: LINK },
    ],
  },
];

describe("a person's pictures on each wire", () => {
  it('OpenAI: the text, then image_url parts (bytes as a data URL, the link as it is)', async (t) => {
    const server = await startOpenAITestServer({ text: 'A square.' });
    t.after(() => server.close());
    const model = createOpenAICompatibleModel({ model: 'gpt-4.1', baseUrl: server.url, apiKey: 'k', vision: true });
    assert.equal(textOf(await collect(model.stream({ messages: question }))), 'A square.');
    assert.deepEqual(server.requests[0]!.body.messages[0]!.content as unknown, [
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
      { type: 'image_url', image_url: { url: LINK } },
    ]);
  });

  it("OpenAI's rule the test server holds: nothing between an assistant's calls and their results", async (t) => {
    const server = await startOpenAITestServer({ text: 'unused' });
    t.after(() => server.close());
    const model = createOpenAICompatibleModel({ model: 'gpt-4.1', baseUrl: server.url, apiKey: 'k', maxRetries: 0 });
    const calls = [
      { id: 'c1', name: 'chart', arguments: '{}' },
      { id: 'c2', name: 'chart', arguments: '{}' },
    ];
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Two charts' },
      { role: 'assistant', content: '', toolCalls: calls },
      { role: 'tool', toolCallId: 'c1', name: 'chart', content: 'one' },
      { role: 'user', content: '', images: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }] },
      { role: 'tool', toolCallId: 'c2', name: 'chart', content: 'two' },
    ];
    await assert.rejects(collect(model.stream({ messages })), /tool_call_ids did not have response messages: c2/);
  });

  it('Anthropic: image blocks (base64, url), then the text', async (t) => {
    const server = await startAnthropicTestServer({ text: 'A square.' });
    t.after(() => server.close());
    const model = createAnthropicModel({ model: 'claude-sonnet-4-5', baseUrl: server.url, apiKey: 'k', vision: true });
    assert.equal(textOf(await collect(model.stream({ messages: question }))), 'A square.');
    assert.deepEqual(server.requests[0]!.body.messages, [
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
          { type: 'image', source: { type: 'url', url: LINK } },
          { type: 'text', text: 'What is this?' },
        ],
      },
    ]);
  });

  it('Anthropic refuses (as its API does) an image type it does not read: the test server holds the rule', async (t) => {
    const server = await startAnthropicTestServer({ text: 'unused' });
    t.after(() => server.close());
    const model = createAnthropicModel({ model: 'claude-sonnet-4-5', baseUrl: server.url, apiKey: 'k', maxRetries: 0 });
    const messages: ChatMessage[] = [
      { role: 'user', content: 'x', images: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/bmp' }] },
    ];
    await assert.rejects(collect(model.stream({ messages })), /media_type: Input should be/);
  });

  it('Gemini: the text, then inlineData; a link it cannot take is named in text', async (t) => {
    const server = await startGeminiTestServer({ text: 'A square.' });
    t.after(() => server.close());
    const model = createGeminiModel({ model: 'gemini-2.5-flash', baseUrl: server.url, apiKey: 'k', vision: true });
    assert.equal(textOf(await collect(model.stream({ messages: question }))), 'A square.');
    assert.deepEqual(server.requests[0]!.body.contents, [
      {
        role: 'user',
        parts: [
          { text: 'What is this?' },
          { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } },
          { text: `[image: ${LINK}]` },
        ],
      },
    ]);
  });
});

describe('the image helpers', () => {
  it('encodes a view over its own bytes only, and passes base64 text as it is', () => {
    const padded = new Uint8Array(PNG_BYTES.length + 8);
    padded.set(PNG_BYTES, 4);
    assert.equal(base64Of(padded.subarray(4, 4 + PNG_BYTES.length)), PNG_BASE64);
    assert.equal(base64Of(PNG_BASE64), PNG_BASE64);
  });

  it('counts the bytes of base64 text without decoding it', () => {
    for (const bytes of [PNG_BYTES, new Uint8Array(1), new Uint8Array(2), new Uint8Array(3), new Uint8Array(0)]) {
      assert.equal(
        imageBytes({ type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType: 'image/png' }),
        bytes.length,
      );
      assert.equal(imageBytes({ type: 'image', data: bytes, mimeType: 'image/png' }), bytes.length);
    }
  });

  it('says a size as a person reads it', () => {
    assert.deepEqual([75, 3_900, 1_234_567].map(formatBytes), ['75 B', '3.9 kB', '1.2 MB']);
  });
});
