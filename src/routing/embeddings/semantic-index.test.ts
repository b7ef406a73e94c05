import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startEmbeddingsTestServer, type EmbeddingsTestServer } from '../testing/embeddings-server.ts';
import { ToolRouter } from '../tool-router.ts';
import { EmbeddingCache } from './embedding-cache.ts';
import { EmbeddingError } from './embedding-model.ts';
import { createOpenAIEmbeddings } from './openai-embeddings.ts';
import { SemanticIndex } from './semantic-index.ts';

const tool = (name: string, description: string, examples: string[] = []) => ({
  name,
  manifest: { name, description, examples },
});
const TOOLS = [
  tool('car_hire', 'Rent a car for a few days', ['I need wheels for the weekend']),
  tool('play_song', 'Play a song'),
  tool('exchange', 'Convert currency'),
];

describe('the semantic stage', () => {
  let server: EmbeddingsTestServer;
  let dir: string;
  before(async () => {
    server = await startEmbeddingsTestServer();
    dir = await mkdtemp(join(tmpdir(), 'riverse-embeddings-'));
  });
  after(async () => {
    await server?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  const model = (batch = 64) =>
    createOpenAIEmbeddings({ baseUrl: server.url, model: 'test-embed', apiKey: 'k', batch });

  test('an OpenAI-compatible endpoint: one vector per text, in order, in batches', async () => {
    const seen = server.requests.length;
    const vectors = await model(2).embed(['car', 'song', 'automobile']);
    assert.equal(vectors.length, 3);
    assert.deepEqual(server.requests.slice(seen), [['car', 'song'], ['automobile']]);
    assert.deepEqual([...vectors[0]!], [...vectors[2]!], 'one concept, one vector');
  });

  test('an endpoint that fails or is not there is an EmbeddingError saying which and why', async () => {
    server.failWith(500);
    try {
      await assert.rejects(
        model().embed(['x']),
        (error: unknown) => error instanceof EmbeddingError && /embeddings answered 500/.test(error.message),
      );
    } finally {
      server.failWith(0);
    }
    await assert.rejects(
      createOpenAIEmbeddings({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }).embed(['x']),
      EmbeddingError,
    );
  });

  test('tools are embedded once per text: again only when their text changed, and not after a restart (disk cache)', async () => {
    const embedder = model();
    const first = new SemanticIndex(embedder, new EmbeddingCache(embedder.id, dir));
    assert.equal(await first.update(TOOLS), 3);
    assert.equal(await first.update(TOOLS), 0);
    const changed = [...TOOLS.slice(0, 2), tool('exchange', 'Convert money between currencies')];
    assert.equal(await first.update(changed), 1);
    assert.equal(await first.update(changed.slice(1)), 0, 'a removed tool costs nothing');
    assert.equal(first.size, 2);
    // A new process: the vectors come from the disk.
    const seen = server.requests.length;
    const again = new SemanticIndex(embedder, new EmbeddingCache(embedder.id, dir));
    assert.equal(await again.update(changed), 0);
    assert.equal(server.requests.length, seen);
    // Another model's vectors are its own.
    const other = createOpenAIEmbeddings({ baseUrl: server.url, model: 'other-embed' });
    assert.equal(await new SemanticIndex(other, new EmbeddingCache(other.id, dir)).update(changed), 3);
  });

  test('fused with the lexical ranking, it finds a tool worded unlike the request; without it, words alone', async () => {
    const router = new ToolRouter({ semantic: new SemanticIndex(model()) });
    router.sync(TOOLS);
    await router.semanticReady();
    assert.deepEqual(router.rank('a jalopy to borrow', [], 3), [], 'no word in common');
    assert.equal((await router.rankFused('a jalopy to borrow', [], 3))[0]?.name, 'car_hire');
    assert.equal((await router.searchFused('a tune to dance to', 1))[0]?.name, 'play_song');
    // Lexical hits stay: fusion adds, it does not replace.
    assert.equal((await router.rankFused('convert currency', [], 1))[0]?.name, 'exchange');
  });

  test('a failing endpoint leaves the semantic stage out, never the ranking, and says so', async () => {
    const errors: unknown[] = [];
    const router = new ToolRouter({
      semantic: new SemanticIndex(model()),
      onSemanticError: (error) => errors.push(error),
    });
    server.failWith(503);
    try {
      router.sync(TOOLS);
      await router.semanticReady();
      assert.equal(errors.length, 1);
      assert.deepEqual(
        (await router.rankFused('convert currency', [], 2)).map((hit) => hit.name),
        ['exchange'],
      );
    } finally {
      server.failWith(0);
    }
    // Tried again at the next sync, though nothing changed.
    router.sync(TOOLS);
    await router.semanticReady();
    assert.equal((await router.rankFused('a jalopy to borrow', [], 1))[0]?.name, 'car_hire');
    server.failWith(503);
    try {
      // The request's own embedding fails: the lexical ranking alone.
      assert.deepEqual(
        (await router.rankFused('convert currency', [], 1)).map((hit) => hit.name),
        ['exchange'],
      );
      assert.equal(errors.length, 2);
    } finally {
      server.failWith(0);
    }
  });
});
