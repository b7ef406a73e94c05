// /v1's structured output, tool choice and sampling judged by the official `openai` client (7.59):
// `.parse()` with a zod response format, every tool_choice form, and the sampling fields as the
// model server sees them, with the service's `server.v1` rules applied.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { ReplySpec } from '../../models/testing/openai-wire.ts';
import { replies } from '../../models/testing/wire-server.ts';
import { openaiService } from './openai-test-support.ts';

const Weather = z.object({ city: z.string(), celsius: z.number() });
const WEATHER = '{"city":"Paris","celsius":21}';
const SHOW_NOTE: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'show_note',
    description: 'Shows a note',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
};
const ask = (content: string) => [{ role: 'user' as const, content }];

describe('/v1 structured output with the openai client', () => {
  it('parses a zod response format: the format reaches the model, our tool runs first, the answer is checked', async (t) => {
    const { client, model } = await openaiService(
      t,
      replies<ReplySpec>([{ toolCalls: [{ name: 'lookup', arguments: { word: 'Paris' } }] }, { text: WEATHER }]),
    );
    const completion = await client.chat.completions.parse({
      model: 'riverse',
      messages: ask('Weather in Paris, as JSON'),
      response_format: zodResponseFormat(Weather, 'weather'),
    });
    assert.deepEqual(completion.choices[0]!.message.parsed, { city: 'Paris', celsius: 21 });
    assert.equal(model.requests.length, 2);
    const sent = model.requests[1]!.body;
    const format = sent.response_format as {
      type: string;
      json_schema: { name: string; strict: boolean; schema: object };
    };
    assert.equal(format.type, 'json_schema');
    assert.equal(format.json_schema.name, 'weather');
    assert.equal(format.json_schema.strict, true);
    assert.deepEqual(Object.keys((format.json_schema.schema as { properties: object }).properties), [
      'city',
      'celsius',
    ]);
    // Our tool ran before the answer; its result went back to the model.
    assert.ok(sent.messages.some((message) => message.role === 'tool' && message.content === 'found: Paris'));
    // Told in the system prompt as well, for models that do not hold to the field.
    assert.match(String(sent.messages[0]!.content), /JSON Schema/);
  });

  it('asks again once when the answer does not match, then answers with the JSON', async (t) => {
    const { client, model } = await openaiService(
      t,
      replies<ReplySpec>([{ text: 'It is sunny in Paris.' }, { text: `\`\`\`json\n${WEATHER}\n\`\`\`` }]),
    );
    const completion = await client.chat.completions.parse({
      model: 'riverse',
      messages: ask('Weather in Paris'),
      response_format: zodResponseFormat(Weather, 'weather'),
    });
    assert.deepEqual(completion.choices[0]!.message.parsed, { city: 'Paris', celsius: 21 });
    assert.equal(completion.choices[0]!.message.content, WEATHER);
    assert.equal(model.requests.length, 2);
    const retry = model.requests[1]!.body.messages.at(-1)!;
    assert.equal(retry.role, 'user');
    assert.match(String(retry.content), /not the JSON asked for: it is not JSON/);
  });

  it('fails with invalid-structured-output, never invalid JSON, when the second answer does not match either', async (t) => {
    const { client, model } = await openaiService(t, { text: '{"city":"Paris"}' });
    const error = await client.chat.completions
      .parse({ model: 'riverse', messages: ask('Weather'), response_format: zodResponseFormat(Weather, 'weather') })
      .then(
        () => assert.fail('answered'),
        (caught: unknown) => caught,
      );
    assert.ok(error instanceof OpenAI.APIError);
    assert.equal(error.status, 502);
    assert.equal(error.code, 'invalid-structured-output');
    assert.equal(error.param, 'response_format');
    assert.match(error.message, /must have required property 'celsius'/);
    assert.equal(model.requests.length, 2);
  });

  it('streams the checked JSON, and takes json_object', async (t) => {
    const { client, model } = await openaiService(t, { text: WEATHER });
    const stream = await client.chat.completions.create({
      model: 'riverse',
      messages: ask('Weather'),
      response_format: { type: 'json_object' },
      stream: true,
    });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    assert.equal(content, WEATHER);
    assert.deepEqual(model.requests[0]!.body.response_format, { type: 'json_object' });
  });

  it('streamed, a second mismatch is the HTTP error: nothing was sent before the check', async (t) => {
    const { client } = await openaiService(t, { text: 'Sunny.' });
    const error = await client.chat.completions
      .create({
        model: 'riverse',
        messages: ask('Weather'),
        response_format: zodResponseFormat(Weather, 'weather'),
        stream: true,
      })
      .then(
        () => assert.fail('a stream began'),
        (caught: unknown) => caught,
      );
    assert.ok(error instanceof OpenAI.APIError);
    assert.equal(error.status, 502);
    assert.equal(error.code, 'invalid-structured-output');
  });

  it('refuses a schema that cannot be checked up front, naming the field', async (t) => {
    const { client, model } = await openaiService(t, { text: 'unused' });
    const error = await client.chat.completions
      .create({
        model: 'riverse',
        messages: ask('x'),
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'nothing' } } },
      })
      .then(
        () => assert.fail('answered'),
        (caught: unknown) => caught,
      );
    assert.ok(error instanceof OpenAI.BadRequestError);
    assert.equal(error.param, 'response_format.json_schema.schema');
    assert.equal(model.requests.length, 0);
  });
});

describe('/v1 tool_choice with the openai client', () => {
  it("none: no tools reach the model, ours or the client's", async (t) => {
    const { client, model } = await openaiService(t, { text: 'Plain answer.' });
    const completion = await client.chat.completions.create({
      model: 'riverse',
      messages: ask('Look up river'),
      tools: [SHOW_NOTE],
      tool_choice: 'none',
    });
    assert.equal(completion.choices[0]!.message.content, 'Plain answer.');
    assert.equal(model.requests[0]!.body.tools, undefined);
    assert.equal(model.requests[0]!.body.tool_choice, undefined);
  });

  it('required: with client tools, every request must call one until a client tool is called', async (t) => {
    const { client, model } = await openaiService(
      t,
      replies<ReplySpec>([
        { toolCalls: [{ name: 'lookup', arguments: { word: 'river' } }] },
        { toolCalls: [{ name: 'show_note', arguments: { text: 'found' } }] },
      ]),
    );
    const completion = await client.chat.completions.create({
      model: 'riverse',
      messages: ask('Note what river means'),
      tools: [SHOW_NOTE],
      tool_choice: 'required',
    });
    assert.equal(completion.choices[0]!.finish_reason, 'tool_calls');
    assert.equal(completion.choices[0]!.message.tool_calls![0]!.type, 'function');
    assert.deepEqual(
      model.requests.map((request) => request.body.tool_choice),
      ['required', 'required'],
    );
  });

  it('required: with only our tools, the first request must call one, then the model answers', async (t) => {
    const { client, model } = await openaiService(
      t,
      replies<ReplySpec>([{ toolCalls: [{ name: 'lookup', arguments: { word: 'river' } }] }, { text: 'Done.' }]),
    );
    const completion = await client.chat.completions.create({
      model: 'riverse',
      messages: ask('river?'),
      tool_choice: 'required',
    });
    assert.equal(completion.choices[0]!.message.content, 'Done.');
    assert.deepEqual(
      model.requests.map((request) => request.body.tool_choice),
      ['required', undefined],
    );
  });

  it("a named function: the client's is forced and handed back; ours is forced once, then the model decides", async (t) => {
    const forced = await openaiService(t, { toolCalls: [{ name: 'show_note', arguments: { text: 'hi' } }] });
    const handed = await forced.client.chat.completions.create({
      model: 'riverse',
      messages: ask('Show hi'),
      tools: [SHOW_NOTE],
      tool_choice: { type: 'function', function: { name: 'show_note' } },
    });
    assert.equal(handed.choices[0]!.message.tool_calls![0]!.type, 'function');
    assert.deepEqual(forced.model.requests[0]!.body.tool_choice, { type: 'function', function: { name: 'show_note' } });

    const ours = await openaiService(
      t,
      replies<ReplySpec>([{ toolCalls: [{ name: 'lookup', arguments: { word: 'river' } }] }, { text: 'River.' }]),
    );
    const answered = await ours.client.chat.completions.create({
      model: 'riverse',
      messages: ask('river?'),
      tool_choice: { type: 'function', function: { name: 'lookup' } },
    });
    assert.equal(answered.choices[0]!.message.content, 'River.');
    assert.deepEqual(
      ours.model.requests.map((request) => request.body.tool_choice),
      [{ type: 'function', function: { name: 'lookup' } }, undefined],
    );
  });

  it('auto is the default; a name no tool has is a 400 naming tool_choice', async (t) => {
    const { client, model } = await openaiService(t, { text: 'Hi.' });
    await client.chat.completions.create({ model: 'riverse', messages: ask('hi'), tool_choice: 'auto' });
    assert.equal(model.requests[0]!.body.tool_choice, undefined);
    assert.ok(model.requests[0]!.body.tools !== undefined);
    const error = await client.chat.completions
      .create({ model: 'riverse', messages: ask('hi'), tool_choice: { type: 'function', function: { name: 'nope' } } })
      .then(
        () => assert.fail('answered'),
        (caught: unknown) => caught,
      );
    assert.ok(error instanceof OpenAI.BadRequestError);
    assert.equal(error.code, 'invalid-tool-choice');
    assert.equal(error.param, 'tool_choice');
    assert.match(error.message, /"nope"/);
  });
});

describe('/v1 sampling fields with the openai client', () => {
  it('reach the model in its own names', async (t) => {
    const { client, model } = await openaiService(t, { text: 'Hi.' });
    await client.chat.completions.create({
      model: 'riverse',
      messages: ask('hi'),
      temperature: 0.3,
      top_p: 0.8,
      max_completion_tokens: 99,
      stop: ['END'],
      seed: 42,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
    });
    const body = model.requests[0]!.body;
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
      [0.3, 0.8, 99, ['END'], 42, 0.5, -0.5],
    );
  });

  it('keep to server.v1: clamped, ignored, pinned, allowed', async (t) => {
    const yaml = [
      'tools:',
      '  isolation: none',
      'server:',
      '  v1:',
      '    temperature: { max: 0.5 }',
      '    seed: ignore',
      '    top_p: { pin: 0.9 }',
      '    stop: { pin: ["STOP"] }',
      '',
    ].join('\n');
    const { client, model } = await openaiService(t, { text: 'Hi.' }, { yaml });
    await client.chat.completions.create({
      model: 'riverse',
      messages: ask('hi'),
      temperature: 1.7,
      seed: 42,
      max_tokens: 50,
    });
    const body = model.requests[0]!.body;
    assert.deepEqual(
      [body.temperature, body.top_p, body.seed, body.max_tokens, body.stop],
      [0.5, 0.9, undefined, 50, ['STOP']],
    );
  });

  it("refuses a value out of OpenAI's bounds, naming it", async (t) => {
    const { client } = await openaiService(t, { text: 'Hi.' });
    const error = await client.chat.completions.create({ model: 'riverse', messages: ask('hi'), top_p: 2 }).then(
      () => assert.fail('answered'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof OpenAI.BadRequestError);
    assert.equal(error.param, 'top_p');
  });
});
