// A turn against hostile parts — a model server that never answers or never stops, a listener that
// throws, a store that fails, arguments nested thousands deep, a pasted megabyte — ends within its
// bounds, tells the user what happened in their language, and never throws.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import type { ChatMessage } from '../models/chat-message.ts';
import { createOpenAICompatibleModel } from '../models/providers/openai/openai-compatible.ts';
import { startFloodServer } from '../models/testing/flood-server.ts';
import { replies } from '../models/testing/wire-server.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { Assistant } from './assistant.ts';
import { runTurn } from './run-turn.ts';
import { estimateTokens } from './trim-history.ts';
import type { TurnEvent } from './turn-events.ts';
import {
  eventually,
  loadRegistry,
  logLines,
  messagesOf,
  modelServer,
  napTool,
  sharedCleanup,
  systemOf,
  tempDir,
  testModel,
  WAIT_FOR_CANCEL_TOOL,
  type Cleanup,
} from './turn-test-support.ts';

const shared = sharedCleanup();
let tools: ToolRegistry;
let waitLog: string;
before(async () => {
  waitLog = join(await tempDir(shared, 'riverse-bounds-logs-'), 'wait.log');
  tools = await loadRegistry(shared, {
    files: { 'nap.ts': napTool('nap'), 'wait_for_cancel.ts': WAIT_FOR_CANCEL_TOOL },
    config: { tools: { wait_for_cancel: { log_file: waitLog } } },
  });
});
after(() => shared.run());

async function openStore(t: Cleanup): Promise<SqliteStore> {
  const store = SqliteStore.open(await tempDir(t, 'riverse-bounds-data-'));
  t.after(async () => await store.close());
  return store;
}

describe('the turn deadline', () => {
  // The model's own silence limit is 60 s: within the test's timeout only the turn's deadline can end these turns.
  it('ends a turn whose model never answers, on time, in the user’s language, telling the user meanwhile', {
    timeout: 20_000,
  }, async (t) => {
    const server = await modelServer(t, { hang: true });
    const events: TurnEvent[] = [];
    const result = await runTurn({
      model: testModel(server, { timeoutMs: 60_000 }),
      registry: tools,
      history: [],
      input: '你好',
      language: 'zh',
      timeoutMs: 1_000,
      waitNoticeMs: 100,
      onEvent: (event) => events.push(event),
    });
    assert.equal(result.stopReason, 'timeout');
    assert.equal(result.error?.code, 'turn-timeout', 'the turn deadline ended it, not the model');
    assert.match(
      result.text,
      /^已停止：本轮用时超过 1 秒（此限制由 riverse\.yaml 中的 assistant\.turn_timeout_ms 设置）。$/,
    );
    assert.equal(server.requests.length, 1, 'no request after the deadline');
    const waits = events.flatMap((event) => (event.type === 'model-waiting' ? [event.seconds] : []));
    // Every 100 ms; how many fit in the second depends on the machine's load, but the first is due
    // before the deadline, so it fires first even after a stall.
    assert.ok(waits.length >= 1, 'told of the wait');
    assert.ok(
      waits.every((seconds, index) => index === 0 || seconds > waits[index - 1]!),
      'the seconds count up',
    );
    assert.deepEqual(result.messages, [{ role: 'user', content: '你好' }], 'the user message is kept');
    assert.equal(events.at(-1)?.type, 'done');
  });

  it('ends a turn whose model keeps the stream alive without ever answering (each piece re-arms the silence limit)', {
    timeout: 20_000,
  }, async (t) => {
    const server = await startFloodServer();
    t.after(() => server.close());
    const model = createOpenAICompatibleModel({ model: 'm', baseUrl: `${server.url}/trickle/v1`, timeoutMs: 200 });
    const events: TurnEvent[] = [];
    const result = await runTurn({
      model,
      registry: tools,
      history: [],
      input: 'Hi',
      language: 'en',
      timeoutMs: 800,
      waitNoticeMs: 250,
      onEvent: (event) => events.push(event),
    });
    // The turn's deadline, not the silence limit of 200 ms that every piece put off.
    assert.equal(result.error?.code, 'turn-timeout');
    assert.ok(
      events.some((event) => event.type === 'model-waiting'),
      'keep-alive comments are no answer: the user is told of the wait',
    );
  });

  // The tool works until its signal fires (its own limit is 60 s): only the deadline can end the turn in time.
  it('stops a tool still running at the deadline through its signal', { timeout: 30_000 }, async (t) => {
    // The file's host is started first: cold, under load, its start can take longer than the
    // deadline, and then no call would be running when it passes.
    const warm = new AbortController();
    const warming = tools.execute('wait_for_cancel', {}, { signal: warm.signal });
    await eventually(() => logLines(waitLog).includes('started'), 'the tool started once');
    warm.abort();
    await warming;
    await eventually(() => logLines(waitLog).includes('aborted'), 'the first call saw its abort');
    const before = logLines(waitLog).length;
    const server = await modelServer(
      t,
      replies([{ toolCalls: [{ name: 'wait_for_cancel', arguments: {} }] }, { text: 'never asked' }]),
    );
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Do the long job',
      language: 'en',
      timeoutMs: 1_500,
    });
    assert.equal(result.stopReason, 'timeout');
    assert.match(
      result.text,
      /^Stopped: this turn took longer than 1\.5 s \(assistant\.turn_timeout_ms in riverse\.yaml sets this limit\)\.$/,
    );
    await eventually(() => logLines(waitLog).slice(before).includes('aborted'), 'the tool saw its signal abort');
    assert.deepEqual(logLines(waitLog).slice(before), ['started', 'aborted'], 'it was running at the deadline');
    assert.equal(server.requests.length, 1, 'no request after the deadline');
  });

  it('ends on the model’s silence limit first when that is shorter, naming the setting, in Japanese', async (t) => {
    const server = await modelServer(t, { hang: true });
    const result = await runTurn({
      model: testModel(server, { timeoutMs: 150, maxRetries: 2 }),
      registry: tools,
      history: [],
      input: 'こんにちは',
      language: 'ja',
    });
    assert.equal(result.stopReason, 'error');
    assert.equal(result.error?.code, 'timeout');
    assert.equal(
      result.text,
      'モデルから 0.2 秒間何も届かなかったため、待つのをやめました（この上限は riverse.yaml の model_options.timeout_ms で設定します）。',
    );
    assert.equal(server.requests.length, 2, 'asked once more, then given up on');
  });

  it('ends a reply past its size cap with reply-too-large, saying which setting to raise', async (t) => {
    const server = await modelServer(t, { text: 'word '.repeat(1_000) });
    const result = await runTurn({
      model: testModel(server, { maxReplyChars: 200 }),
      registry: tools,
      history: [],
      input: 'Talk',
      language: 'en',
    });
    assert.equal(result.error?.code, 'reply-too-large');
    assert.equal(
      result.text,
      "The model's reply passed the limit of 200 characters and was stopped there (model_options.max_reply_chars in riverse.yaml sets this limit).",
    );
  });
});

describe('the turn never throws', () => {
  it('a listener that throws on the first text ends the turn as listener-failed, not as a model failure', async (t) => {
    const server = await modelServer(t, { text: 'one two three four five six', chunkDelayMs: 20 });
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Count',
      language: 'en',
      onEvent: (event) => {
        if (event.type === 'text-delta') throw new Error('the screen is gone');
      },
    });
    assert.equal(result.stopReason, 'error');
    assert.equal(result.error?.code, 'listener-failed');
    assert.equal(result.text, 'This turn was stopped because the program showing it failed: the screen is gone');
    assert.deepEqual(result.messages, [{ role: 'user', content: 'Count' }]);
  });

  it('a listener that throws on the very first event: no model request is sent, and the promise resolves', async (t) => {
    const server = await modelServer(t, { text: 'hi' });
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Hi',
      language: 'en',
      onEvent: () => {
        throw new TypeError('listener bug');
      },
    });
    assert.equal(result.error?.code, 'listener-failed');
    assert.equal(server.requests.length, 0);
  });

  it('a store that fails on the first message: store-failed from turn() and from stream(), the message still in the result', async (t) => {
    const server = await modelServer(t, { text: 'Hello there.' });
    const store = await openStore(t);
    await store.session('broken'); // the session exists; saving into it fails, as on a full disk
    const db = new DatabaseSync(store.file);
    db.exec(
      `CREATE TRIGGER refuse BEFORE INSERT ON messages BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END`,
    );
    db.close();
    const assistant = new Assistant({ model: testModel(server), registry: tools, store });
    const result = await assistant.turn('Hi', { session: 'broken' });
    assert.equal(result.stopReason, 'error');
    assert.equal(result.error?.code, 'store-failed');
    assert.match(
      result.text,
      /^The conversation could not be saved, so this turn was stopped: Saving the conversation failed: database or disk is full$/,
    );
    assert.equal(server.requests.length, 0, 'not asked while nothing can be saved');
    assert.deepEqual(result.messages, [{ role: 'user', content: 'Hi' }]);
    const events: TurnEvent[] = [];
    for await (const event of assistant.stream('Hi again', { session: 'broken' })) events.push(event);
    const done = events.at(-1);
    assert.ok(done?.type === 'done' && done.result.error?.code === 'store-failed');
  });

  it("a store that fails on the answer, the turn's last write: store-failed all the same (the turn waits for its writes)", async (t) => {
    const server = await modelServer(t, { text: 'Hello there.' });
    const store = await openStore(t);
    await store.session('late');
    const db = new DatabaseSync(store.file);
    db.exec(
      `CREATE TRIGGER refuse BEFORE INSERT ON messages WHEN NEW.role = 'assistant' BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END`,
    );
    db.close();
    const assistant = new Assistant({ model: testModel(server), registry: tools, store });
    const events: TurnEvent[] = [];
    const result = await assistant.turn('Hi', { session: 'late', onEvent: (event) => events.push(event) });
    assert.equal(server.requests.length, 1, 'the model was asked: the message was saved');
    assert.equal(result.error?.code, 'store-failed');
    assert.match(result.text, /Saving the conversation failed: database or disk is full$/);
    const done = events.at(-1);
    assert.ok(done?.type === 'done' && done.result.error?.code === 'store-failed', 'done says so too');
    assert.deepEqual(await store.messages((await store.session('late')).id), [{ role: 'user', content: 'Hi' }]);
  });

  it('a store that cannot open the session: store-failed before anything is sent', async (t) => {
    const server = await modelServer(t, { text: 'Hello.' });
    const store = await openStore(t);
    await store.close();
    const events: TurnEvent[] = [];
    const result = await new Assistant({ model: testModel(server), registry: tools, store }).turn('Hi', {
      onEvent: (event) => events.push(event),
    });
    assert.equal(result.error?.code, 'store-failed');
    assert.match(
      result.text,
      /^The conversation could not be saved, so this turn was stopped: Opening the session failed: /,
    );
    assert.deepEqual(
      events.map((event) => event.type),
      ['done'],
    );
    assert.equal(server.requests.length, 0);
  });

  it('a registry function that throws: internal, resolved', async (t) => {
    const server = await modelServer(t, { text: 'Hello.' });
    const registry = () => {
      throw new Error('no registry');
    };
    const result = await new Assistant({ model: testModel(server), registry }).turn('Hi');
    assert.deepEqual(result.error, { code: 'internal', message: 'no registry' });
  });
});

describe('hostile sizes and shapes', () => {
  it('arguments nested thousands deep reach the tool registry, which refuses them: the turn goes on', async (t) => {
    const depth = 20_000;
    const deep = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const server = await modelServer(
      t,
      replies([{ toolCalls: [{ name: 'nap', arguments: `{"ms":${deep}}` }] }, { text: 'That did not work.' }]),
    );
    const store = await openStore(t);
    const result = await new Assistant({ model: testModel(server), registry: tools, store }).turn('Nap');
    assert.equal(result.stopReason, 'answer', result.text);
    const call = result.toolCalls[0]!;
    assert.equal(call.result.success, false);
    assert.equal(call.result.code, 'invalid-params', call.result.error);
    assert.match(call.result.error ?? '', /nested more than \d+ levels deep/);
    assert.equal(server.requests.length, 2, 'the failure went back to the model');
    assert.equal((await store.toolCalls((await store.session('default')).id)).length, 1, 'the trace was stored');
  });

  it('a reply asking for more calls than a round runs: the first ones run, and each of the rest is answered as not run', async (t) => {
    const server = await modelServer(
      t,
      replies([
        { toolCalls: Array.from({ length: 40 }, (_, index) => ({ name: 'nap', arguments: { ms: index } })) },
        { text: 'Done.' },
      ]),
    );
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Nap a lot',
      language: 'en',
      maxCallsPerRound: 8,
    });
    assert.equal(result.stopReason, 'answer');
    assert.equal(result.toolCalls.length, 8);
    const next = server.requests[1]!;
    assert.match(systemOf(next), /Only the first 8 tool calls of your last reply were run; 32 more were left out\./);
    const sent = messagesOf(next);
    assert.equal(
      sent.find((message) => message.role === 'assistant')?.tool_calls?.length,
      40,
      'the reply is kept whole: every call in it gets a result',
    );
    const results = sent.filter((message) => message.role === 'tool');
    assert.equal(results.length, 40);
    assert.equal(results.filter((message) => /^Error: Riverse did not run/.test(String(message.content))).length, 32);
    assert.match(
      String(results[39]?.content),
      /^Error: Riverse did not run this call of nap: only the first 8 tool calls of one reply are run\./,
    );
  });

  it('the same through the text protocol: the call in the reply’s JSON block reaches the registry', async (t) => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const server = await modelServer(
      t,
      replies([
        { text: `\`\`\`json\n{"tool": "nap", "arguments": {"ms": ${deep}}}\n\`\`\`` },
        { text: 'That did not work.' },
      ]),
    );
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Nap',
      language: 'en',
      toolCalling: 'text',
    });
    assert.equal(result.stopReason, 'answer', result.text);
    assert.equal(result.toolCalls[0]?.result.code, 'invalid-params');
  });

  it('a pasted megabyte is cut before it is stored, and the request fits the budget', async (t) => {
    const server = await modelServer(t, { text: 'That is long.' });
    const store = await openStore(t);
    const budget = 1_000;
    const assistant = new Assistant({ model: testModel(server), registry: tools, store, historyTokens: budget });
    const pasted = 'x'.repeat(1_000_000);
    const result = await assistant.turn(pasted, { session: 'paste' });
    assert.equal(result.stopReason, 'answer');
    const stored = (await assistant.history('paste'))[0]!;
    assert.ok(stored.content.length < 5_000, `stored ${stored.content.length} characters`);
    assert.match(
      stored.content,
      /^x+\[… \d+ characters cut here by Riverse: this message was longer than the history budget \(assistant\.history_tokens\)\]$/,
    );
    // An oversize message already in the store (an older version wrote it) is cut in the request.
    await store.appendMessages(
      (await store.session('paste')).id,
      [
        { role: 'user', content: 'again' },
        { role: 'assistant', content: 'y'.repeat(500_000) },
      ],
      'older',
    );
    await assistant.turn('And now?', { session: 'paste' });
    const sent = messagesOf(server.requests.at(-1)!).filter((message) => message.role !== 'system');
    const tokens = sent.reduce((sum, message) => sum + 4 + estimateTokens(String(message.content ?? '')), 0);
    assert.ok(tokens <= budget, `${tokens} tokens sent, budget ${budget}`);
    assert.equal(sent.at(-1)?.content, 'And now?');
    const history: ChatMessage[] = await assistant.history('paste');
    assert.equal(history.at(-3)?.content.length, 500_000, 'the store keeps what it had; only the request is cut');
  });
});
