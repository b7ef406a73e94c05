import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTraceparent, parseTraceparent } from './trace-context.ts';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('W3C trace context', () => {
  it('reads a traceparent and its tracestate, and writes one back', () => {
    assert.deepEqual(parseTraceparent(`00-${TRACE}-${SPAN}-01`, 'congo=t61rcWkgMzE'), {
      traceId: TRACE,
      spanId: SPAN,
      sampled: true,
      traceState: 'congo=t61rcWkgMzE',
    });
    assert.deepEqual(parseTraceparent(`00-${TRACE}-${SPAN}-00`), { traceId: TRACE, spanId: SPAN, sampled: false });
    // A later version may carry more fields after the flags.
    assert.equal(parseTraceparent(`01-${TRACE}-${SPAN}-01-more`)?.traceId, TRACE);
    assert.equal(formatTraceparent(TRACE, SPAN, true), `00-${TRACE}-${SPAN}-01`);
  });

  it('ignores a malformed header (a new trace starts instead)', () => {
    for (const bad of [
      undefined,
      '',
      'garbage',
      `00-${TRACE.toUpperCase()}-${SPAN}-01`,
      `00-${'0'.repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `ff-${TRACE}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      `00-${TRACE}-${SPAN}`,
    ])
      assert.equal(parseTraceparent(bad), undefined, String(bad));
  });
});
