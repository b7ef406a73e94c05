import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SqliteStore } from './sqlite-store.ts';
import { traceRetention } from './store-settings.ts';

describe('store.traces: in riverse.yaml', () => {
  it('sets the retention the store keeps traces by; what is left out keeps its default', async (t) => {
    assert.deepEqual(traceRetention({}), {});
    assert.deepEqual(traceRetention({ store: { traces: { max_age_days: 3 } } }), { maxAgeDays: 3 });
    const dir = await mkdtemp(join(tmpdir(), 'riverse-retention-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const store = SqliteStore.open(dir, { traceRetention: traceRetention({ store: { traces: { max_count: 2 } } }) });
    t.after(async () => await store.close());
    for (const [index, tool] of ['a', 'b', 'c'].entries())
      await store.recordHandRun({
        turnId: `turn-${tool}`,
        callId: `call-${tool}`,
        tool,
        params: {},
        success: true,
        data: 'ok',
        durationMs: 1,
        startedAt: new Date(Date.now() - (3 - index) * 1000).toISOString(),
      });
    assert.deepEqual(
      (await store.turnTraces.list()).map((trace) => trace.tools[0]),
      ['c', 'b'],
      'the oldest went past max_count',
    );
  });
});
