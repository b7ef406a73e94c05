// Turns on the PostgreSQL store, with the database going away: restarted between two turns, the
// second turn's writes work (the pool makes new connections by itself); lost in the middle of a
// turn, the turn ends `store-failed`, and once it is back the session goes on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createOpenAICompatibleModel } from '../models/providers/openai/openai-compatible.ts';
import { startOpenAITestServer, type OpenAITestServer } from '../models/testing/openai-wire.ts';
import { openPostgresStore } from '../store/postgres/open-postgres-store.ts';
import { type PgCluster, startPgCluster } from '../store/postgres/testing/pg-cluster.ts';
import type { Store } from '../store/store.ts';
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { Assistant } from './assistant.ts';

describe('turns on the PostgreSQL store while the database restarts', () => {
  let cluster: PgCluster;
  let store: Store;
  let server: OpenAITestServer;
  /** Set by a test: what the model server does before it answers (the database goes away meanwhile). */
  let beforeAnswer: () => Promise<void> = async () => {};
  let assistant: Assistant;
  before(async () => {
    cluster = await startPgCluster();
    store = await openPostgresStore(await cluster.createDatabase('turns'));
    server = await startOpenAITestServer(async () => {
      await beforeAnswer();
      return { text: 'Hello.' };
    });
    const registry = await ToolRegistry.load({ folders: [], config: {} });
    const model = createOpenAICompatibleModel({ model: 'test-model', baseUrl: server.url, apiKey: 'k' });
    assistant = new Assistant({ model, registry, store });
  });
  after(async () => {
    await store?.close();
    await server?.close();
    await cluster?.stop();
  });

  const contents = async () => {
    const session = await store.findSession('restarts');
    return session === undefined ? [] : (await store.messages(session.id)).map((message) => message.content);
  };

  it('restarted between two turns: the second turn is stored as the first was', async () => {
    assert.equal((await assistant.turn('one', { session: 'restarts' })).stopReason, 'answer');
    await cluster.restart();
    assert.equal((await assistant.turn('two', { session: 'restarts' })).stopReason, 'answer');
    assert.deepEqual(await contents(), ['one', 'Hello.', 'two', 'Hello.']);
  });

  it('lost mid-turn: the turn ends store-failed; back again, the next turn goes on from what was stored', async () => {
    // Down once the person's message is stored (the turn writes it while the model is asked).
    beforeAnswer = async () => {
      while (!(await contents()).includes('three')) await new Promise((resolve) => setTimeout(resolve, 10));
      await cluster.down();
    };
    const lost = await assistant.turn('three', { session: 'restarts' });
    beforeAnswer = async () => {};
    assert.equal(lost.stopReason, 'error');
    assert.equal(lost.error?.code, 'store-failed', JSON.stringify(lost.error));
    assert.match(lost.error?.message ?? '', /PostgreSQL/);
    await cluster.up();
    assert.equal((await assistant.turn('four', { session: 'restarts' })).stopReason, 'answer');
    assert.deepEqual(await contents(), ['one', 'Hello.', 'two', 'Hello.', 'three', 'four', 'Hello.']);
  });
});
