import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cutToFit } from './cut-to-fit.ts';

const LIMIT = 2_000;
const size = (line: string) => Buffer.byteLength(line);

test('a message that fits goes out whole, as one line', () => {
  const message = { jsonrpc: '2.0' as const, id: 1, result: { content: [{ type: 'text', text: 'hi' }] } };
  assert.equal(cutToFit(message, LIMIT), `${JSON.stringify(message)}\n`);
});

test('a tool result over the bound is cut to fit: its text shortened from the end, a marker last', () => {
  const text = `${'é'.repeat(1_500)}${'😀'.repeat(500)}`;
  const line = cutToFit({ jsonrpc: '2.0', id: 'a', result: { content: [{ type: 'text', text }] } }, LIMIT)!;
  assert.ok(size(line) <= LIMIT, `${size(line)}`);
  assert.ok(line.endsWith('\n'));
  const { id, result } = JSON.parse(line) as { id: string; result: { content: Array<{ text: string }> } };
  assert.equal(id, 'a');
  assert.equal(result.content.length, 2);
  assert.ok(text.startsWith(result.content[0]!.text) && result.content[0]!.text.length > 100);
  assert.doesNotMatch(result.content[0]!.text, /[\uD800-\uDBFF]$/, 'no half of a surrogate pair');
  assert.match(result.content[1]!.text, /^\[Cut by Riverse: this result was \d+ bytes, over the 2000 bytes/);
});

test('parts that cannot be shortened are left out and counted; structured content too', () => {
  const line = cutToFit(
    {
      jsonrpc: '2.0',
      id: 2,
      result: {
        content: [
          { type: 'text', text: 'the chart:' },
          { type: 'image', data: 'A'.repeat(5_000), mimeType: 'image/png' },
        ],
        structuredContent: { rows: 'x'.repeat(3_000) },
      },
    },
    LIMIT,
  )!;
  assert.ok(size(line) <= LIMIT);
  const { result } = JSON.parse(line) as { result: { content: Array<{ type: string; text: string }> } };
  assert.deepEqual(result.content[0], { type: 'text', text: 'the chart:' });
  assert.equal(result.content.length, 2);
  assert.match(
    result.content[1]!.text,
    /; 2 parts that could not be shortened \(images, audio, resources or structured content\) left out/,
  );
  assert.equal('structuredContent' in result, false);
});

test('another answer over the bound becomes an error for its id; a notification over it is dropped', () => {
  const tools = Array.from({ length: 100 }, (_, index) => ({ name: `tool_${index}`, description: 'x'.repeat(100) }));
  const line = cutToFit({ jsonrpc: '2.0', id: 3, result: { tools } }, LIMIT)!;
  assert.ok(size(line) <= LIMIT);
  const reply = JSON.parse(line) as { id: number; error: { code: number; message: string } };
  assert.equal(reply.id, 3);
  assert.equal(reply.error.code, -32603);
  assert.match(reply.error.message, /over the 2000 bytes one stdio message may carry[\s\S]*could not be cut to fit/);
  assert.equal(
    cutToFit({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(5_000) } }, LIMIT),
    undefined,
  );
});
