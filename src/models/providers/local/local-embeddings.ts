import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { loadModelFile, type LlamaEmbeddingContext } from './local-llama-runtime.ts';
import { ModelError } from '../../model-error.ts';

export interface LocalEmbeddingsOptions {
  /** A GGUF embedding model (or any GGUF model llama.cpp can embed with). */
  path: string;
  /** CPU threads (default: the cores there are, at most 4; llama.cpp's own default is far slower on small machines). */
  threads?: number;
  /** Tokens per text (default 512): a longer text is cut by llama.cpp's context. */
  contextSize?: number;
}

/** Texts longer than this are cut before they reach the model: a tool's text says what it does within it. */
const MAX_TEXT_CHARS = 2_000;

/**
 * A local GGUF embedding model through node-llama-cpp (optional, loaded on first use), shaped as the
 * router's semantic stage takes it (`EmbeddingModel` in src/routing/embeddings). Texts are embedded one
 * after another on one context; a failure is a ModelError saying what to do.
 */
export function createLocalEmbeddings(options: LocalEmbeddingsOptions): {
  readonly id: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
} {
  const path = resolve(options.path);
  let context: Promise<LlamaEmbeddingContext> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const open = () =>
    (context ??= loadModelFile(path).then((model) =>
      model.createEmbeddingContext({
        contextSize: options.contextSize ?? 512,
        threads: options.threads ?? Math.min(4, availableParallelism()),
      }),
    ));
  return {
    id: `local:${path}`,
    embed(texts, signal) {
      const run = queue.then(async () => {
        const embedder = await open().catch((error: unknown) => {
          context = undefined;
          throw error;
        });
        const vectors: Float32Array[] = [];
        for (const text of texts) {
          if (signal?.aborted === true) throw new ModelError('aborted', 'the embedding was cancelled');
          const { vector } = await embedder.getEmbeddingFor(text.slice(0, MAX_TEXT_CHARS));
          vectors.push(Float32Array.from(vector));
        }
        return vectors;
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
