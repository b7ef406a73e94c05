import { localize, localizeList, LANGUAGES } from '../../core/language.ts';
import { splitIdentifiers } from '../tokenize.ts';
import type { RouteHit } from '../tool-index.ts';
import type { RoutableTool } from '../tool-router.ts';
import { EmbeddingCache } from './embedding-cache.ts';
import type { EmbeddingModel } from './embedding-model.ts';

/** What of a tool is embedded: its name in words, its descriptions and examples, every language's. */
function embeddingText(tool: RoutableTool): string {
  const { manifest } = tool;
  const descriptions = new Set(LANGUAGES.map((language) => localize(manifest.description, language)));
  const examples = new Set(LANGUAGES.flatMap((language) => localizeList(manifest.examples, language)));
  return [splitIdentifiers(tool.name), ...descriptions, ...examples].join('\n').slice(0, 2_000);
}

/**
 * The semantic stage: each tool's text embedded (once per text, cached on disk), a request
 * embedded when it is asked, tools ranked by cosine similarity. `update` is incremental: only
 * the tools whose text changed are embedded again.
 */
export class SemanticIndex {
  readonly model: EmbeddingModel;
  readonly #cache: EmbeddingCache;
  readonly #vectors = new Map<string, { key: string; vector: Float32Array }>();

  constructor(model: EmbeddingModel, cache = new EmbeddingCache(model.id)) {
    this.model = model;
    this.#cache = cache;
  }

  get size(): number {
    return this.#vectors.size;
  }

  /** Brings the vectors to `tools`; returns how many texts had to be embedded (not found in the cache). */
  async update(tools: readonly RoutableTool[], signal?: AbortSignal): Promise<number> {
    const names = new Set(tools.map((tool) => tool.name));
    for (const name of this.#vectors.keys()) if (!names.has(name)) this.#vectors.delete(name);
    const missing: { name: string; key: string; text: string }[] = [];
    for (const tool of tools) {
      const text = embeddingText(tool);
      const key = EmbeddingCache.key(text);
      if (this.#vectors.get(tool.name)?.key === key) continue;
      const cached = this.#cache.get(key);
      if (cached !== undefined) this.#vectors.set(tool.name, { key, vector: cached });
      else missing.push({ name: tool.name, key, text });
    }
    if (missing.length === 0) return 0;
    const vectors = await this.model.embed(
      missing.map((item) => item.text),
      signal,
    );
    const entries: [string, Float32Array][] = [];
    missing.forEach((item, at) => {
      const vector = normalized(vectors[at]!);
      entries.push([item.key, vector]);
      // A tool renamed or removed while its text was being embedded stays out.
      if (names.has(item.name)) this.#vectors.set(item.name, { key: item.key, vector });
    });
    this.#cache.set(entries);
    return missing.length;
  }

  /** The `k` tools nearest to a request. */
  async search(query: string, k: number, signal?: AbortSignal): Promise<RouteHit[]> {
    const [embedded] = await this.model.embed([query], signal);
    const target = normalized(embedded!);
    const hits: RouteHit[] = [];
    for (const [name, { vector }] of this.#vectors) {
      if (vector.length !== target.length) continue;
      let dot = 0;
      for (let index = 0; index < vector.length; index++) dot += vector[index]! * target[index]!;
      hits.push({ name, score: dot });
    }
    hits.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return hits.slice(0, k);
  }
}

function normalized(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum) || 1;
  return vector.map((value) => value / norm);
}
