import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { openPostgresStore } from '../store/postgres/open-postgres-store.ts';
import { type PgCluster, startPgCluster } from '../store/postgres/testing/pg-cluster.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import type { Store } from '../store/store.ts';
import { TurnOwnership } from './turn-ownership.ts';

/** A replica of another machine: its pid means nothing here, only its heartbeat tells. */
const FAR = 'far-host:4242:0badcafe';

/** Where the replicas' claims are kept: a fresh store of each kind per test, and a second handle on it (another replica's). */
const KINDS: {
  name: string;
  setUp(): Promise<void>;
  open(): Promise<[Store, () => Promise<Store>]>;
  tearDown(): Promise<void>;
}[] = [];
{
  let folder: string;
  let n = 0;
  KINDS.push({
    name: 'SQLite',
    setUp: async () => void (folder = mkdtempSync(join(tmpdir(), 'riverse-ownership-'))),
    async open() {
      const dir = join(folder, String(++n));
      return [SqliteStore.open(dir), async () => SqliteStore.open(dir)];
    },
    tearDown: async () => rmSync(folder, { recursive: true, force: true }),
  });
  let cluster: PgCluster;
  KINDS.push({
    name: 'PostgreSQL',
    setUp: async () => void (cluster = await startPgCluster()),
    async open() {
      const url = await cluster.createDatabase(`own${++n}`);
      return [await openPostgresStore(url), () => openPostgresStore(url)];
    },
    tearDown: async () => cluster?.stop(),
  });
}

for (const kind of KINDS)
  describe(`TurnOwnership on ${kind.name}`, () => {
    let store: Store;
    const others: Store[] = [];
    let another: () => Promise<Store>;
    before(() => kind.setUp());
    after(() => kind.tearDown());
    const owners: TurnOwnership[] = [];
    const owner = (options: ConstructorParameters<typeof TurnOwnership>[1] = {}) => {
      const made = new TurnOwnership(store, { heartbeatMs: 60_000, ...options });
      owners.push(made);
      return made;
    };
    beforeEach(async () => {
      [store, another] = await kind.open();
    });
    afterEach(async () => {
      for (const made of owners.splice(0)) await made.close();
      for (const other of [store, ...others.splice(0)]) await other.close();
    });

    it('every replica reads the same shared key, made by the first to ask', async () => {
      const other = await another();
      others.push(other);
      const [mine, theirs] = await Promise.all([store.sharedSecret('k'), other.sharedSecret('k')]);
      assert.equal(mine.length, 32);
      assert.deepEqual(theirs, mine);
      assert.notDeepEqual(await store.sharedSecret('another'), mine);
    });

    it('one turn per session across replicas: a live replica keeps its claim, and its approvals are answered where it runs', async () => {
      const { id } = await store.session('s');
      const a = owner();
      const b = owner();
      assert.notEqual(a.id, b.id);
      assert.equal(await a.claim(id), true);
      assert.equal(await b.claim(id), false);
      assert.equal(await b.runsElsewhere(id), true);
      assert.equal(await a.runsElsewhere(id), false);
      await a.release(id);
      assert.equal(await b.claim(id), true);
    });

    it("a replica silent past staleMs: exactly one sweeper takes its turn, marks the calls left without a result, and writes the turn's failed trace", async () => {
      const { id } = await store.session('s');
      const started = Date.now() - 30_000;
      await store.runningTurns.claim(id, FAR, started);
      await store.appendMessages(
        id,
        [
          { role: 'user', content: 'note it' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'call-1', name: 'note', arguments: '{"text":"x"}' }] },
        ],
        'turn-1',
      );
      const question = (qid: string, turnId: string) =>
        store.questions.add({
          id: qid,
          sessionId: id,
          turnId,
          callId: 'call-1',
          tool: 'note',
          question: 'Which one?',
          createdAt: new Date(started).toISOString(),
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
        });
      await question('q-dead', 'turn-1');
      await question('q-task', 'task:elsewhere'); // a task's, running on a live replica
      const interrupted: string[] = [];
      const a = owner({ staleMs: 10_000, onInterrupted: (turn) => interrupted.push(`a ${turn.replica}`) });
      await a.started;
      const b = owner({ staleMs: 10_000, onInterrupted: (turn) => interrupted.push(`b ${turn.replica}`) });
      await b.started;
      // Each swept at its start: only the first took it.
      assert.deepEqual(interrupted, [`a ${FAR}`]);
      assert.deepEqual(await b.sweep(), []);
      assert.equal(await store.runningTurns.owner(id), undefined);
      assert.equal((await store.questions.get('q-dead'))?.status, 'ended', "the dead turn's question takes no answer");
      assert.deepEqual(
        (await store.questions.pending()).map((pending) => pending.id),
        ['q-task'],
      );
      const [trace] = await store.toolCalls(id);
      assert.equal(trace?.callId, 'call-1');
      assert.equal(trace?.success, false);
      assert.equal(trace?.code, 'aborted');
      assert.match(trace?.error ?? '', /The replica running this turn \(far-host:4242:0badcafe\) stopped mid-turn/);
      await store.turnTraces.flush();
      const turn = await store.turnTraces.get('turn-1');
      assert.equal(turn?.stopReason, 'interrupted');
      assert.equal(turn?.outcome, 'failure');
      assert.equal(turn?.spans[0]?.errorCode, 'replica-stopped');
      assert.equal(await a.claim(id), true, 'the session goes on');
    });

    it('a replica that beats is not taken, however long its turn runs', async () => {
      const { id } = await store.session('s');
      await store.runningTurns.claim(id, FAR, Date.now() - 60_000);
      await store.runningTurns.beat(FAR);
      const a = owner({ staleMs: 10_000 });
      assert.deepEqual(await a.sweep(), []);
      assert.equal(await a.claim(id), false);
    });

    it('a dead process of this host is taken at once, without waiting for staleness', async () => {
      const { id } = await store.session('s');
      const a = owner();
      // A pid no process has (above Linux's pid_max).
      const dead = `${a.id.split(':')[0]}:99999999:00000000`;
      await store.runningTurns.claim(id, dead);
      assert.equal(await a.claim(id), true);
    });
  });
