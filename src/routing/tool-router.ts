import { routeDocOf } from './route-doc.ts';
import { queryTerms, type WeightedTerms } from './route-terms.ts';
import { ToolIndex, type RouteHit } from './tool-index.ts';
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

/**
 * The index of a tool catalog, kept in step with it: `sync` with the catalog of the moment (a hot
 * reload, an MCP server's list_changed) changes only the tools whose manifest changed, added or
 * went away.
 */
export class ToolRouter {
  readonly #index = new ToolIndex();
  readonly #manifests = new Map<string, ToolManifest>();
  #synced: readonly RoutableTool[] | undefined;

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
      if (this.#manifests.get(tool.name) === tool.manifest) continue;
      this.#index.set(routeDocOf({ ...tool.manifest, name: tool.name }));
      this.#manifests.set(tool.name, tool.manifest);
      changed++;
    }
    for (const name of this.#manifests.keys()) {
      if (names.has(name)) continue;
      this.#index.delete(name);
      this.#manifests.delete(name);
      changed++;
    }
    this.#synced = tools;
    return changed;
  }

  /** The best `k` tools for a request. */
  search(query: string, k: number): RouteHit[] {
    return this.#index.search(query, k);
  }

  /**
   * The best `k` tools for a conversation: its latest user message, read with the ones before it
   * at half weight.
   */
  rank(latest: string, earlier: readonly string[], k: number): RouteHit[] {
    const terms: WeightedTerms = queryTerms(latest);
    for (const message of earlier.slice(-EARLIER_MESSAGES)) {
      for (const [term, weight] of queryTerms(message)) terms.set(term, (terms.get(term) ?? 0) + EARLIER_WEIGHT * weight);
    }
    return this.#index.searchTerms(terms, k);
  }
}
