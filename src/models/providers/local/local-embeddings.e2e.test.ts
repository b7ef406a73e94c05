// The semantic stage on a real llama.cpp: a tiny random-weight GGUF written in milliseconds embeds
// tools and requests. Skipped when the optional node-llama-cpp is not installed.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SemanticIndex } from '../../../routing/embeddings/semantic-index.ts';
import { writeTinyGguf } from './gguf/write-tiny-gguf.ts';
import { installCommand } from './local-llama-install.ts';
import { hasNodeLlamaCpp } from './local-llama-runtime.ts';
import { createLocalEmbeddings } from './local-embeddings.ts';
import { ModelError } from '../../model-error.ts';

const skip = (await hasNodeLlamaCpp())
  ? false
  : `node-llama-cpp is not installed (optional); to run these tests: ${installCommand()}`;

describe('local GGUF embeddings', { skip }, () => {
  let dir: string;
  let file: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'riverse-local-embeddings-'));
    file = join(dir, 'tiny.gguf');
    await writeTinyGguf(file, { seed: 1 });
  });
  after(() => (dir === undefined ? undefined : rm(dir, { recursive: true, force: true })));

  test("one vector per text, the same for the same text, through the router's semantic stage", async () => {
    const model = createLocalEmbeddings({ path: file, threads: 2 });
    const [car, song, again] = await model.embed(['rent a car', 'play a song', 'rent a car']);
    assert.ok(car!.length > 0 && car!.length === song!.length);
    assert.deepEqual([...again!], [...car!]);
    const index = new SemanticIndex(model);
    const tools = [
      { name: 'car_hire', manifest: { name: 'car_hire', description: 'Rent a car' } },
      { name: 'play_song', manifest: { name: 'play_song', description: 'Play a song' } },
    ];
    assert.equal(await index.update(tools), 2);
    const hits = await index.search('Rent a car', 2);
    assert.deepEqual(hits.map((hit) => hit.name).sort(), ['car_hire', 'play_song']);
    assert.ok(hits.every((hit) => Number.isFinite(hit.score)));
  });

  test('a file that is not there is a not-configured ModelError saying where', async () => {
    const model = createLocalEmbeddings({ path: join(dir, 'missing.gguf'), threads: 2 });
    await assert.rejects(
      model.embed(['x']),
      (error: unknown) =>
        error instanceof ModelError && error.code === 'not-configured' && error.message.includes('missing.gguf'),
    );
  });
});
