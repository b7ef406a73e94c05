// /v1 judged by LangChain's ChatOpenAI (@langchain/openai 1.6): withStructuredOutput by its default
// method and by function calling, and bindTools with each tool_choice it sends.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import type { ReplySpec } from '../../models/testing/openai-wire.ts';
import { replies } from '../../models/testing/wire-server.ts';
import type { Cleanup } from '../../tool-runtime/test-support.ts';
import { openaiService } from './openai-test-support.ts';

const Weather = z.object({ city: z.string().describe('The city'), celsius: z.number() });
const WEATHER = { city: 'Paris', celsius: 21 };

async function langchain(t: Cleanup, handler: Parameters<typeof openaiService>[1]) {
  const { model, service } = await openaiService(t, handler);
  const chat = new ChatOpenAI({
    model: 'riverse',
    apiKey: 'unused',
    maxRetries: 0,
    configuration: { baseURL: `${service.url}v1` },
  });
  return { model, chat };
}

describe('/v1 with LangChain', () => {
  it('withStructuredOutput, its default method: the schema reaches the model and the answer is parsed', async (t) => {
    const { model, chat } = await langchain(
      t,
      replies<ReplySpec>([
        { toolCalls: [{ name: 'lookup', arguments: { word: 'Paris' } }] },
        { text: JSON.stringify(WEATHER) },
      ]),
    );
    const weather = await chat.withStructuredOutput(Weather, { name: 'weather' }).invoke('Weather in Paris?');
    assert.deepEqual(weather, WEATHER);
    const format = model.requests.at(-1)!.body.response_format as { type: string; json_schema?: { name: string } };
    assert.equal(format.type, 'json_schema');
    assert.equal(format.json_schema?.name, 'weather');
    // Our tool still ran before the answer.
    assert.equal(model.requests.length, 2);
  });

  it('withStructuredOutput by function calling: the named tool is forced and its call comes back parsed', async (t) => {
    const { model, chat } = await langchain(t, { toolCalls: [{ name: 'weather', arguments: WEATHER }] });
    const weather = await chat
      .withStructuredOutput(Weather, { name: 'weather', method: 'functionCalling' })
      .invoke('Weather in Paris?');
    assert.deepEqual(weather, WEATHER);
    const body = model.requests[0]!.body;
    assert.deepEqual(body.tool_choice, { type: 'function', function: { name: 'weather' } });
    assert.ok(body.tools!.some((tool) => tool.function.name === 'weather'));
  });

  for (const [given, sent] of [
    ['required', 'required'],
    ['any', 'required'],
    ['none', undefined],
    ['auto', undefined],
    ['show_note', { type: 'function', function: { name: 'show_note' } }],
  ] as const) {
    it(`bindTools with tool_choice ${given}`, async (t) => {
      const { model, chat } = await langchain(
        t,
        given === 'none' || given === 'auto'
          ? { text: 'Nothing to show.' }
          : { toolCalls: [{ name: 'show_note', arguments: { text: 'hi' } }] },
      );
      const showNote = {
        type: 'function' as const,
        function: {
          name: 'show_note',
          description: 'Shows a note',
          parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        },
      };
      const reply = await chat.bindTools([showNote], { tool_choice: given }).invoke('Show hi');
      const body = model.requests[0]!.body;
      assert.deepEqual(body.tool_choice, sent);
      if (given === 'none') {
        assert.equal(body.tools, undefined);
        assert.equal(reply.content, 'Nothing to show.');
      } else if (given !== 'auto') {
        assert.equal(reply.tool_calls?.[0]?.name, 'show_note');
        assert.deepEqual(reply.tool_calls?.[0]?.args, { text: 'hi' });
      }
    });
  }
});
