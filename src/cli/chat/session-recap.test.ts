import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHAT_COMMAND_TEXT } from './chat-command-text.ts';
import { recapLines } from './session-recap.ts';

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
