// Store events within one process (the SQLite store's): heard after publish, as JSON, until unsubscribed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localEvents } from './local-events.ts';

describe('local store events', () => {
  it('delivers a copy of each payload to the channel’s subscribers, in order, until they stop', async () => {
    const events = localEvents();
    const heard: unknown[] = [];
    const stop = await events.subscribe('approvals', (payload) => heard.push(payload));
    await events.subscribe('other', () => assert.fail('another channel'));
    const payload = { id: 'ap-1', at: new Date(0) };
    const publishing = events.publish('approvals', payload);
    assert.deepEqual(heard, [], 'never during publish');
    await publishing;
    await events.publish('approvals', 2);
    stop();
    await events.publish('approvals', 3);
    assert.deepEqual(heard, [{ id: 'ap-1', at: '1970-01-01T00:00:00.000Z' }, 2]);
  });

  it('a listener that throws is reported, and the others still hear', async () => {
    const errors: unknown[] = [];
    const events = localEvents((error) => errors.push(error));
    const heard: unknown[] = [];
    await events.subscribe('c', () => {
      throw new Error('listener bug');
    });
    await events.subscribe('c', (payload) => heard.push(payload));
    await events.publish('c', 'x');
    assert.deepEqual(heard, ['x']);
    assert.match(String(errors[0]), /listener bug/);
  });
});
