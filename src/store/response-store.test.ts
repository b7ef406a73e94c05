import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ChatMessage } from '../models/chat-message.ts';
import { SqliteStore } from './sqlite-store.ts';

let root: string;
let counter = 0;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'riverse-responses-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

const open = () => SqliteStore.open(join(root, `data-${++counter}`));
const say = (content: string): ChatMessage => ({ role: 'user', content });
const answer = (content: string): ChatMessage => ({ role: 'assistant', content });

describe('ResponseStore', () => {
  it('keeps a response with its body, and follows a chain back, oldest first', async () => {
    using store = open();
    const sessionId = (await store.session('openai')).id;
    const createdAt = new Date().toISOString();
    await store.responses.add({
      id: 'resp_1',
      sessionId,
      messages: [say('a'), answer('b')],
      body: '{"id":"resp_1"}',
      createdAt,
    });
    await store.responses.add({
      id: 'resp_2',
      sessionId,
      previousId: 'resp_1',
      messages: [say('c'), answer('d')],
      body: '{}',
      createdAt,
    });
    await store.responses.add({
      id: 'resp_3',
      sessionId,
      previousId: 'resp_2',
      messages: [say('e'), answer('f')],
      body: '{}',
      createdAt,
    });

    assert.deepEqual(await store.responses.get('resp_1'), {
      id: 'resp_1',
      sessionId,
      messages: [say('a'), answer('b')],
      body: '{"id":"resp_1"}',
      createdAt,
    });
    assert.equal((await store.responses.get('resp_2'))?.previousId, 'resp_1');
    assert.deepEqual(
      (await store.responses.conversation('resp_3'))?.map((message) => message.content),
      ['a', 'b', 'c', 'd', 'e', 'f'],
    );
    assert.equal(await store.responses.conversation('resp_9'), undefined);
  });

  it('keeps the responses after it when one is deleted; the chain then ends there', async () => {
    using store = open();
    const sessionId = (await store.session('openai')).id;
    const createdAt = new Date().toISOString();
    await store.responses.add({ id: 'resp_1', sessionId, messages: [say('a')], body: '{}', createdAt });
    await store.responses.add({
      id: 'resp_2',
      sessionId,
      previousId: 'resp_1',
      messages: [say('b')],
      body: '{}',
      createdAt,
    });
    assert.equal(await store.responses.delete('resp_1'), true);
    assert.equal(await store.responses.delete('resp_1'), false);
    assert.deepEqual(await store.responses.conversation('resp_2'), [say('b')]);
  });

  it('follows a chain back 1,000 responses at most, keeping the newest', async () => {
    using store = open();
    const sessionId = (await store.session('openai')).id;
    const createdAt = new Date().toISOString();
    for (let n = 1; n <= 1_005; n++)
      await store.responses.add({
        id: `resp_${n}`,
        sessionId,
        ...(n === 1 ? {} : { previousId: `resp_${n - 1}` }),
        messages: [say(String(n))],
        body: '{}',
        createdAt,
      });
    const contents = (await store.responses.conversation('resp_1005'))!.map((message) => message.content);
    assert.equal(contents.length, 1_000);
    assert.deepEqual([contents[0], contents.at(-1)], ['6', '1005']);
  });

  it('deletes the responses of a session with it', async () => {
    using store = open();
    const createdAt = new Date().toISOString();
    await store.responses.add({
      id: 'resp_a',
      sessionId: (await store.session('one')).id,
      messages: [say('a')],
      body: '{}',
      createdAt,
    });
    await store.responses.add({
      id: 'resp_b',
      sessionId: (await store.session('two')).id,
      messages: [say('b')],
      body: '{}',
      createdAt,
    });
    await store.deleteSession('one');
    assert.equal(await store.responses.get('resp_a'), undefined);
    assert.ok(await store.responses.get('resp_b'));
  });

  it('keeps message text whole, NUL characters included', async () => {
    using store = open();
    const sessionId = (await store.session('openai')).id;
    const messages: ChatMessage[] = [
      say('a\u0000b'),
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 't', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'call_1', name: 't', content: 'ok', isError: true },
    ];
    await store.responses.add({ id: 'resp_1', sessionId, messages, body: '{}', createdAt: new Date().toISOString() });
    assert.deepEqual(await store.responses.conversation('resp_1'), messages);
  });
});
