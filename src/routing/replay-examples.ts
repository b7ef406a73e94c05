import type { RouteDoc } from './route-doc.ts';
import { ToolIndex } from './tool-index.ts';

interface ExampleMiss {
  tool: string;
  example: string;
  /** The tools the example reached instead, best first (at most k). */
  reached: string[];
}

export interface ReplayResult {
  k: number;
  tools: number;
  examples: number;
  misses: ExampleMiss[];
}

/**
 * Replays every tool's examples through the router and keeps those whose tool is not in the top
 * k. Each example is replayed with itself left out of the index (its tool keeps its other
 * examples): an example always finds itself, so only that way does the replay say whether a
 * request like it, worded anew, would reach the tool.
 */
export function replayExamples(docs: readonly RouteDoc[], k: number): ReplayResult {
  const index = new ToolIndex(docs);
  const misses: ExampleMiss[] = [];
  let examples = 0;
  for (const doc of docs) {
    for (const [at, example] of doc.examples.entries()) {
      examples++;
      index.set({ ...doc, examples: doc.examples.filter((_, other) => other !== at) });
      const reached = index.search(example, k).map((hit) => hit.name);
      if (!reached.includes(doc.name)) misses.push({ tool: doc.name, example, reached });
    }
    if (doc.examples.length > 0) index.set(doc);
  }
  return { k, tools: docs.length, examples, misses };
}
