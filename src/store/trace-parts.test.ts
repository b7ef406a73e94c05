// What a tool-call span keeps of its parts and progress: small parts whole, the rest as markers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  keepProgress,
  TRACE_PART_BYTES,
  TRACE_PART_TEXT,
  TRACE_PROGRESS_MAX,
  traceParts,
  type TraceProgress,
} from './trace-parts.ts';

describe('trace parts', () => {
  it('keeps parts while the caps allow, in order; a part past them is a marker with its type and size', () => {
    const small = new Uint8Array([137, 80, 78, 71]);
    const big = new Uint8Array(TRACE_PART_BYTES); // fits alone, not after the small one
    const parts = traceParts([
      { type: 'text', text: 'Here is the chart.' },
      { type: 'image', data: small, mimeType: 'image/png' },
      { type: 'image', data: big, mimeType: 'image/jpeg' },
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
      { type: 'resource', uri: 'file:///r.bin', blob: new Uint8Array(TRACE_PART_BYTES + 1) },
      { type: 'resource', uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'x'.repeat(TRACE_PART_TEXT) },
    ]);
    assert.deepEqual(parts[0], { type: 'text', text: 'Here is the chart.' });
    assert.deepEqual(parts[1], { type: 'image', data: 'iVBORw==', mimeType: 'image/png' });
    assert.deepEqual(parts[2], { type: 'image', mimeType: 'image/jpeg', bytes: TRACE_PART_BYTES, omitted: true });
    assert.deepEqual(parts[3], { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' });
    assert.deepEqual(parts[4], { type: 'resource', uri: 'file:///r.bin', bytes: TRACE_PART_BYTES + 1, omitted: true });
    const text = parts[5] as { text: string; chars: number };
    assert.equal(text.text.length, TRACE_PART_TEXT - 'Here is the chart.'.length);
    assert.equal(text.chars, TRACE_PART_TEXT, 'a cut text says its full length');
    assert.ok(JSON.stringify(parts).length < TRACE_PART_BYTES * 2, 'what is kept stays near the caps');
  });

  it('keeps the first progress updates and always the latest', () => {
    const list: TraceProgress[] = [];
    let dropped = 0;
    for (let step = 1; step <= 50; step++)
      if (keepProgress(list, { progress: step, total: 50, message: `step ${step}`.padEnd(500, '.') }, step)) dropped++;
    assert.equal(list.length, TRACE_PROGRESS_MAX);
    assert.equal(dropped, 50 - TRACE_PROGRESS_MAX);
    assert.equal(list[0]?.progress, 1);
    assert.equal(list.at(-2)?.progress, TRACE_PROGRESS_MAX - 1);
    assert.deepEqual(
      { ...list.at(-1), message: list.at(-1)?.message?.slice(0, 7) },
      {
        atMs: 50,
        progress: 50,
        total: 50,
        message: 'step 50',
      },
    );
    assert.equal(list.at(-1)?.message?.length, 200);
  });
});
