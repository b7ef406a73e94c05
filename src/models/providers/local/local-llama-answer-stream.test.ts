import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnswerStream } from './local-llama-answer-stream.ts';

/** What each chunk shows, in order. */
function shown(chunks: string[]): string[] {
  const stream = new AnswerStream();
  return chunks.map((chunk) => stream.push(chunk));
}

test('the answer text streams as the JSON arrives, without the JSON around it', () => {
  assert.deepEqual(shown(['{', '"ans', 'wer": "', 'Hel', 'lo', '!"', '}']), ['', '', '', 'Hel', 'lo', '!', '']);
  assert.deepEqual(shown(['{\n  "answer" :"a"}']), ['a']);
});

test('escapes are decoded once whole, even when cut between chunks', () => {
  assert.deepEqual(shown(['{"answer": "a\\', 'nb \\u00', 'e9 \\"q\\"', '"}']), ['a', '\nb ', 'é "q"', '']);
  assert.equal(shown(['{"answer": "\\ud83d\\ude00"}']).join(''), '😀');
});

test('a tool call shows nothing', () => {
  assert.deepEqual(shown(['{"tool": "weather", "arguments": {"city": "Paris"}}']), ['']);
  assert.deepEqual(shown(['{', '"t', 'ool": "x", "arguments": {"answer": "no"}}']), ['', '', '']);
});
