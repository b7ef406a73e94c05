import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SseEventTooLarge, SseParser } from './sse.ts';

function parseAll(pieces: string[]): string[] {
  const parser = new SseParser();
  const out: string[] = [];
  for (const piece of pieces) out.push(...parser.push(piece));
  out.push(...parser.end());
  return out;
}

const SAMPLE =
  'data: {"a":1}\n\n: keep-alive comment\n\nevent: message\nid: 7\ndata: first line\ndata:second line\n\ndata: [DONE]\n\n';
const EXPECTED = ['{"a":1}', 'first line\nsecond line', '[DONE]'];

describe('SseParser', () => {
  it('yields the data of each event, joining multi-line data and skipping comments and other fields', () => {
    assert.deepEqual(parseAll([SAMPLE]), EXPECTED);
  });

  it('accepts \\r\\n and \\r line endings', () => {
    assert.deepEqual(parseAll([SAMPLE.replaceAll('\n', '\r\n')]), EXPECTED);
    assert.deepEqual(parseAll([SAMPLE.replaceAll('\n', '\r')]), EXPECTED);
  });

  it('gives the same events however the text is split, even between \\r and \\n', () => {
    for (const text of [SAMPLE, SAMPLE.replaceAll('\n', '\r\n'), SAMPLE.replaceAll('\n', '\r')]) {
      for (let i = 0; i <= text.length; i++) {
        assert.deepEqual(parseAll([text.slice(0, i), text.slice(i)]), EXPECTED, `split at ${i}`);
      }
      assert.deepEqual(parseAll([...text]), EXPECTED, 'one character at a time');
    }
  });

  it('treats `data` without a colon as empty data, and ignores an event with no data', () => {
    assert.deepEqual(parseAll(['data\n\n', 'event: ping\n\n', 'data:\ndata\n\n']), ['', '\n']);
  });

  it('keeps only one leading space of the value', () => {
    assert.deepEqual(parseAll(['data:  two spaces\n\n']), [' two spaces']);
  });

  it('gives a last event whose blank line never came at end(), and a long line split over many pushes', () => {
    const long = 'x'.repeat(50_000);
    const pieces = [`data: ${long.slice(0, 10)}`];
    for (let i = 10; i < long.length; i += 1000) pieces.push(long.slice(i, i + 1000));
    pieces.push('\n\ndata: tail');
    assert.deepEqual(parseAll(pieces), [long, 'tail']);
  });

  it('refuses a line, or an event of many data lines, longer than its cap instead of buffering it', () => {
    const capped = () => new SseParser(1000);
    const parser = capped();
    assert.deepEqual(parser.push(`data: ${'x'.repeat(990)}\n\n`), ['x'.repeat(990)], 'under the cap');
    // A line without end, arriving piece by piece: refused once the pieces pass the cap.
    parser.push('data: ');
    let pushed = 0;
    assert.throws(
      () => {
        for (; pushed < 100; pushed++) parser.push('y'.repeat(100));
      },
      (error: unknown) => error instanceof SseEventTooLarge && error.limit === 1000,
    );
    assert.ok(pushed <= 10, `refused after ${pushed} pieces`);
    assert.throws(() => capped().push(`data: ${'z'.repeat(2000)}`), SseEventTooLarge, 'one push');
    assert.throws(
      () => capped().push('data: aaaaaaaaaa\n'.repeat(200)),
      SseEventTooLarge,
      'many short data lines of one event',
    );
  });
});
