// /v1 judged by the AI SDK's own OpenAI provider (@ai-sdk/openai), on its default settings: its
// default model speaks the Responses API — generateText plain, with a client tool round trip, and
// streamText — and `openai.chat(...)` speaks chat completions, here with generateObject.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createOpenAI } from '@ai-sdk/openai';
import { generateObject, generateText, jsonSchema, type ModelMessage, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import type { ReplySpec } from '../../models/testing/openai-wire.ts';
import { replies } from '../../models/testing/wire-server.ts';
import type { Cleanup } from '../../tool-runtime/test-support.ts';
import { PNG_BASE64, PNG_BYTES } from '../../models/testing/test-image.ts';
import { openaiService } from './openai-test-support.ts';

async function provider(t: Cleanup, handler: Parameters<typeof openaiService>[1], vision = false) {
  const { model, service } = await openaiService(t, handler, {}, vision ? { vision } : {});
  return { model, openai: createOpenAI({ baseURL: `${service.url}v1`, apiKey: 'unused' }) };
}

const Weather = z.object({ city: z.string(), celsius: z.number() });
const WEATHER = { city: 'Paris', celsius: 21 };

describe('/v1 with @ai-sdk/openai', () => {
  it('generateText through the Responses API: our tool runs, the answer and the usage come back', async (t) => {
    const { model, openai } = await provider(
      t,
      replies<ReplySpec>([
        { toolCalls: [{ name: 'lookup', arguments: { word: 'river' } }] },
        { text: 'A river is a stream of water.', usage: { prompt_tokens: 30, completion_tokens: 8 } },
      ]),
    );
    const result = await generateText({ model: openai('riverse'), prompt: 'What is a river?', maxRetries: 0 });
    assert.equal(result.text, 'A river is a stream of water.');
    assert.equal(result.finishReason, 'stop');
    assert.equal(model.requests.length, 2, 'our tool ran between the two model requests');
    assert.equal(model.requests[1]!.body.messages.find((message) => message.role === 'tool')?.content, 'found: river');
    assert.ok((result.usage.outputTokens ?? 0) > 0, JSON.stringify(result.usage));
  });

  it('generateText with a client tool: the call comes back, its result continues the response', async (t) => {
    const { model, openai } = await provider(t, (request) => {
      const result = request.body.messages.find((message) => message.role === 'tool');
      return result === undefined
        ? { toolCalls: [{ name: 'show_note', arguments: { text: 'hi' } }] }
        : { text: `The note said: ${String(result.content)}` };
    });
    const shown: string[] = [];
    const result = await generateText({
      model: openai('riverse'),
      prompt: 'Show a note saying hi',
      tools: {
        show_note: tool({
          description: 'Shows a note to the person',
          inputSchema: jsonSchema<{ text: string }>({
            type: 'object',
            properties: { text: { type: 'string' } },
            required: ['text'],
            additionalProperties: false,
          }),
          execute: async ({ text }) => {
            shown.push(text);
            return `shown: ${text}`;
          },
        }),
      },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    assert.deepEqual(shown, ['hi']);
    assert.equal(result.steps.length, 2);
    assert.equal(result.steps[0]?.finishReason, 'tool-calls');
    assert.match(result.text, /^The note said: "?shown: hi"?$/);
    const offered = model.requests[0]!.body.tools?.map((item) => item.function.name) ?? [];
    assert.ok(offered.includes('show_note') && offered.includes('lookup'), offered.join(', '));
    // Continued later: the call and the answer are sent back by reference, the call's result whole.
    const next = await generateText({
      model: openai('riverse'),
      messages: [
        { role: 'user', content: 'Show a note saying hi' },
        ...result.steps.flatMap((step) => step.response.messages),
        { role: 'user', content: 'Thanks' },
      ],
      maxRetries: 0,
    });
    assert.match(next.text, /^The note said/);
    const sent = model.requests.at(-1)!.body.messages.filter((message) => message.role !== 'system');
    assert.deepEqual(
      sent.map((message) => message.role),
      ['user', 'assistant', 'tool', 'assistant', 'user'],
    );
    assert.equal(sent[1]?.tool_calls?.[0]?.function?.name, 'show_note');
  });

  it('streamText through the Responses API: the deltas make the answer', async (t) => {
    const { openai } = await provider(t, { text: 'Rivers flow downhill to the sea.' });
    const result = streamText({ model: openai('riverse'), prompt: 'Where do rivers go?', maxRetries: 0 });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    assert.equal(text, 'Rivers flow downhill to the sea.');
    assert.equal(await result.finishReason, 'stop');
  });

  it('streamText with a client tool: the call streams as its input, runs in the client, and the answer follows', async (t) => {
    const { openai } = await provider(t, (request) => {
      const result = request.body.messages.find((message) => message.role === 'tool');
      return result === undefined
        ? { toolCalls: [{ name: 'show_note', arguments: { text: 'hi' } }] }
        : { text: `Done: ${String(result.content)}` };
    });
    const result = streamText({
      model: openai('riverse'),
      prompt: 'Show a note saying hi',
      tools: {
        show_note: tool({
          description: 'Shows a note to the person',
          inputSchema: jsonSchema<{ text: string }>({
            type: 'object',
            properties: { text: { type: 'string' } },
            required: ['text'],
            additionalProperties: false,
          }),
          execute: async ({ text }) => `shown: ${text}`,
        }),
      },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    const calls: unknown[] = [];
    for await (const part of result.fullStream) {
      assert.notEqual(part.type, 'error', JSON.stringify(part));
      if (part.type === 'tool-call') calls.push(part.input);
    }
    assert.deepEqual(calls, [{ text: 'hi' }]);
    assert.match(await result.text, /^Done: "?shown: hi"?$/);
  });

  it('openai.chat with generateObject: chat completions, the schema as response_format, the object back', async (t) => {
    const { model, openai } = await provider(
      t,
      replies<ReplySpec>([
        { toolCalls: [{ name: 'lookup', arguments: { word: 'Paris' } }] },
        { text: JSON.stringify(WEATHER) },
      ]),
    );
    const { object } = await generateObject({
      model: openai.chat('riverse'),
      schema: Weather,
      prompt: 'Weather in Paris?',
      maxRetries: 0,
    });
    assert.deepEqual(object, WEATHER);
    const format = model.requests.at(-1)!.body.response_format as { type: string; json_schema?: { schema: object } };
    assert.equal(format.type, 'json_schema');
  });

  it('generateObject through the Responses API: text.format reaches the model as response_format', async (t) => {
    const { model, openai } = await provider(t, { text: JSON.stringify(WEATHER) });
    const { object } = await generateObject({
      model: openai('riverse'),
      schema: Weather,
      prompt: 'Weather in Paris?',
      maxRetries: 0,
    });
    assert.deepEqual(object, WEATHER);
    const format = model.requests[0]!.body.response_format as { type: string };
    assert.equal(format.type, 'json_schema');
  });

  it('a conversation continued with response.messages: the items it refers to by id are those kept here', async (t) => {
    const { model, openai } = await provider(
      t,
      replies<ReplySpec>([
        { toolCalls: [{ name: 'lookup', arguments: { word: 'river' } }] },
        { text: 'A river is a stream of water.' },
        { text: 'A lake is still water.' },
      ]),
    );
    const messages: ModelMessage[] = [{ role: 'user', content: 'What is a river?' }];
    const first = await generateText({ model: openai('riverse'), messages, maxRetries: 0 });
    // The provider sends the answer back as an item_reference to the stored response's message.
    messages.push(...first.response.messages, { role: 'user', content: 'And a lake?' });
    const second = await generateText({ model: openai('riverse'), messages, maxRetries: 0 });
    assert.equal(second.text, 'A lake is still water.');
    const sent = model.requests[2]!.body.messages.filter((message) => message.role !== 'system');
    assert.deepEqual(
      sent.map((message) => [message.role, message.content]),
      [
        ['user', 'What is a river?'],
        ['assistant', 'A river is a stream of water.'],
        ['user', 'And a lake?'],
      ],
    );
  });

  it('the same with store: false: the items are sent whole', async (t) => {
    const { model, openai } = await provider(
      t,
      replies<ReplySpec>([{ text: 'A river is a stream of water.' }, { text: 'A lake is still water.' }]),
    );
    const providerOptions = { openai: { store: false } };
    const messages: ModelMessage[] = [{ role: 'user', content: 'What is a river?' }];
    const first = await generateText({ model: openai('riverse'), messages, providerOptions, maxRetries: 0 });
    messages.push(...first.response.messages, { role: 'user', content: 'And a lake?' });
    const second = await generateText({ model: openai('riverse'), messages, providerOptions, maxRetries: 0 });
    assert.equal(second.text, 'A lake is still water.');
    assert.equal(model.requests[1]!.body.messages.filter((message) => message.role === 'assistant').length, 1);
  });

  it('a picture as a file part reaches a vision model, through the Responses API and through chat completions', async (t) => {
    const { model, openai } = await provider(t, { text: 'A small square.' }, true);
    for (const riverse of [openai('riverse'), openai.chat('riverse')]) {
      const result = await generateText({
        model: riverse,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is it?' },
              { type: 'file', data: PNG_BYTES, mediaType: 'image/png' },
            ],
          },
        ],
        maxRetries: 0,
      });
      assert.equal(result.text, 'A small square.');
    }
    assert.equal(model.requests.length, 2);
    for (const request of model.requests)
      assert.deepEqual(request.body.messages.at(-1)?.content, [
        { type: 'text', text: 'What is it?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
      ] as unknown as string);
  });
});
