/** Something that turns texts into vectors: an embeddings endpoint, or a local model. */
export interface EmbeddingModel {
  /** Names the model: vectors of different models are never mixed (the disk cache is per id). */
  readonly id: string;
  /** One vector per text, in order. Throws EmbeddingError when it cannot. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export class EmbeddingError extends Error {
  override name = 'EmbeddingError';
}
