// The Assistant around the turn loop: sessions in a real SqliteStore (SQLite in a temp folder),
// tool-call traces, the language of each message, and the history budget. Against the real local
// OpenAI-protocol server, with the weather tool from agent/tools.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChatMessage } from '../models/chat-message.ts';
import type { ReplyHandler } from '../models/testing/openai-wire.ts';
import { replies } from '../models/testing/wire-server.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { Assistant } from './assistant.ts';
import { estimateTokens } from './trim-history.ts';
import {
  assertWellFormed,
  loadRegistry,
  messagesOf,
  modelServer,
  sharedCleanup,
  systemOf,
  tempDir,
  testModel,
  toolDescription,
  wttrServer,
  type Cleanup,
} from './turn-test-support.ts';

const shared = sharedCleanup();
let tools: ToolRegistry;
before(async () => {
  const wttr = await wttrServer(shared);
  tools = await loadRegistry(shared, { wttrUrl: wttr.url });
});
after(() => shared.run());

async function openStore(t: Cleanup, dir?: string): Promise<SqliteStore> {
  const store = SqliteStore.open(dir ?? (await tempDir(t, 'riverse-data-')));
  t.after(async () => await store.close());
  return store;
}

/** Calls weather for any message that names a city (Tokyo, Paris, Atlantis), then answers. */
const weatherModel: ReplyHandler = (request) => {
  const last = request.body.messages.at(-1)!;
  if (last.role === 'tool') return { text: `Answer: ${last.content}` };
  const city = /Tokyo|Paris|Atlantis/.exec(String(last.content))?.[0];
  return city === undefined
    ? { text: `You said: ${last.content}` }
    : { toolCalls: [{ name: 'weather', arguments: { city }, id: `call_${request.body.messages.length}` }] };
};

describe('Assistant: sessions in the store', () => {
  it('a second turn sends the first turn as history, and everything is stored as it happens', async (t) => {
    const server = await modelServer(t, weatherModel);
    const store = await openStore(t);
    const assistant = new Assistant({ model: testModel(server), registry: tools, store });

    const first = await assistant.turn('Weather in Tokyo?', { session: 'trip' });
    assert.equal(first.stopReason, 'answer');
    assert.deepEqual(
      first.messages.map((message) => message.role),
      ['user', 'assistant', 'tool', 'assistant'],
    );
    const info = await store.findSession('trip');
    assert.ok(info !== undefined, 'the session was created');
    assert.deepEqual(await store.messages(info.id), first.messages);

    const second = await assistant.turn('And in Paris?', { session: 'trip' });
    assert.equal(second.stopReason, 'answer');
    const sent = messagesOf(server.requests[2]!);
    assert.equal(sent.length, 5, 'the first turn (4 messages) and the new question');
    assert.deepEqual(
      sent.slice(0, 4).map((message) => message.role),
      ['user', 'assistant', 'tool', 'assistant'],
    );
    assert.equal(sent[0]!.content, 'Weather in Tokyo?');
    assert.equal(sent[1]!.tool_calls?.[0]?.function?.name, 'weather');
    assert.equal(sent[2]!.tool_call_id, sent[1]!.tool_calls?.[0]?.id);
    assert.deepEqual(sent[4], { role: 'user', content: 'And in Paris?' });
    assert.deepEqual(await store.messages(info.id), [...first.messages, ...second.messages]);
    assert.deepEqual(await assistant.history('trip'), [...first.messages, ...second.messages]);
    assertWellFormed(await assistant.history('trip'));
  });

  it('records a trace of every tool call, successes and failures, per turn', async (t) => {
    const server = await modelServer(t, weatherModel);
    const store = await openStore(t);
    const assistant = new Assistant({ model: testModel(server), registry: tools, store });
    await assistant.turn('Weather in Tokyo?', { session: 'traces' });
    await assistant.turn('Weather in Atlantis?', { session: 'traces' });

    const info = await store.session('traces');
    const traces = await store.toolCalls(info.id);
    assert.equal(traces.length, 2);
    const [tokyo, atlantis] = traces as [(typeof traces)[0], (typeof traces)[0]];
    assert.equal(tokyo.sessionId, info.id);
    assert.equal(tokyo.tool, 'weather');
    assert.deepEqual(tokyo.params, { city: 'Tokyo' });
    assert.equal(tokyo.success, true);
    assert.match(tokyo.data, /^Tokyo: Partly cloudy, 16°C/);
    assert.ok(tokyo.durationMs >= 0 && !Number.isNaN(Date.parse(tokyo.startedAt)));
    assert.equal(atlantis.success, false);
    assert.match(atlantis.error ?? '', /does not know the place "Atlantis"/);
    assert.equal(atlantis.code, undefined, "the tool's own failure carries no runtime code");
    assert.notEqual(tokyo.turnId, atlantis.turnId, 'each turn has its own id');
    assert.deepEqual(
      (await store.toolCalls(info.id, { turnId: atlantis.turnId })).map((trace) => trace.callId),
      [atlantis.callId],
    );
    // The call ids of the traces are those of the stored conversation.
    const callIds = (await store.messages(info.id)).flatMap((message) =>
      message.role === 'assistant' ? (message.toolCalls ?? []).map((call) => call.id) : [],
    );
    assert.deepEqual(callIds, [tokyo.callId, atlantis.callId]);
  });

  it('a session survives a new Assistant on a reopened store; other sessions stay apart', async (t) => {
    const server = await modelServer(t, weatherModel);
    const dir = await tempDir(t, 'riverse-data-');
    const firstStore = SqliteStore.open(dir);
    const first = await new Assistant({ model: testModel(server), registry: tools, store: firstStore }).turn(
      'Weather in Tokyo?',
      { session: 'kept' },
    );
    firstStore.close();

    const store = await openStore(t, dir);
    const assistant = new Assistant({ model: testModel(server), registry: tools, store });
    await assistant.turn('Thanks', { session: 'kept' });
    const sent = messagesOf(server.requests.at(-1)!);
    assert.deepEqual(
      sent.map((message) => message.role),
      ['user', 'assistant', 'tool', 'assistant', 'user'],
    );
    assert.deepEqual(
      sent.map((message) => message.content ?? ''),
      [...first.messages.map((message) => message.content), 'Thanks'],
    );
    assert.equal(sent[1]!.tool_calls?.[0]?.id, sent[2]!.tool_call_id);

    await assistant.turn('Hello', { session: 'other' });
    assert.deepEqual(
      messagesOf(server.requests.at(-1)!),
      [{ role: 'user', content: 'Hello' }],
      'a new session starts empty',
    );
    assert.deepEqual((await store.listSessions()).map((session) => [session.name, session.messageCount]).sort(), [
      ['kept', 4], // two questions and two answers; the tool call and its result are not counted
      ['other', 2],
    ]);
  });

  it('without a store, sessions last as long as the Assistant', async (t) => {
    const server = await modelServer(t, weatherModel);
    const assistant = new Assistant({ model: testModel(server), registry: tools });
    const first = await assistant.turn('Weather in Tokyo?');
    await assistant.turn('Thanks');
    assert.equal(messagesOf(server.requests.at(-1)!).length, 5);
    assert.deepEqual((await assistant.history()).slice(0, 4), first.messages);
    assert.deepEqual(await assistant.history('elsewhere'), []);
    await new Assistant({ model: testModel(server), registry: tools }).turn('Thanks');
    assert.deepEqual(
      messagesOf(server.requests.at(-1)!),
      [{ role: 'user', content: 'Thanks' }],
      'another Assistant has its own memory',
    );
  });

  it('a turn cut off while its tool ran (the process was killed) does not break the session', async (t) => {
    const server = await modelServer(t, { text: 'Hello.' });
    const store = await openStore(t);
    const info = await store.session('cut');
    // What a killed process leaves: the call was stored, its result never was.
    await store.appendMessages(info.id, [
      { role: 'user', content: 'Weather in Tokyo?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city":"Tokyo"}' }] },
    ]);
    const result = await new Assistant({ model: testModel(server), registry: tools, store }).turn('Hello?', {
      session: 'cut',
    });
    assert.equal(result.stopReason, 'answer');
    const sent = messagesOf(server.requests[0]!);
    assert.deepEqual(
      sent.map((message) => message.role),
      ['user', 'assistant', 'tool', 'user'],
    );
    assert.equal(sent[2]!.tool_call_id, 'call_1');
    assert.match(sent[2]!.content!, /^Error: this call was interrupted/);
  });

  it('a turn that failed keeps the question; the next turn still works', async (t) => {
    const server = await modelServer(t, replies([{ status: 500, error: 'down' }, { text: 'Back up.' }]));
    const store = await openStore(t);
    const assistant = new Assistant({ model: testModel(server, { maxRetries: 0 }), registry: tools, store });
    const failed = await assistant.turn('Are you there?', { session: 's' });
    assert.equal(failed.stopReason, 'error');
    assert.deepEqual(await assistant.history('s'), [{ role: 'user', content: 'Are you there?' }]);
    const next = await assistant.turn('Hello?', { session: 's' });
    assert.equal(next.stopReason, 'answer');
    assert.deepEqual(
      messagesOf(server.requests[1]!).map((message) => message.content),
      ['Are you there?', 'Hello?'],
    );
  });
});

describe('Assistant: language', () => {
  it("detects each message's language; a message without letters keeps the session language", async (t) => {
    const server = await modelServer(t, { text: 'ok' });
    const store = await openStore(t);
    const assistant = new Assistant({ model: testModel(server), registry: tools, store });
    const expect = async (input: string, system: string, description: string, stored: string) => {
      const result = await assistant.turn(input, { session: 'polyglot' });
      assert.equal(result.stopReason, 'answer');
      const request = server.requests.at(-1)!;
      assert.ok(systemOf(request).startsWith(system), `${input}: ${systemOf(request)}`);
      assert.ok(
        toolDescription(request, 'weather')?.startsWith(description),
        `${input}: ${toolDescription(request, 'weather')}`,
      );
      assert.equal((await store.session('polyglot')).language, stored);
    };
    await expect('东京今天天气怎么样？', '你是 Riverse', '查询指定城市的当前天气', 'zh');
    await expect('東京の今日の天気は？', 'あなたは Riverse', '指定した都市の現在の天気を調べる', 'ja');
    await expect('👍 123!', 'あなたは Riverse', '指定した都市の現在の天気を調べる', 'ja');
    await expect('And in London?', 'You are Riverse', 'Get the current weather for a city', 'en');
    await expect('……', 'You are Riverse', 'Get the current weather for a city', 'en');
  });

  it('a new session without letters in its first message speaks English', async (t) => {
    const server = await modelServer(t, { text: 'ok' });
    const assistant = new Assistant({ model: testModel(server), registry: tools });
    await assistant.turn('42');
    assert.ok(systemOf(server.requests[0]!).startsWith('You are Riverse'));
  });

  it('the language survives a restart with the store', async (t) => {
    const server = await modelServer(t, { text: 'ok' });
    const dir = await tempDir(t, 'riverse-data-');
    const firstStore = SqliteStore.open(dir);
    await new Assistant({ model: testModel(server), registry: tools, store: firstStore }).turn('天気は？', {
      session: 'jp',
    });
    firstStore.close();
    const store = await openStore(t, dir);
    await new Assistant({ model: testModel(server), registry: tools, store }).turn('👍', { session: 'jp' });
    assert.ok(systemOf(server.requests[1]!).startsWith('あなたは Riverse'));
  });

  it('a fixed language wins over detection', async (t) => {
    const server = await modelServer(t, { text: 'ok' });
    const assistant = new Assistant({ model: testModel(server), registry: tools, language: 'zh' });
    await assistant.turn('What is the weather in Tokyo?');
    assert.ok(systemOf(server.requests[0]!).startsWith('你是 Riverse'));
    assert.ok(toolDescription(server.requests[0]!, 'weather')?.startsWith('查询指定城市的当前天气'));
  });
});

describe('Assistant: history budget', () => {
  const tokens = (messages: readonly ChatMessage[]) =>
    messages.reduce(
      (sum, message) =>
        sum +
        4 +
        estimateTokens(message.content) +
        (message.role === 'assistant'
          ? (message.toolCalls ?? []).reduce(
              (calls, call) => calls + 8 + estimateTokens(call.name) + estimateTokens(call.arguments),
              0,
            )
          : 0),
      0,
    );

  it('sends only the recent turns that fit historyTokens, never a tool result without its call', async (t) => {
    const server = await modelServer(t, weatherModel);
    const store = await openStore(t);
    const budget = 120;
    const assistant = new Assistant({ model: testModel(server), registry: tools, store, historyTokens: budget });
    for (const question of [
      'Weather in Tokyo?',
      'Weather in Paris?',
      'Weather in Tokyo again?',
      'Weather in Paris again?',
      'Thanks a lot',
    ]) {
      const result = await assistant.turn(question, { session: 'long' });
      assert.equal(result.stopReason, 'answer');
    }
    const stored = await assistant.history('long');
    assert.ok(tokens(stored) > budget * 2, `the whole session (${tokens(stored)} tokens) is well over the budget`);
    const last = server.requests.at(-1)!;
    const sent = messagesOf(last);
    const history = (await store.messages((await store.session('long')).id)).slice(0, -2);
    const sentHistory = history.slice(history.length - (sent.length - 1));
    assert.deepEqual(
      sent.slice(0, -1).map((message) => message.content ?? ''),
      sentHistory.map((message) => message.content),
      'the history sent is the most recent part of the stored one',
    );
    assert.ok(sent.length - 1 < history.length, 'older turns were left out');
    assert.ok(sent.length - 1 >= 4, 'the last whole turn is kept');
    assert.equal(sent[0]!.role, 'user', 'cut where a user message starts');
    assert.ok(tokens(sentHistory) <= budget, `${tokens(sentHistory)} tokens of history sent, budget ${budget}`);
    assertWellFormed(sentHistory);
  });
});
