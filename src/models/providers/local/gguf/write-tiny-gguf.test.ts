import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { GGML_TYPE_F32 } from './gguf-format.ts';
import { readGgufHeader } from './read-gguf-header.ts';
import { tinyGguf, writeTinyGguf } from './write-tiny-gguf.ts';

test('the tiny model is a GGUF v3 llama with the metadata llama.cpp requires', () => {
  const header = readGgufHeader(tinyGguf());
  assert.equal(header.version, 3);
  const meta = header.metadata;
  assert.equal(meta.get('general.architecture'), 'llama');
  assert.equal(meta.get('general.alignment'), 32);
  assert.equal(meta.get('llama.embedding_length'), 64);
  assert.equal(meta.get('llama.block_count'), 2);
  assert.equal(meta.get('llama.attention.head_count'), 4);
  assert.equal(meta.get('llama.attention.head_count_kv'), 2);
  assert.equal(meta.get('llama.rope.dimension_count'), 16);
  assert.ok(Math.abs(Number(meta.get('llama.attention.layer_norm_rms_epsilon')) - 1e-5) < 1e-9);
  assert.match(String(meta.get('tokenizer.chat_template')), /<\|im_start\|>/);
});

test('its SentencePiece vocabulary covers every byte and agrees with itself', () => {
  const meta = readGgufHeader(tinyGguf()).metadata;
  const tokens = meta.get('tokenizer.ggml.tokens') as string[];
  const types = meta.get('tokenizer.ggml.token_type') as number[];
  assert.equal(meta.get('tokenizer.ggml.model'), 'llama');
  assert.equal((meta.get('tokenizer.ggml.scores') as number[]).length, tokens.length);
  assert.equal(types.length, tokens.length);
  assert.equal(meta.get('llama.vocab_size'), tokens.length);
  assert.deepEqual(tokens.slice(0, 3), ['<unk>', '<s>', '</s>']);
  for (let byte = 0; byte < 256; byte++) {
    const index = tokens.indexOf(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    assert.ok(index > 0 && types[index] === 6, `byte token ${byte}`);
  }
  assert.equal(tokens[Number(meta.get('tokenizer.ggml.eos_token_id'))], '<|im_end|>');
  assert.equal(new Set(tokens).size, tokens.length, 'tokens are unique');
});

test('its tensors have the names and ggml shapes of the llama architecture, aligned to 32 bytes', () => {
  const bytes = tinyGguf({ blockCount: 1 });
  const { tensors, dataOffset } = readGgufHeader(bytes);
  const vocab = readGgufHeader(bytes).metadata.get('llama.vocab_size') as number;
  const shapes = Object.fromEntries(tensors.map((tensor) => [tensor.name, tensor.shape]));
  assert.deepEqual(shapes, {
    'token_embd.weight': [64, vocab],
    'blk.0.attn_norm.weight': [64],
    'blk.0.attn_q.weight': [64, 64],
    'blk.0.attn_k.weight': [64, 32],
    'blk.0.attn_v.weight': [64, 32],
    'blk.0.attn_output.weight': [64, 64],
    'blk.0.ffn_norm.weight': [64],
    'blk.0.ffn_gate.weight': [64, 128],
    'blk.0.ffn_up.weight': [64, 128],
    'blk.0.ffn_down.weight': [128, 64],
    'output_norm.weight': [64],
    'output.weight': [64, vocab],
  });
  assert.equal(dataOffset % 32, 0);
  for (const tensor of tensors) {
    assert.equal(tensor.type, GGML_TYPE_F32);
    assert.equal(tensor.offset % 32, 0, tensor.name);
  }
  const last = tensors.at(-1)!;
  const end = dataOffset + last.offset + last.shape.reduce((a, b) => a * b, 1) * 4;
  assert.equal(bytes.length, Math.ceil(end / 32) * 32);
  // Tied embeddings: the output projection holds the embedding values.
  const embd = tensors[0]!;
  const read = (offset: number) => new DataView(bytes.buffer, bytes.byteOffset).getFloat32(dataOffset + offset, true);
  assert.equal(read(last.offset + 40), read(embd.offset + 40));
});

test('the weights are small and follow the seed', () => {
  assert.deepEqual(tinyGguf({ seed: 7 }), tinyGguf({ seed: 7 }));
  assert.notDeepEqual(tinyGguf({ seed: 7 }), tinyGguf({ seed: 8 }));
  const bytes = tinyGguf();
  const { tensors, dataOffset } = readGgufHeader(bytes);
  const q = tensors.find((tensor) => tensor.name === 'blk.0.attn_q.weight')!;
  const values = new Float32Array(bytes.slice(dataOffset + q.offset, dataOffset + q.offset + 64 * 64 * 4).buffer);
  assert.ok(values.every((value) => Math.abs(value) <= 0.05) && values.some((value) => value !== 0));
});

// It takes milliseconds; the timeout only keeps a pathological writer from stalling the suite.
test('writeTinyGguf writes the bytes of tinyGguf()', { timeout: 30_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'riverse-gguf-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'tiny.gguf');
  await writeTinyGguf(path);
  assert.deepEqual(new Uint8Array(await readFile(path)), tinyGguf());
});

test('the reader rejects what is not GGUF', () => {
  assert.throws(() => readGgufHeader(new TextEncoder().encode('not a model at all')), /bad magic/);
  assert.throws(() => readGgufHeader(tinyGguf().slice(0, 100)), /ends inside its header/);
});
