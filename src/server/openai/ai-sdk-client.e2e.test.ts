// /v1 judged by the AI SDK 7 through @ai-sdk/openai-compatible: generateObject, and generateText
// with Output.object, their schema sent as response_format and the answer checked; tool choice and
// sampling settings as it sends them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateObject, generateText, jsonSchema, Output, tool } from 'ai';
import { z } from 'zod';
import type { ReplySpec } from '../../models/testing/openai-wire.ts';
import { replies } from '../../models/testing/wire-server.ts';
import type { Cleanup } from '../../tool-runtime/test-support.ts';
import { openaiService } from './openai-test-support.ts';

const Weather = z.object({ city: z.string(), celsius: z.number() });
const WEATHER = { city: 'Paris', celsius: 21 };

async function aiSdk(t: Cleanup, handler: Parameters<typeof openaiService>[1], structured = true) {
  const { model, service } = await openaiService(t, handler);
  const provider = createOpenAICompatible({
    name: 'riverse',
    baseURL: `${service.url}v1`,
    apiKey: 'unused',
    supportsStructuredOutputs: structured,
  });
  return { model, riverse: provider.chatModel('riverse') };
}

describe('/v1 with the AI SDK', () => {
  it('generateObject: the schema reaches the model, our tool runs first, the object comes back', async (t) => {
    const { model, riverse } = await aiSdk(
      t,
      replies<ReplySpec>([
        { toolCalls: [{ name: 'lookup', arguments: { word: 'Paris' } }] },
        { text: JSON.stringify(WEATHER) },
      ]),
    );
    const { object } = await generateObject({
      model: riverse,
      schema: Weather,
      prompt: 'Weather in Paris?',
      maxRetries: 0,
    });
    assert.deepEqual(object, WEATHER);
    const format = model.requests.at(-1)!.body.response_format as { type: string; json_schema?: { schema: object } };
    assert.equal(format.type, 'json_schema');
    assert.ok(format.json_schema?.schema !== undefined);
    assert.equal(model.requests.length, 2);
  });

  it('generateText with Output.object, asked again once when the first answer is prose', async (t) => {
    const { model, riverse } = await aiSdk(
      t,
      replies<ReplySpec>([{ text: 'Sunny, 21 degrees.' }, { text: JSON.stringify(WEATHER) }]),
    );
    const { output } = await generateText({
      model: riverse,
      output: Output.object({ schema: Weather }),
      prompt: 'Weather in Paris?',
      maxRetries: 0,
    });
    assert.deepEqual(output, WEATHER);
    assert.equal(model.requests.length, 2);
  });

  it('json_object for a provider set up without structured outputs: the answer is still checked', async (t) => {
    const { model, riverse } = await aiSdk(t, { text: JSON.stringify(WEATHER) }, false);
    const { object } = await generateObject({ model: riverse, schema: Weather, prompt: 'Weather?', maxRetries: 0 });
    assert.deepEqual(object, WEATHER);
    assert.deepEqual(model.requests[0]!.body.response_format, { type: 'json_object' });
  });

  it('toolChoice and the sampling settings reach the model', async (t) => {
    const { model, riverse } = await aiSdk(t, { toolCalls: [{ name: 'show_note', arguments: { text: 'hi' } }] });
    const result = await generateText({
      model: riverse,
      prompt: 'Show hi',
      tools: {
        show_note: tool({
          description: 'Shows a note',
          inputSchema: jsonSchema<{ text: string }>({
            type: 'object',
            properties: { text: { type: 'string' } },
            required: ['text'],
          }),
        }),
      },
      toolChoice: { type: 'tool', toolName: 'show_note' },
      temperature: 0.2,
      topP: 0.7,
      maxOutputTokens: 64,
      stopSequences: ['END'],
      seed: 3,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      maxRetries: 0,
    });
    assert.equal(result.toolCalls[0]?.toolName, 'show_note');
    const body = model.requests[0]!.body;
    assert.deepEqual(body.tool_choice, { type: 'function', function: { name: 'show_note' } });
    assert.deepEqual(
      [
        body.temperature,
        body.top_p,
        body.max_tokens,
        body.stop,
        body.seed,
        body.presence_penalty,
        body.frequency_penalty,
      ],
      [0.2, 0.7, 64, ['END'], 3, 0.1, 0.2],
    );
  });
});
