import { routeDocOf } from './route-doc.ts';
import { queryTerms, type WeightedTerms } from './route-terms.ts';
import { ToolIndex, type RouteHit } from './tool-index.ts';
import type { SemanticIndex } from './embeddings/semantic-index.ts';
import type { ToolManifest } from '../tools/tool-manifest.ts';

/** A tool as the router sees it (a registered tool is one). */
export interface RoutableTool {
  readonly name: string;
  readonly manifest: ToolManifest;
}

/** Earlier messages of the conversation count for this much of the latest one. */
const EARLIER_WEIGHT = 0.5;
/** How many earlier user messages the request is read with ("and in Paris?" needs the one before). */
const EARLIER_MESSAGES = 2;
/** How deep each ranking goes into the fusion. */
const FUSION_DEPTH = 50;
/** Reciprocal rank fusion's constant: a rank's weight is 1 / (K + rank). */
const FUSION_K = 60;
/** A request's embedding waited for this long at most; past it the lexical ranking alone is used. */
const QUERY_EMBEDDING_MS = 3_000;

export interface ToolRouterOptions {
  /** The semantic stage, fused with the lexical ranking. */
  semantic?: SemanticIndex;
  /** Told when the semantic stage fails (it is then left out of that ranking, never the turn). */
  onSemanticError?: (error: unknown) => void;
}

/**
 * The index of a tool catalog, kept in step with it: `sync` with the catalog of the moment (a hot
 * reload, an MCP server's list_changed) changes only the tools whose manifest changed, added or
 * went away.
 */
export class ToolRouter {
  readonly #index = new ToolIndex();
  readonly #manifests = new Map<string, { manifest: ToolManifest; text: string }>();
  readonly #semantic: SemanticIndex | undefined;
  readonly #onSemanticError: (error: unknown) => void;
  #synced: readonly RoutableTool[] | undefined;
  // Updates of the semantic stage, one after another, in the background: a turn never waits for
  // a catalog to be embedded; the tools not embedded yet just have no semantic score.
  #semanticUpdate: Promise<void> = Promise.resolve();
  #semanticBehind = false;

  constructor(options: ToolRouterOptions = {}) {
    this.#semantic = options.semantic;
    this.#onSemanticError = options.onSemanticError ?? (() => {});
  }

  get size(): number {
    return this.#index.size;
  }

  /** Brings the index to `tools`; returns how many tools it set or removed. */
  sync(tools: readonly RoutableTool[]): number {
    if (tools === this.#synced) return 0;
    let changed = 0;
    const names = new Set<string>();
    for (const tool of tools) {
      names.add(tool.name);
      const known = this.#manifests.get(tool.name);
      if (known?.manifest === tool.manifest) continue;
      // A new manifest object may say the same (an MCP server lists all its tools again when one
      // changed): only a tool whose texts changed is indexed again.
      const doc = routeDocOf({ ...tool.manifest, name: tool.name });
      const text = JSON.stringify(doc);
      this.#manifests.set(tool.name, { manifest: tool.manifest, text });
      if (known?.text === text) continue;
      this.#index.set(doc);
      changed++;
    }
    for (const name of this.#manifests.keys()) {
      if (names.has(name)) continue;
      this.#index.delete(name);
      this.#manifests.delete(name);
      changed++;
    }
    this.#synced = tools;
    const semantic = this.#semantic;
    if (semantic !== undefined && (changed > 0 || this.#semanticBehind)) {
      this.#semanticBehind = false;
      this.#semanticUpdate = this.#semanticUpdate.then(() =>
        semantic.update(tools).then(
          () => undefined,
          (error: unknown) => {
            // Tried again at the next sync, even one that changes nothing.
            this.#semanticBehind = true;
            this.#synced = undefined;
            this.#onSemanticError(error);
          },
        ),
      );
    }
    return changed;
  }

  /** Resolves when the semantic stage has caught up with the last sync (for tests and benchmarks). */
  semanticReady(): Promise<void> {
    return this.#semanticUpdate;
  }

  /** The best `k` tools for a request. */
  search(query: string, k: number): RouteHit[] {
    return this.#index.search(query, k);
  }

  /**
   * As `rank`, fused with the semantic stage when there is one (reciprocal rank fusion of the two
   * rankings); without one, or when it fails or is slow, the lexical ranking alone.
   */
  async rankFused(latest: string, earlier: readonly string[], k: number, signal?: AbortSignal): Promise<RouteHit[]> {
    const lexical = this.rank(latest, earlier, this.#semantic === undefined ? k : FUSION_DEPTH);
    return this.#fuse(lexical, [latest, ...earlier.slice(-1)].join('\n'), k, signal);
  }

  /** As `search`, fused with the semantic stage when there is one. */
  async searchFused(query: string, k: number, signal?: AbortSignal): Promise<RouteHit[]> {
    return this.#fuse(this.search(query, this.#semantic === undefined ? k : FUSION_DEPTH), query, k, signal);
  }

  async #fuse(lexical: RouteHit[], query: string, k: number, signal: AbortSignal | undefined): Promise<RouteHit[]> {
    if (this.#semantic === undefined || this.#semantic.size === 0) return lexical.slice(0, k);
    let semantic: RouteHit[];
    try {
      const timeout = AbortSignal.timeout(QUERY_EMBEDDING_MS);
      semantic = await this.#semantic.search(
        query,
        FUSION_DEPTH,
        signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      );
    } catch (error) {
      this.#onSemanticError(error);
      return lexical.slice(0, k);
    }
    const scores = new Map<string, number>();
    for (const ranking of [lexical, semantic]) {
      for (const [rank, hit] of ranking.entries())
        scores.set(hit.name, (scores.get(hit.name) ?? 0) + 1 / (FUSION_K + rank + 1));
    }
    return [...scores]
      .map(([name, score]) => ({ name, score }))
      .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .slice(0, k);
  }

  /**
   * The best `k` tools for a conversation: its latest user message, read with the ones before it
   * at half weight.
   */
  rank(latest: string, earlier: readonly string[], k: number): RouteHit[] {
    const terms: WeightedTerms = queryTerms(latest);
    for (const message of earlier.slice(-EARLIER_MESSAGES)) {
      for (const [term, weight] of queryTerms(message))
        terms.set(term, (terms.get(term) ?? 0) + EARLIER_WEIGHT * weight);
    }
    return this.#index.searchTerms(terms, k);
  }
}
