import { EmbeddingError, type EmbeddingModel } from './embedding-model.ts';

export interface OpenAIEmbeddingsOptions {
  /** Up to `/v1`, as for chat: `${baseUrl}/embeddings` is asked. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Per request (default 30 s). */
  timeoutMs?: number;
  /** Texts per request (default 64). */
  batch?: number;
}

// A reply longer than this is refused rather than held: 64 texts of 3,072 floats as JSON fit well within it.
const MAX_REPLY_BYTES = 32 * 1024 * 1024;

/** An OpenAI-compatible embeddings endpoint (OpenAI, Ollama, vLLM, llama.cpp's server, LM Studio). */
export function createOpenAIEmbeddings(options: OpenAIEmbeddingsOptions): EmbeddingModel {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const batch = options.batch ?? 64;
  const timeoutMs = options.timeoutMs ?? 30_000;
  return {
    id: `openai:${options.model}@${options.baseUrl}`,
    async embed(texts, signal) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batch) {
        vectors.push(...(await request(url, options, texts.slice(start, start + batch), timeoutMs, signal)));
      }
      return vectors;
    },
  };
}

async function request(
  url: string,
  options: OpenAIEmbeddingsOptions,
  input: readonly string[],
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<Float32Array[]> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
      },
      body: JSON.stringify({ model: options.model, input }),
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
  } catch (error) {
    throw new EmbeddingError(
      `${url}: ${timeout.aborted ? `no answer within ${timeoutMs} ms` : (error as Error).message}`,
    );
  }
  const body = await readCapped(response, url);
  if (!response.ok) throw new EmbeddingError(`${url} answered ${response.status}: ${body.slice(0, 300)}`);
  let data: unknown;
  try {
    data = (JSON.parse(body) as { data?: unknown }).data;
  } catch {
    throw new EmbeddingError(`${url} answered with something that is not JSON: ${body.slice(0, 100)}`);
  }
  if (!Array.isArray(data) || data.length !== input.length)
    throw new EmbeddingError(
      `${url} answered ${Array.isArray(data) ? data.length : 'no'} embeddings for ${input.length} texts`,
    );
  const vectors: Float32Array[] = new Array(input.length);
  for (const [position, item] of data.entries()) {
    const { embedding, index } = (item ?? {}) as { embedding?: unknown; index?: unknown };
    if (
      !Array.isArray(embedding) ||
      embedding.length === 0 ||
      embedding.some((value) => typeof value !== 'number' || !Number.isFinite(value))
    )
      throw new EmbeddingError(`${url}: embedding ${position} is not a list of numbers`);
    const at =
      typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < input.length ? index : position;
    vectors[at] = Float32Array.from(embedding as number[]);
  }
  if (vectors.some((vector) => vector === undefined))
    throw new EmbeddingError(`${url}: the embeddings' indexes do not cover the texts sent`);
  return vectors;
}

async function readCapped(response: Response, url: string): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_REPLY_BYTES) {
      await reader.cancel();
      throw new EmbeddingError(`${url} answered with more than ${MAX_REPLY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
