// A tiny random-weight llama model as a GGUF file, made in milliseconds: real enough for llama.cpp
// to load, tokenize, chat-template and sample from, so the local provider can be tested end to end
// without downloading any weights. Its output is gibberish, deterministic for a seed.
//
// Untrained, it mostly repeats its last token: the embeddings are tied to the output and large
// beside the small layer weights, so the last token dominates the residual stream and scores
// highest. Under a JSON grammar that closes each string as soon as it opens (`""`), so constrained
// replies end in a few dozen tokens; with untied weights a string would run on past any limit.
import { writeFile } from 'node:fs/promises';
import type { GgufValue } from './gguf-format.ts';
import { encodeGguf, type F32Tensor } from './gguf-writer.ts';
import { CHATML_TEMPLATE, tinyVocab } from './tiny-vocab.ts';

export interface TinyGgufOptions {
  /** `general.name` (default "riverse-tiny-llama"). */
  name?: string;
  /** Seeds the weights (default 1). */
  seed?: number;
  /** Hidden size (default 64). */
  embeddingLength?: number;
  /** Transformer blocks (default 2). */
  blockCount?: number;
  /** Attention heads (default 4); `embeddingLength` must divide by it. */
  headCount?: number;
  /** Key/value heads (default 2, grouped-query attention); `headCount` must divide by it. */
  headCountKv?: number;
  /** Feed-forward size (default 128). */
  feedForwardLength?: number;
  /** Trained context length (default 4096). */
  contextLength?: number;
  /** Half-width of the uniform range the layer weights are drawn from (default 0.05). */
  weightScale?: number;
  /** Half-width of the uniform range of the token embeddings (default 1). */
  embeddingScale?: number;
  /** The output projection is the token embedding matrix, as in many small llamas (default true). */
  tiedEmbeddings?: boolean;
}

/** The GGUF bytes of a tiny llama model. */
export function tinyGguf(options: TinyGgufOptions = {}): Uint8Array {
  const embd = options.embeddingLength ?? 64;
  const blocks = options.blockCount ?? 2;
  const heads = options.headCount ?? 4;
  const headsKv = options.headCountKv ?? 2;
  const ff = options.feedForwardLength ?? 128;
  const scale = options.weightScale ?? 0.05;
  if (embd % heads !== 0 || heads % headsKv !== 0)
    throw new RangeError(`tinyGguf: ${embd} dims do not split into ${heads} heads of ${headsKv} groups`);
  const headDim = embd / heads;
  const kvDim = headDim * headsKv;
  const vocab = tinyVocab();
  const nVocab = vocab.tokens.length;

  const metadata = new Map<string, GgufValue>([
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: options.name ?? 'riverse-tiny-llama' }],
    ['general.alignment', { type: 'uint32', value: 32 }],
    ['general.file_type', { type: 'uint32', value: 0 }], // all F32
    ['llama.context_length', { type: 'uint32', value: options.contextLength ?? 4096 }],
    ['llama.embedding_length', { type: 'uint32', value: embd }],
    ['llama.block_count', { type: 'uint32', value: blocks }],
    ['llama.feed_forward_length', { type: 'uint32', value: ff }],
    ['llama.attention.head_count', { type: 'uint32', value: heads }],
    ['llama.attention.head_count_kv', { type: 'uint32', value: headsKv }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'float32', value: 1e-5 }],
    ['llama.rope.dimension_count', { type: 'uint32', value: headDim }],
    ['llama.rope.freq_base', { type: 'float32', value: 10_000 }],
    ['llama.vocab_size', { type: 'uint32', value: nVocab }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'string[]', value: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: 'float32[]', value: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: 'int32[]', value: vocab.types }],
    ['tokenizer.ggml.unknown_token_id', { type: 'uint32', value: vocab.unk }],
    ['tokenizer.ggml.bos_token_id', { type: 'uint32', value: vocab.bos }],
    ['tokenizer.ggml.eos_token_id', { type: 'uint32', value: vocab.eos }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: true }],
    ['tokenizer.ggml.add_eos_token', { type: 'bool', value: false }],
    ['tokenizer.chat_template', { type: 'string', value: CHATML_TEMPLATE }],
  ]);

  const random = mulberry32(options.seed ?? 1);
  const weights = (name: string, shape: number[], range = scale): F32Tensor => {
    const data = new Float32Array(shape.reduce((a, b) => a * b, 1));
    for (let i = 0; i < data.length; i++) data[i] = (random() * 2 - 1) * range;
    return { name, shape, data };
  };
  const ones = (name: string, size: number): F32Tensor => ({
    name,
    shape: [size],
    data: new Float32Array(size).fill(1),
  });

  // Shapes as llama.cpp's llama arch creates them (ggml order: input dimension first).
  const embeddings = weights('token_embd.weight', [embd, nVocab], options.embeddingScale ?? 1);
  const tensors: F32Tensor[] = [embeddings];
  for (let b = 0; b < blocks; b++) {
    tensors.push(
      ones(`blk.${b}.attn_norm.weight`, embd),
      weights(`blk.${b}.attn_q.weight`, [embd, embd]),
      weights(`blk.${b}.attn_k.weight`, [embd, kvDim]),
      weights(`blk.${b}.attn_v.weight`, [embd, kvDim]),
      weights(`blk.${b}.attn_output.weight`, [embd, embd]),
      ones(`blk.${b}.ffn_norm.weight`, embd),
      weights(`blk.${b}.ffn_gate.weight`, [embd, ff]),
      weights(`blk.${b}.ffn_up.weight`, [embd, ff]),
      weights(`blk.${b}.ffn_down.weight`, [ff, embd]),
    );
  }
  const output =
    options.tiedEmbeddings === false
      ? weights('output.weight', [embd, nVocab])
      : { ...embeddings, name: 'output.weight' };
  tensors.push(ones('output_norm.weight', embd), output);
  return encodeGguf(metadata, tensors);
}

/** Writes `tinyGguf(options)` to `path`. */
export async function writeTinyGguf(path: string, options: TinyGgufOptions = {}): Promise<void> {
  await writeFile(path, tinyGguf(options));
}

/** A small seeded generator of floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
