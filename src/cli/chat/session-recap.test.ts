import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SqliteStore } from '../../store/sqlite-store.ts';
import { CHAT_COMMAND_TEXT } from './chat-command-text.ts';
import { recapLines, sessionRecap } from './session-recap.ts';

const recap = { messages: 2, lastAt: '2026-12-02 00:38', you: 'hello', reply: 'Hello from the model' };

test('the last exchange is cut to the terminal width, with an ellipsis', () => {
  const [, you, reply] = recapLines('trip', recap, CHAT_COMMAND_TEXT.en, 16);
  assert.equal(you, '  you: hello');
  assert.equal(reply, '  riverse: Hell…');
});

test('a terminal that reports 0 columns gets whole lines, not a cut "hell…"', () => {
  const [, you, reply] = recapLines('trip', recap, CHAT_COMMAND_TEXT.en, 0);
  assert.equal(you, '  you: hello');
  assert.equal(reply, '  riverse: Hello from the model');
});

test('one question with a tool call is 2 messages, as the dashboard counts them, not the 4 stored', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'riverse-recap-'));
  const store = SqliteStore.open(dir);
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const { id } = await store.session('walk');
  await store.appendMessages(id, [
    { role: 'user', content: 'What time is it?' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'current_time', arguments: '{}' }] },
    { role: 'tool', toolCallId: 'call_1', name: 'current_time', content: '03:19' },
    { role: 'assistant', content: 'It is 03:19.' },
  ]);
  const recap = await sessionRecap(store, 'walk');
  assert.equal(recap?.messages, 2);
  assert.equal(recap?.messages, (await store.listSessions()).find((session) => session.name === 'walk')?.messageCount);
  assert.equal(recap?.reply, 'It is 03:19.');
});
