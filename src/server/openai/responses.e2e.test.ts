// /v1/responses judged by the official `openai` client 7.59: the service on 127.0.0.1:0 with a
// drop-in tool, the real local OpenAI-protocol server as its model. A plain answer with our tool
// behind it, a client function tool handed back as a function_call item and continued with a
// function_call_output (whole input, and previous_response_id), store: false, GET and DELETE,
// `responses.stream` with its events and final response, and the errors as the client's classes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import OpenAI from 'openai';
import type { FunctionTool, ResponseInputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { OpenAITestServer, ReplySpec } from '../../models/testing/openai-wire.ts';
import { replies } from '../../models/testing/wire-server.ts';
import { sseMessages } from '../server-test-support.ts';
import { openaiService } from './openai-test-support.ts';

const SHOW_NOTE: FunctionTool = {
  type: 'function',
  name: 'show_note',
  description: 'Shows a note on the screen',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
    additionalProperties: false,
  },
  strict: true,
};

const LOOKUP_THEN_ANSWER = replies<ReplySpec>([
  { toolCalls: [{ name: 'lookup', arguments: { word: 'river' } }] },
  { text: 'River means a stream of water.' },
]);
/** Our tool, then the client's, then (after its result) the answer. */
const LOOKUP_THEN_NOTE_THEN_ANSWER = replies<ReplySpec>([
  { toolCalls: [{ name: 'lookup', arguments: { word: 'river' } }] },
  { text: 'Showing it.', toolCalls: [{ name: 'show_note', arguments: { text: 'found: river' } }] },
  { text: 'The note is on the screen.' },
]);

const sent = (model: OpenAITestServer, index: number) => model.requests[index]!.body.messages;
const toolContents = (model: OpenAITestServer, index: number) =>
  sent(model, index)
    .filter((message) => message.role === 'tool')
    .map((message) => message.content);

describe('/v1/responses with the openai client', () => {
  it('answers with our tool run behind it: a message item, usage, and the trace recorded', async (t) => {
    const { client, model, service } = await openaiService(t, LOOKUP_THEN_ANSWER);
    const response = await client.responses.create(
      { model: 'riverse', instructions: 'Be brief.', input: 'What does river mean?' },
      { headers: { 'X-Riverse-Session': 'from-responses' } },
    );

    assert.equal(response.object, 'response');
    assert.match(response.id, /^resp_/);
    assert.equal(response.status, 'completed');
    assert.equal(response.model, 'riverse');
    assert.equal(response.instructions, 'Be brief.');
    assert.equal(response.output_text, 'River means a stream of water.');
    assert.equal(response.output.length, 1);
    const [message] = response.output;
    assert.equal(message?.type, 'message');
    assert.match(message!.id!, /^msg_/);
    assert.ok(response.usage!.input_tokens > 0);
    assert.equal(response.usage!.total_tokens, response.usage!.input_tokens + response.usage!.output_tokens);
    // The instructions reached the model after our system prompt; our tool ran server-side.
    const system = sent(model, 0).find((m) => m.role === 'system');
    assert.match(String(system?.content), /Be brief\.$/);
    assert.equal(model.requests.length, 2);
    assert.deepEqual(toolContents(model, 1), ['found: river']);
    const traces = await service.context.store.traces({ session: 'from-responses' });
    assert.deepEqual(
      traces.map((trace) => trace.tool),
      ['lookup'],
    );
  });

  it('hands a client tool back as a function_call item, and goes on from its function_call_output', async (t) => {
    const { client, model } = await openaiService(t, LOOKUP_THEN_NOTE_THEN_ANSWER);
    const first = await client.responses.create({
      model: 'riverse',
      input: 'Look up river and show it',
      tools: [SHOW_NOTE],
    });
    assert.equal(first.status, 'completed');
    assert.deepEqual(
      first.output.map((item) => item.type),
      ['message', 'function_call'],
    );
    assert.equal(first.output_text, 'Showing it.');
    const call = first.output[1]!;
    assert.ok(call.type === 'function_call');
    assert.equal(call.name, 'show_note');
    assert.deepEqual(JSON.parse(call.arguments), { text: 'found: river' });
    assert.match(call.call_id, /^call_/);
    assert.deepEqual(first.tools, [{ ...SHOW_NOTE }]);

    // The whole conversation sent back, as the Agents SDK does: our lookup is put back in place.
    const input: ResponseInputItem[] = [
      { role: 'user', content: 'Look up river and show it' },
      ...(first.output as ResponseInputItem[]),
      { type: 'function_call_output', call_id: call.call_id, output: 'shown' },
    ];
    const second = await client.responses.create({ model: 'riverse', input, tools: [SHOW_NOTE] });
    assert.equal(second.output_text, 'The note is on the screen.');
    const messages = sent(model, 2);
    assert.deepEqual(toolContents(model, 2), ['found: river', 'shown']);
    assert.equal(messages.filter((m) => m.role === 'assistant').length, 2);
  });

  it('continues from previous_response_id with only the function_call_output', async (t) => {
    const { client, model } = await openaiService(
      t,
      replies<ReplySpec>([
        { toolCalls: [{ name: 'lookup', arguments: { word: 'river' } }] },
        { text: 'Showing it.', toolCalls: [{ name: 'show_note', arguments: { text: 'found: river' } }] },
        { text: 'The note is on the screen.' },
        { text: 'Yes.' },
      ]),
    );
    const first = await client.responses.create({
      model: 'riverse',
      input: 'Look up river and show it',
      tools: [SHOW_NOTE],
    });
    const call = first.output.find((item) => item.type === 'function_call')!;
    const second = await client.responses.create({
      model: 'riverse',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'shown' }],
      tools: [SHOW_NOTE],
    });
    assert.equal(second.previous_response_id, first.id);
    assert.equal(second.output_text, 'The note is on the screen.');
    // The model saw the whole conversation: the user's message, our call and its result, the client's.
    const messages = sent(model, 2);
    assert.equal(messages.find((m) => m.role === 'user')?.content, 'Look up river and show it');
    assert.deepEqual(toolContents(model, 2), ['found: river', 'shown']);

    // A third turn chains on the second: the whole conversation again, then the new message.
    const third = await client.responses.create({ model: 'riverse', previous_response_id: second.id, input: 'Done?' });
    assert.equal(third.output_text, 'Yes.');
    const users = sent(model, 3)
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    assert.deepEqual(users, ['Look up river and show it', 'Done?']);
    assert.ok(sent(model, 3).some((m) => m.role === 'assistant' && m.content === 'The note is on the screen.'));
  });

  it("reports the model's usage, its reasoning and cached tokens summed over the turn's requests", async (t) => {
    const usage = {
      prompt_tokens: 12,
      completion_tokens: 7,
      total_tokens: 19,
      prompt_tokens_details: { cached_tokens: 8 },
      completion_tokens_details: { reasoning_tokens: 5 },
    };
    // Each turn: our tool, then the answer.
    const { client } = await openaiService(t, (_, index) =>
      index % 2 === 0
        ? { toolCalls: [{ name: 'lookup', arguments: { word: 'river' } }], usage }
        : { text: 'A stream.', usage },
    );
    for (const stream of [false, true]) {
      const response = stream
        ? await client.responses.stream({ model: 'riverse', input: 'River?' }).finalResponse()
        : await client.responses.create({ model: 'riverse', input: 'River?' });
      assert.deepEqual(response.usage, {
        input_tokens: 24,
        input_tokens_details: { cached_tokens: 16 },
        output_tokens: 14,
        output_tokens_details: { reasoning_tokens: 10 },
        total_tokens: 38,
      });
    }
  });

  it('keeps nothing with store: false: a later previous_response_id to it is a 404 that says why', async (t) => {
    const { client } = await openaiService(t, { text: 'Hello.' });
    const response = await client.responses.create({ model: 'riverse', input: 'Hi', store: false });
    assert.equal((response as { store?: boolean }).store, false);
    assert.equal(response.output_text, 'Hello.');
    await assert.rejects(client.responses.retrieve(response.id), (error: unknown) => {
      assert.ok(error instanceof OpenAI.NotFoundError);
      assert.equal(error.code, 'response-not-found');
      return true;
    });
    await assert.rejects(
      client.responses.create({ model: 'riverse', input: 'And?', previous_response_id: response.id }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.NotFoundError);
        assert.equal(error.code, 'response-not-found');
        assert.equal(error.param, 'previous_response_id');
        assert.match(error.message, /"store": false/);
        return true;
      },
    );
  });

  it('retrieves a stored response as it was answered, and deletes it', async (t) => {
    const { client } = await openaiService(t, { text: 'Hello.' });
    const response = await client.responses.create({ model: 'riverse', input: 'Hi', metadata: { topic: 'greeting' } });
    const again = await client.responses.retrieve(response.id);
    assert.deepEqual(again, { ...response, output_text: again.output_text });
    assert.deepEqual(again.metadata, { topic: 'greeting' });
    await client.responses.delete(response.id);
    await assert.rejects(client.responses.retrieve(response.id), OpenAI.NotFoundError);
    await assert.rejects(client.responses.delete(response.id), OpenAI.NotFoundError);
  });

  it('streams events in OpenAI order with sequence numbers, and the final response', async (t) => {
    const { client } = await openaiService(t, LOOKUP_THEN_ANSWER);
    const stream = client.responses.stream({ model: 'riverse', input: 'What does river mean?' });
    const events: ResponseStreamEvent[] = [];
    let deltas = '';
    stream.on('response.output_text.delta', (event) => void (deltas += event.delta));
    for await (const event of stream) events.push(event);
    const final = await stream.finalResponse();

    assert.deepEqual(
      [...new Set(events.map((event) => event.type))],
      [
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.content_part.added',
        'response.output_text.delta',
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
        'response.completed',
      ],
    );
    assert.deepEqual(
      events.map((event) => event.sequence_number),
      events.map((_, index) => index),
    );
    assert.equal(deltas, 'River means a stream of water.');
    assert.equal(final.status, 'completed');
    assert.equal(final.output_text, 'River means a stream of water.');
    assert.ok(final.usage!.output_tokens > 0);
    // Streamed and kept alike.
    assert.equal((await client.responses.retrieve(final.id)).output_text, final.output_text);
  });

  it('names every SSE event after its type, and ends with response.completed (no [DONE])', async (t) => {
    const { service } = await openaiService(t, { text: 'Hello there.' });
    const response = await fetch(`${service.url}v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'riverse', input: 'Hi', stream: true }),
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const messages = [];
    for await (const message of sseMessages(response)) messages.push(message);
    for (const message of messages) assert.equal(message.event, message.data.type);
    const last = messages.at(-1)!;
    assert.equal(last.event, 'response.completed');
    assert.equal(last.data.response.output[0].content[0].text, 'Hello there.');
  });

  it('streams a client call as function_call_arguments events', async (t) => {
    const { client } = await openaiService(t, LOOKUP_THEN_NOTE_THEN_ANSWER);
    const stream = client.responses.stream({
      model: 'riverse',
      input: 'Look up river and show it',
      tools: [SHOW_NOTE],
    });
    const types: string[] = [];
    let args = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.function_call_arguments.done') args = event.arguments;
    }
    const final = await stream.finalResponse();
    assert.ok(types.includes('response.function_call_arguments.delta'));
    assert.deepEqual(JSON.parse(args), { text: 'found: river' });
    assert.deepEqual(
      final.output.map((item) => item.type),
      ['message', 'function_call'],
    );
    assert.equal(types.at(-1), 'response.completed');
  });

  it('ends a stream whose model fails after it started with response.failed, in the code /v1 uses', async (t) => {
    const { client } = await openaiService(
      t,
      replies<ReplySpec>([
        { text: 'Partly', cutAfterChunks: 2 },
        { status: 400, error: 'bad request' },
      ]),
    );
    const stream = client.responses.stream({ model: 'riverse', input: 'Hi' });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const failed = events.at(-1);
    assert.ok(failed?.type === 'response.failed', failed?.type);
    assert.equal(failed.response.status, 'failed');
    // The model's error code, as a failed chat completion has it; what was shown stays, incomplete.
    assert.equal(failed.response.error?.code, 'bad-request');
    assert.match(failed.response.error!.message, /The model behind riverse failed/);
    assert.deepEqual(
      failed.response.output.map((item) => [item.type, item.type === 'message' ? item.status : '']),
      [['message', 'incomplete']],
    );
  });

  it('answers a turn that fails before anything was said with an HTTP error, streamed or not', async (t) => {
    const { client } = await openaiService(t, { status: 401, error: 'bad key' });
    for (const stream of [false, true]) {
      const request = stream
        ? client.responses.stream({ model: 'riverse', input: 'Hi' }).finalResponse()
        : client.responses.create({ model: 'riverse', input: 'Hi' });
      await assert.rejects(request, (error: unknown) => {
        assert.ok(error instanceof OpenAI.APIError, String(error));
        assert.equal(error.status, 502);
        assert.equal(error.code, 'auth');
        assert.equal(error.headers?.get('x-should-retry'), 'false');
        return true;
      });
    }
  });

  it('refuses what it cannot do with a 400 naming the field', async (t) => {
    const { client } = await openaiService(t, { text: 'unused' });
    const refused = async (body: object, param: string) =>
      assert.rejects(client.responses.create({ model: 'riverse', ...body } as never), (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.param, param);
        return true;
      });
    await refused({ input: 'Hi', temperature: 3 }, 'temperature');
    await refused({ input: 'Hi', tool_choice: { type: 'function', name: 'not_offered' } }, 'tool_choice');
    await refused(
      { input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x/y.png', detail: 'auto' }] }] },
      'input[0].content[0]',
    );
    await refused({ input: 'Hi', tools: [{ type: 'web_search' }] }, 'tools[0]');
    await refused({ input: [{ type: 'function_call_output', call_id: 'call_x', output: 'ok' }] }, 'input[0].call_id');
    await assert.rejects(client.responses.create({ model: 'gpt-4o', input: 'Hi' }), OpenAI.NotFoundError);
  });

  it('takes text.format, tool_choice and the sampling fields as /v1/chat/completions does', async (t) => {
    const { client, model } = await openaiService(t, { text: '{"city":"Oslo","days":3}' });
    const response = await client.responses.create({
      model: 'riverse',
      input: 'Plan a trip to Oslo',
      temperature: 0.3,
      top_p: 0.9,
      max_output_tokens: 200,
      tool_choice: 'none',
      text: {
        format: {
          type: 'json_schema',
          name: 'trip',
          strict: true,
          schema: {
            type: 'object',
            properties: { city: { type: 'string' }, days: { type: 'integer' } },
            required: ['city', 'days'],
            additionalProperties: false,
          },
        },
      },
    });
    assert.deepEqual(JSON.parse(response.output_text), { city: 'Oslo', days: 3 });
    const body = model.requests[0]!.body;
    assert.equal(body.temperature, 0.3);
    assert.equal(body.top_p, 0.9);
    assert.equal(body.max_tokens ?? body.max_completion_tokens, 200);
    assert.equal(body.tools, undefined, 'tool_choice none offers no tools');
    assert.equal((body.response_format as { type?: string } | undefined)?.type, 'json_schema');
  });
});
