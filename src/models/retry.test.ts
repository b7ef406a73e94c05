import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffMs, parseRetryAfter, retryAfterMs, sleep } from './retry.ts';

describe('Retry-After', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads seconds, fractions of seconds and HTTP dates', () => {
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter(' 0.25 ', now), 250);
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:07 GMT', now), 7000);
    assert.equal(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now), 0, 'a date in the past means now');
  });

  it('ignores what it cannot read', () => {
    for (const value of ['', 'soon', '-1']) assert.equal(parseRetryAfter(value, now), undefined, value);
  });

  it('prefers retry-after-ms', () => {
    assert.equal(retryAfterMs(getter(new Headers({ 'retry-after-ms': '150', 'retry-after': '9' }))), 150);
    assert.equal(retryAfterMs(getter(new Headers({ 'retry-after': '2' }))), 2000);
    assert.equal(retryAfterMs(getter(new Headers())), undefined);
  });
});

describe('backoffMs', () => {
  it('doubles per attempt, with jitter between half and all, and stops at the cap', () => {
    for (let i = 0; i < 50; i++) {
      const first = backoffMs(0, 100, 1000);
      const third = backoffMs(2, 100, 1000);
      assert.ok(first >= 50 && first <= 100, `${first}`);
      assert.ok(third >= 200 && third <= 400, `${third}`);
      assert.ok(backoffMs(10, 100, 1000) <= 1000);
    }
  });
});

describe('sleep', () => {
  it('resolves true after the time, false at once on abort', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const slept = sleep(5);
    t.mock.timers.tick(5);
    assert.equal(await slept, true);
    const controller = new AbortController();
    const cut = sleep(5000, controller.signal);
    t.mock.timers.tick(4999);
    controller.abort();
    // The clock stands 1 ms short of the time: only the abort can have ended it.
    assert.equal(await cut, false);
    assert.equal(await sleep(5000, AbortSignal.abort()), false);
  });
});

/** Response headers as the adapters read them: by lowercase name. */
function getter(headers: Headers): (name: string) => string | null {
  return (name) => headers.get(name);
}
