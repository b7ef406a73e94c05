import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolCallRecord } from '../../assistant/turn-events.ts';
import { renderToolCall } from './render-tool-call.ts';

const call: ToolCallRecord = {
  callId: 'c1',
  tool: 'weather',
  params: { city: 'Tokyo' },
  result: { success: true, data: 'sunny' },
  durationMs: 120,
  startedAt: '2026-12-02T00:00:00.000Z',
};

test('a call is one line, cut to the terminal width with an ellipsis', () => {
  assert.equal(renderToolCall(call, 1000), '⚙ weather {"city":"Tokyo"} ✓ 0.12 s');
  assert.equal(renderToolCall(call, 12), '⚙ weather {…');
});

test('a terminal that reports 0 columns gets the whole line, its outcome included', () => {
  assert.equal(renderToolCall(call, 0), '⚙ weather {"city":"Tokyo"} ✓ 0.12 s');
});
