// Questions asked through one process's Approvals and answered through another's, on one store:
// what replicas do, without their HTTP.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SqliteStore } from '../store/sqlite-store.ts';
import { Approvals, type PendingQuestion } from './approvals.ts';

describe('questions across processes sharing a store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'riverse-questions-'));
  const opened: SqliteStore[] = [];
  after(async () => {
    for (const store of opened) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const open = async () => {
    const store = await SqliteStore.open(dir);
    opened.push(store);
    return store;
  };

  const asking = async (timeoutMs = 60_000, signal?: AbortSignal, form = false) => {
    const here = await open();
    const asker = new Approvals({ store: here, watchMs: 20 });
    const { id: sessionId } = await here.session('asked');
    let shown: PendingQuestion | undefined;
    const answer = asker.ask(
      { sessionId, turnId: 't1', callId: 'c1', tool: 'book' },
      form
        ? {
            question: 'How many guests?',
            fields: { guests: { type: 'integer', minimum: 1, maximum: 8 } },
            required: ['guests'],
          }
        : { question: 'Which city?', choices: ['Paris', 'Oslo'] },
      timeoutMs,
      signal,
      (pending) => (shown = pending),
    );
    while (shown === undefined) await new Promise((resolve) => setImmediate(resolve));
    return { answer, question: shown, elsewhere: new Approvals({ store: await open() }), store: here };
  };

  it('is listed by the other process, answered there once, and the asking call gets the answer', async () => {
    const { answer, question, elsewhere } = await asking();
    assert.deepEqual(
      (await elsewhere.pending()).map((pending) => [pending.kind, pending.id]),
      [['question', question.id]],
    );
    assert.equal(await elsewhere.reply(question.id, 'Oslo'), true);
    assert.equal(await elsewhere.reply(question.id, 'Paris'), false, 'the first answer counts');
    assert.deepEqual(await answer, { text: 'Oslo' });
    assert.deepEqual(await elsewhere.pending(), []);
  });

  it("a form's values are checked where they arrive, with the specific error, before they are stored", async () => {
    const { answer, question, elsewhere } = await asking(60_000, undefined, true);
    assert.equal(await elsewhere.reply(question.id, 'four'), false, 'a form takes values, not words');
    const invalid = await elsewhere.replyForm(question.id, { guests: 12 });
    assert.equal(invalid.ok, false);
    assert.match(!invalid.ok ? invalid.message : '', /guests/);
    assert.equal((await elsewhere.findQuestion(question.id))?.status, 'pending', 'nothing was stored');
    assert.deepEqual(await elsewhere.replyForm(question.id, { guests: 4 }), { ok: true, values: { guests: 4 } });
    assert.deepEqual(await answer, { text: 'guests: 4', values: { guests: 4 } });
  });

  it('a question whose time ran out, or whose call was stopped, ends in the store and takes no answer', async () => {
    const timed = await asking(50);
    assert.equal(await timed.answer, undefined);
    assert.equal((await timed.store.questions.get(timed.question.id))?.status, 'ended');
    assert.equal(await timed.elsewhere.reply(timed.question.id, 'late'), false);
    const stop = new AbortController();
    const stopped = await asking(60_000, stop.signal);
    stop.abort();
    assert.equal(await stopped.answer, undefined);
    assert.equal((await stopped.store.questions.get(stopped.question.id))?.status, 'ended');
    assert.equal(await stopped.elsewhere.decline(stopped.question.id), false);
  });
});
