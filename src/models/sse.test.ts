import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readSse, SseEventTooLarge, SseParser } from './sse.ts';
import { startOpenAITestServer } from './testing/openai-wire.ts';

function parseAll(pieces: string[]): string[] {
  const parser = new SseParser();
  const out: string[] = [];
  for (const piece of pieces) out.push(...parser.push(piece));
  out.push(...parser.end());
  return out;
}

function bytesStream(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const SAMPLE = 'data: {"a":1}\n\n: keep-alive comment\n\nevent: message\nid: 7\ndata: first line\ndata:second line\n\ndata: [DONE]\n\n';
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
    assert.throws(() => {
      for (; pushed < 100; pushed++) parser.push('y'.repeat(100));
    }, (error: unknown) => error instanceof SseEventTooLarge && error.limit === 1000);
    assert.ok(pushed <= 10, `refused after ${pushed} pieces`);
    assert.throws(() => capped().push(`data: ${'z'.repeat(2000)}`), SseEventTooLarge, 'one push');
    assert.throws(() => capped().push('data: aaaaaaaaaa\n'.repeat(200)), SseEventTooLarge, 'many short data lines of one event');
  });
});

describe('readSse', () => {
  it('decodes UTF-8 split across byte chunks', async () => {
    const bytes = new TextEncoder().encode('data: 東京 ☀️ 21 °C\n\ndata: [DONE]\n\n');
    const pieces = [...bytes].map((byte) => Uint8Array.of(byte));
    assert.deepEqual(await collect(readSse(bytesStream(pieces))), ['東京 ☀️ 21 °C', '[DONE]']);
  });

  it('cancels the body when the caller stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: more\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const data of readSse(body)) {
      assert.equal(data, 'more');
      break;
    }
    assert.equal(cancelled, true);
  });

  describe('over a real HTTP stream', async () => {
    const server = await startOpenAITestServer({ text: 'Hello from the stream' });
    after(() => server.close());

    it('reads an OpenAI chat.completion.chunk stream from fetch', async () => {
      const response = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true }),
      });
      const payloads = await collect(readSse(response.body!));
      assert.equal(payloads.at(-1), '[DONE]');
      const text = payloads
        .slice(0, -1)
        .map((data) => (JSON.parse(data) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '')
        .join('');
      assert.equal(text, 'Hello from the stream');
    });
  });
});
