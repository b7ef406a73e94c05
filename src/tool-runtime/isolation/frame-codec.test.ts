import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeFrame, FrameReader, FrameTooLarge } from './frame-codec.ts';

test('frames split at any byte boundary come out whole and in order', () => {
  const values = [{ type: 'call', id: 1, params: { text: 'héllo 東京' } }, 'two', { nested: [1, 2, { three: true }] }];
  const bytes = Buffer.concat(values.map(encodeFrame));
  for (const size of [1, 3, 7, bytes.length]) {
    const seen: unknown[] = [];
    const reader = new FrameReader(1024, (value) => seen.push(value));
    for (let at = 0; at < bytes.length; at += size) reader.push(bytes.subarray(at, at + size));
    assert.deepEqual(seen, values, `chunks of ${size} bytes`);
  }
});

test('a header announcing more than the cap is refused before the body arrives', () => {
  const reader = new FrameReader(100, () => assert.fail('no frame may come out'));
  const frame = encodeFrame('x'.repeat(500));
  assert.throws(
    () => reader.push(frame.subarray(0, 4)),
    (error: unknown) => error instanceof FrameTooLarge && /more than the 1 KB allowed/.test(error.message),
  );
});
