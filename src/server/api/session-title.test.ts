// A new chat's name: a short title from the model, in the person's language, asked beside the turn;
// when the model gives none (it fails, or answers with a call), the name cut from the first message.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelServer, testModel } from '../../assistant/turn-test-support.ts';
import { chat, startTestService } from '../server-test-support.ts';
import { cleanTitle } from './session-title.ts';

type Body = { messages: { role: string; content?: unknown }[] };
/** Whether the request is the title request (its system prompt asks for a title). */
const asksTitle = (body: Body) =>
  body.messages.some((message) => message.role === 'system' && /title|标题|タイトル/.test(String(message.content)));

describe('session titles', () => {
  it('a new chat takes the title the model gives, in the language of the chat; the page learns it before done ends the stream', async (t) => {
    const seen: string[] = [];
    const server = await modelServer(t, (request) => {
      const body = request.body as Body;
      if (!asksTitle(body)) return { text: 'Sunny, 21 °C.' };
      seen.push(String(body.messages.find((message) => message.role === 'system')?.content));
      return { text: '「オスロの天気」。' };
    });
    const { url, context } = await startTestService(t, { model: testModel(server), sessionTitles: 'model' });
    const reply = await chat(url, {
      message: 'What is the weather in Oslo today, and should I take an umbrella?',
      lang: 'ja',
    });
    const sessions = reply.events.filter((message) => message.event === 'session').map((message) => message.data.name);
    assert.deepEqual(sessions, ['What is the weather in Oslo today, and…', 'オスロの天気']);
    assert.match(seen[0] ?? '', /日本語/);
    const done = reply.events.find((message) => message.event === 'done')!.data;
    assert.equal(done.text, 'Sunny, 21 °C.');
    assert.equal((await context.store.findSession('オスロの天気'))?.name, 'オスロの天気');
    assert.equal(await context.store.findSession('What is the weather in Oslo today, and…'), undefined);
  });

  it('a title the model does not give (an error, or a tool call) leaves the cut name, and the turn is answered as usual', async (t) => {
    let title = 0;
    const server = await modelServer(t, (request) => {
      if (!asksTitle(request.body as Body)) return { text: 'Hello!' };
      title++;
      return title === 1 ? { status: 500, error: 'no' } : { toolCalls: [{ name: 'x', arguments: {} }] };
    });
    const { url } = await startTestService(t, { model: testModel(server, { maxRetries: 0 }), sessionTitles: 'model' });
    for (const message of ['Hi there', 'Hi again']) {
      const reply = await chat(url, { message });
      const sessions = reply.events.filter((event) => event.event === 'session').map((event) => event.data.name);
      assert.deepEqual(sessions, [message]);
      assert.equal(reply.events.at(-1)?.data.text, 'Hello!');
    }
    assert.equal(title, 2);
  });

  it('a chat that goes on (a session given) is not named again', async (t) => {
    let titles = 0;
    const server = await modelServer(t, (request) => {
      if (asksTitle(request.body as Body)) titles++;
      return { text: 'ok' };
    });
    const { url } = await startTestService(t, { model: testModel(server), sessionTitles: 'model' });
    await chat(url, { message: 'first' });
    await chat(url, { message: 'second', session: 'ok' });
    assert.equal(titles, 1);
  });

  it('cleans what a model says: the first line, no quotes, label or final period, at most 60 characters', () => {
    assert.equal(cleanTitle('"Weather in Oslo."\nMore text'), 'Weather in Oslo');
    assert.equal(cleanTitle('Title: **Trip planning**'), 'Trip planning');
    assert.equal(cleanTitle('标题：东京天气。'), '东京天气');
    assert.equal(cleanTitle('   \n  '), undefined);
    const long = cleanTitle('word '.repeat(30))!;
    assert.ok([...long].length <= 61 && long.endsWith('…'), long);
  });
});
