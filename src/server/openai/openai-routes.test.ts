// /v1 judged by the official `openai` client: the service on 127.0.0.1:0 with a drop-in tool, the
// real local OpenAI-protocol server as its model. Our tool called behind a completion (streamed and
// not), a client tool handed back as tool_calls and continued, /v1/models, and the errors as the
// client's error classes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { OpenAITestServer, ReplySpec } from '../../models/testing/openai-wire.ts';
import { replies } from '../../models/testing/wire-server.ts';
import { startTestService } from '../server-test-support.ts';
import { LOOKUP_TOOL, openaiService } from './openai-test-support.ts';

const SHOW_NOTE: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'show_note',
    description: 'Shows a note on the screen',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
};

const LOOKUP_THEN_ANSWER = replies<ReplySpec>([
  { toolCalls: [{ name: 'lookup', arguments: { word: 'river' } }] },
  { text: 'River means a stream of water.' },
]);
const toolContents = (model: OpenAITestServer, index: number) =>
  model.requests[index]!.body.messages.filter((message) => message.role === 'tool').map((message) => message.content);

describe('/v1 with the openai client', () => {
  it('lists the assistant as the model riverse', async (t) => {
    const { client } = await openaiService(t, { text: 'unused' });
    const models = [];
    for await (const model of client.models.list()) models.push(model);
    assert.deepEqual(
      models.map((model) => [model.id, model.object, model.owned_by]),
      [['riverse', 'model', 'riverse']],
    );
    assert.equal((await client.models.retrieve('riverse')).id, 'riverse');
  });

  it('answers a completion with our tool run behind it, and records the call as a trace', async (t) => {
    const { client, model, service } = await openaiService(t, LOOKUP_THEN_ANSWER);
    const completion = await client.chat.completions.create(
      { model: 'riverse', messages: [{ role: 'user', content: 'What does river mean?' }] },
      { headers: { 'X-Riverse-Session': 'from-openai' } },
    );

    assert.equal(completion.object, 'chat.completion');
    assert.equal(completion.model, 'riverse');
    assert.match(completion.id, /^chatcmpl-/);
    assert.equal(completion.choices[0]?.message.content, 'River means a stream of water.');
    assert.equal(completion.choices[0]?.finish_reason, 'stop');
    assert.ok(
      completion.usage!.prompt_tokens > 0 &&
        completion.usage!.total_tokens === completion.usage!.prompt_tokens + completion.usage!.completion_tokens,
    );
    // The tool ran: the model was sent its result.
    assert.equal(model.requests.length, 2);
    assert.deepEqual(toolContents(model, 1), ['found: river']);
    const { store } = service.context;
    const traces = await store.toolCalls((await store.findSession('from-openai'))!.id);
    assert.deepEqual(
      traces.map((trace) => [trace.tool, trace.success, trace.data]),
      [['lookup', true, 'found: river']],
    );
    assert.deepEqual(
      await store.messages((await store.findSession('from-openai'))!.id),
      [],
      'the conversation is the client’s: not stored',
    );
  });

  it('streams the same turn: the role first, the text, finish_reason, the usage chunk', async (t) => {
    const { client, model } = await openaiService(t, LOOKUP_THEN_ANSWER);
    const stream = await client.chat.completions.create({
      model: 'riverse',
      messages: [{ role: 'user', content: 'What does river mean?' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    assert.deepEqual(chunks[0]!.choices[0]!.delta, { role: 'assistant', content: '' });
    assert.equal(
      chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''),
      'River means a stream of water.',
    );
    const finish = chunks.findIndex(
      (chunk) => chunk.choices[0]?.finish_reason !== null && chunk.choices[0]?.finish_reason !== undefined,
    );
    assert.equal(chunks[finish]!.choices[0]!.finish_reason, 'stop');
    assert.equal(finish, chunks.length - 2, 'finish_reason comes just before the usage chunk');
    const last = chunks.at(-1)!;
    assert.deepEqual(last.choices, []);
    assert.ok(last.usage!.total_tokens > 0);
    assert.ok(new Set(chunks.map((chunk) => chunk.id)).size === 1, 'one id for every chunk');
    assert.deepEqual(toolContents(model, 1), ['found: river']);
  });

  it('hands a client tool call back as tool_calls after running ours, and continues with the client’s result', async (t) => {
    const { client, model } = await openaiService(
      t,
      // Until the client's note is shown: look up (ours) and show (the client's) in one reply.
      (request) =>
        request.body.messages.some((message) => message.role === 'tool' && message.content === 'note shown')
          ? { text: 'I looked it up and showed you the note.' }
          : {
              text: 'Let me look.',
              toolCalls: [
                { name: 'lookup', arguments: { word: 'river' } },
                { name: 'show_note', arguments: { text: 'river: a stream' } },
              ],
            },
    );
    const user = { role: 'user' as const, content: 'Look up river and show it to me' };
    const stream = await client.chat.completions.create({
      model: 'riverse',
      messages: [user],
      tools: [SHOW_NOTE],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    const callDeltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    assert.equal(callDeltas.length, 2);
    const [head, rest] = callDeltas as [NonNullable<(typeof callDeltas)[0]>, NonNullable<(typeof callDeltas)[0]>];
    assert.equal(head.index, 0);
    assert.match(head.id!, /^call_/);
    assert.equal(head.type, 'function');
    assert.deepEqual(head.function, { name: 'show_note', arguments: '' });
    assert.deepEqual(rest, { index: 0, function: { arguments: '{"text":"river: a stream"}' } });
    assert.equal(chunks.at(-2)!.choices[0]!.finish_reason, 'tool_calls');
    assert.deepEqual(chunks.at(-1)!.choices, []);
    assert.equal(model.requests.length, 1, 'the turn stopped at the client call');

    // The openai library's stream helper puts the same answer together.
    const helped = await client.chat.completions
      .stream({ model: 'riverse', messages: [user], tools: [SHOW_NOTE] })
      .finalChatCompletion()
      .catch((error: unknown) => assert.fail(String(error)));
    const reply = helped.choices[0]!.message;
    assert.equal(helped.choices[0]!.finish_reason, 'tool_calls');
    assert.equal(reply.content, 'Let me look.');
    const call = reply.tool_calls![0]!;
    assert.equal(call.type, 'function');
    assert.equal(call.type === 'function' ? call.function.name : '', 'show_note');
    assert.equal(model.requests.length, 2);

    // The client runs its tool and sends the conversation it keeps.
    const answer = await client.chat.completions.create({
      model: 'riverse',
      tools: [SHOW_NOTE],
      messages: [
        user,
        { role: 'assistant', content: reply.content, tool_calls: reply.tool_calls! },
        { role: 'tool', tool_call_id: call.id, content: 'note shown' },
      ],
    });
    assert.equal(answer.choices[0]!.message.content, 'I looked it up and showed you the note.');
    assert.equal(answer.choices[0]!.finish_reason, 'stop');
    assert.deepEqual(
      toolContents(model, 2),
      ['found: river', 'note shown'],
      'the model sees its own earlier result and the client’s',
    );
  });

  it('refuses what it cannot do, through the client’s error classes', async (t) => {
    const { client, model } = await openaiService(t, { text: 'unused' });
    const user = [{ role: 'user' as const, content: 'hi' }];
    await assert.rejects(client.chat.completions.create({ model: 'gpt-4o', messages: user }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.NotFoundError, String(error));
      assert.equal(error.code, 'model_not_found');
      assert.equal(error.param, 'model');
      return true;
    });
    await assert.rejects(client.chat.completions.create({ model: 'riverse', messages: [] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal(error.param, 'messages');
      return true;
    });
    await assert.rejects(
      client.chat.completions.create({
        model: 'riverse',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://x/y.png' } }] }],
      }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.param, 'messages[0].content[0]');
        return true;
      },
    );
    await assert.rejects(
      client.chat.completions.create({
        model: 'riverse',
        messages: user,
        tools: [{ type: 'function', function: { name: 'lookup' } }],
      }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.param, 'tools');
        assert.equal(error.code, 'tool-name-clash');
        assert.match(error.message, /"lookup"/);
        return true;
      },
    );
    assert.equal(model.requests.length, 0, 'nothing refused reached the model');
  });

  it('says there is no model with 503, and refuses a wrong token with 401', async (t) => {
    const bare = await startTestService(t, { files: { 'lookup.ts': LOOKUP_TOOL } });
    const noModel = new OpenAI({ baseURL: `${bare.url}v1`, apiKey: 'unused', maxRetries: 0 });
    await assert.rejects(
      noModel.chat.completions.create({ model: 'riverse', messages: [{ role: 'user', content: 'hi' }] }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.APIError && error.status === 503, String(error));
        assert.equal(error.code, 'no-model');
        assert.match(error.message, /RIVERSE_MODEL/);
        return true;
      },
    );
    // A front end that sends Accept-Language gets the hint in that language.
    await assert.rejects(
      noModel.chat.completions.create(
        { model: 'riverse', messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'Accept-Language': 'ja' } },
      ),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.APIError && error.status === 503, String(error));
        assert.match(error.message, /モデルが接続されていません/);
        return true;
      },
    );

    const { service } = await openaiService(t, { text: 'unused' }, { server: { token: 'the-token' } });
    const wrong = new OpenAI({ baseURL: `${service.url}v1`, apiKey: 'not-the-token', maxRetries: 0 });
    await assert.rejects(wrong.models.list(), (error: unknown) => error instanceof OpenAI.AuthenticationError);
    const right = new OpenAI({ baseURL: `${service.url}v1`, apiKey: 'the-token', maxRetries: 0 });
    assert.equal(
      (await right.chat.completions.create({ model: 'riverse', messages: [{ role: 'user', content: 'hi' }] }))
        .choices[0]!.message.content,
      'unused',
    );
  });

  it('answers a model that fails before the stream starts with an HTTP error, which the client does not send again', async (t) => {
    const { service, model } = await openaiService(t, { status: 401, error: 'Incorrect API key provided' });
    const retrying = new OpenAI({ baseURL: `${service.url}v1`, apiKey: 'unused', maxRetries: 2 });
    await assert.rejects(
      retrying.chat.completions.create({ model: 'riverse', messages: [{ role: 'user', content: 'hi' }], stream: true }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.APIError && error.status === 502, String(error));
        assert.match(error.message, /Incorrect API key/);
        return true;
      },
    );
    assert.equal(model.requests.length, 1, 'x-should-retry: false kept the client from running the turn again');
  });
});
