// Events across replicas through LISTEN/NOTIFY: a payload published on one store is heard on the
// other (and on its own), a payload past NOTIFY's 8000 bytes goes by id, and the listening
// connection comes back by itself after the database restarts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StoreError } from '../store-error.ts';
import type { Store } from '../store.ts';
import { openPostgresStore } from './open-postgres-store.ts';
import { type PgCluster, startPgCluster } from './testing/pg-cluster.ts';

/** Resolves with the first `count` payloads heard on `channel` of `store`. */
async function hear(store: Store, channel: string, count: number): Promise<{ heard: Promise<unknown[]> }> {
  const heard: unknown[] = [];
  let done: (payloads: unknown[]) => void = () => {};
  const all = new Promise<unknown[]>((resolve) => {
    done = resolve;
  });
  const stop = await store.events.subscribe(channel, (payload) => {
    heard.push(payload);
    if (heard.length === count) {
      stop();
      done(heard);
    }
  });
  return { heard: all };
}

describe('store events on PostgreSQL', () => {
  let cluster: PgCluster;
  let a: Store;
  let b: Store;
  before(async () => {
    cluster = await startPgCluster();
    const url = await cluster.createDatabase('events');
    a = await openPostgresStore(url);
    b = await openPostgresStore(url);
  });
  after(async () => {
    await Promise.allSettled([a?.close(), b?.close()]);
    await cluster.stop();
  });

  it('a payload published on one replica is heard on both, in order', async () => {
    const onB = await hear(b, 'approvals', 2);
    const onA = await hear(a, 'approvals', 2);
    await a.events.publish('approvals', { id: 'ap-1', status: 'pending' });
    await a.events.publish('approvals', { id: 'ap-1', status: 'approved' });
    const expected = [
      { id: 'ap-1', status: 'pending' },
      { id: 'ap-1', status: 'approved' },
    ];
    assert.deepEqual(await onB.heard, expected);
    assert.deepEqual(await onA.heard, expected);
  });

  it('a payload over 8000 bytes is sent as an id and read back whole, and the next one does not overtake it', async () => {
    const onB = await hear(b, 'big', 2);
    const text = '語'.repeat(20_000);
    await a.events.publish('big', { text });
    await a.events.publish('big', 'small');
    assert.deepEqual(await onB.heard, [{ text }, 'small']);
  });

  it('a bad channel name is refused with what is allowed', async () => {
    await assert.rejects(a.events.publish('no spaces', 1), /1 to 40 letters, digits or _ \. : -/);
  });

  it('after the database restarts, the listening connection comes back and events flow again', async () => {
    const first = await hear(b, 'after-restart', 1);
    await a.events.publish('after-restart', 'before');
    assert.deepEqual(await first.heard, ['before']);
    const again = await hear(b, 'after-restart', 1);
    // A switch made while b's connection is down is not heard: b's watch is told it listens again, to read them anew.
    let reread = 0;
    const stopWatching = await b.toolSwitches.watch(() => reread++);
    await cluster.restart();
    // The reconnection is b's own; publish until it listens again (each try a fresh payload).
    let n = 0;
    let heard: unknown[] | undefined;
    again.heard.then((payloads) => {
      heard = payloads;
    });
    while (heard === undefined) {
      assert.ok(n < 200, 'the listener did not come back within 200 publications (20 s)');
      await a.events.publish('after-restart', `try ${++n}`).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(String(heard[0]), /^try \d+$/);
    assert.ok(reread >= 1, 'the tool switches are read again once listening resumes');
    stopWatching();
  });

  it('subscribing while the database is down fails with a StoreError, and keeps nothing', async () => {
    const url = await cluster.createDatabase('events-down');
    const c = await openPostgresStore(url);
    try {
      await cluster.down();
      await assert.rejects(
        c.events.subscribe('x', () => {}),
        (error: Error) => error instanceof StoreError && /listening for store events on x failed/.test(error.message),
      );
    } finally {
      await cluster.up();
      await c.close();
    }
  });
});
