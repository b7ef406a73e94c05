import { schemaTexts, type RouteDoc } from './route-doc.ts';
import { ToolIndex } from './tool-index.ts';

/** A tool of the benchmark format (shaped like a manifest; `parameters` is a JSON Schema). */
export interface BenchTool {
  name: string;
  description: string;
  parameters: unknown;
  examples: string[];
}

export interface BenchQuery {
  id: string;
  query: string;
  lang: string;
  gold: string[];
}

export interface RouteBenchmark {
  requests: number;
  tools: number;
  /** Share of requests with a gold tool in the top k, keyed by k. */
  hit: Record<string, number>;
  /** Mean share of each request's gold tools in the top k, keyed by k. */
  recall: Record<string, number>;
  by_lang: Record<string, { requests: number; hit: Record<string, number>; recall: Record<string, number> }>;
  index_ms: number;
  p50_ms: number;
  p95_ms: number;
  /** The estimated tokens of the whole catalog's definitions, and the mean of the top k's, keyed by k. */
  tokens: { catalog: number; at_k: Record<string, number> };
}

/**
 * Runs the router over a benchmark: builds the index (timed, ready for its first request), asks
 * every request for the top max(k), and scores the ranks. `definitionTokens` tells what one
 * tool's definition costs as a model is sent it.
 */
export function runRouteBenchmark(
  tools: readonly BenchTool[],
  queries: readonly BenchQuery[],
  ks: readonly number[],
  definitionTokens: (tool: BenchTool) => number,
): RouteBenchmark {
  const docs = tools.map(benchRouteDoc);
  const started = performance.now();
  const index = new ToolIndex(docs);
  index.prepare();
  const index_ms = performance.now() - started;
  const deepest = Math.max(...ks);
  const costs = new Map(tools.map((tool) => [tool.name, definitionTokens(tool)]));
  const times: number[] = [];
  const total = tally(ks);
  const byLang = new Map<string, ReturnType<typeof tally>>();
  const tokenSums = ks.map(() => 0);
  for (const query of queries) {
    const start = performance.now();
    const ranked = index.search(query.query, deepest).map((hit) => hit.name);
    times.push(performance.now() - start);
    let language = byLang.get(query.lang);
    if (language === undefined) byLang.set(query.lang, (language = tally(ks)));
    for (const [at, k] of ks.entries()) {
      const top = ranked.slice(0, k);
      const found = query.gold.filter((name) => top.includes(name)).length;
      for (const counts of [total, language]) {
        counts.hit[at]! += found > 0 ? 1 : 0;
        counts.recall[at]! += query.gold.length === 0 ? 0 : found / query.gold.length;
      }
      tokenSums[at]! += top.reduce((sum, name) => sum + (costs.get(name) ?? 0), 0);
    }
    language.requests++;
    total.requests++;
  }
  times.sort((a, b) => a - b);
  const catalog = [...costs.values()].reduce((sum, cost) => sum + cost, 0);
  return {
    requests: queries.length,
    tools: tools.length,
    ...keyed(total, ks),
    by_lang: Object.fromEntries(
      [...byLang]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([language, counts]) => [language, { requests: counts.requests, ...keyed(counts, ks) }]),
    ),
    index_ms: round(index_ms),
    p50_ms: round(percentile(times, 0.5)),
    p95_ms: round(percentile(times, 0.95)),
    tokens: {
      catalog,
      at_k: Object.fromEntries(
        ks.map((k, at) => [String(k), Math.round(tokenSums[at]! / Math.max(queries.length, 1))]),
      ),
    },
  };
}

/** What the router reads of a benchmark tool. */
export function benchRouteDoc(tool: BenchTool): RouteDoc {
  const parameterNames: string[] = [];
  return {
    name: tool.name,
    description: [tool.description],
    parameters: schemaTexts(tool.parameters, [], parameterNames),
    parameterNames,
    examples: tool.examples,
  };
}

function tally(ks: readonly number[]) {
  return { requests: 0, hit: ks.map(() => 0), recall: ks.map(() => 0) };
}

function keyed(counts: ReturnType<typeof tally>, ks: readonly number[]) {
  const share = (values: number[]) =>
    Object.fromEntries(ks.map((k, at) => [String(k), round(values[at]! / Math.max(counts.requests, 1), 4)]));
  return { hit: share(counts.hit), recall: share(counts.recall) };
}

function percentile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

function round(value: number, digits = 3): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** What is wrong with a line of a benchmark file; the command line words it in the reader's language. */
export type BenchProblem =
  | { code: 'not-json'; detail: string }
  | { code: 'not-object' }
  | { code: 'missing'; field: string }
  | { code: 'wrong-type'; field: string; expected: 'string' | 'non-empty-string' | 'strings' | 'names' }
  | { code: 'empty' };

export class BenchFormatError extends Error {
  override name = 'BenchFormatError';
  readonly where: string;
  readonly problem: BenchProblem;
  constructor(where: string, problem: BenchProblem) {
    super(`${where}: ${JSON.stringify(problem)}`);
    this.where = where;
    this.problem = problem;
  }
}

/** Reads a benchmark file: one JSON object a line. A bad line is an error naming the file, the line and what is wrong. */
export function parseBenchTools(text: string, file: string): BenchTool[] {
  return lines(text, file, (value, where) => {
    const name = field(value, 'name', where);
    if (typeof name !== 'string' || name === '')
      throw new BenchFormatError(where, { code: 'wrong-type', field: 'name', expected: 'non-empty-string' });
    const description = value.description ?? '';
    if (typeof description !== 'string')
      throw new BenchFormatError(where, { code: 'wrong-type', field: 'description', expected: 'string' });
    const examples = value.examples ?? [];
    if (!Array.isArray(examples) || examples.some((example) => typeof example !== 'string'))
      throw new BenchFormatError(where, { code: 'wrong-type', field: 'examples', expected: 'strings' });
    return { name, description, parameters: value.parameters ?? null, examples: examples as string[] };
  });
}

export function parseBenchQueries(text: string, file: string): BenchQuery[] {
  return lines(text, file, (value, where) => {
    const query = field(value, 'query', where);
    if (typeof query !== 'string')
      throw new BenchFormatError(where, { code: 'wrong-type', field: 'query', expected: 'string' });
    const gold = field(value, 'gold', where);
    if (!Array.isArray(gold) || gold.length === 0 || gold.some((name) => typeof name !== 'string'))
      throw new BenchFormatError(where, { code: 'wrong-type', field: 'gold', expected: 'names' });
    const lang = value.lang ?? 'en';
    if (typeof lang !== 'string')
      throw new BenchFormatError(where, { code: 'wrong-type', field: 'lang', expected: 'string' });
    return { id: typeof value.id === 'string' ? value.id : where, query, lang, gold: gold as string[] };
  });
}

function lines<T>(text: string, file: string, read: (value: Record<string, unknown>, where: string) => T): T[] {
  const out: T[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const where = `${file}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new BenchFormatError(where, { code: 'not-json', detail: (error as Error).message });
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new BenchFormatError(where, { code: 'not-object' });
    out.push(read(value as Record<string, unknown>, where));
  }
  if (out.length === 0) throw new BenchFormatError(file, { code: 'empty' });
  return out;
}

function field(value: Record<string, unknown>, name: string, where: string): unknown {
  if (!(name in value)) throw new BenchFormatError(where, { code: 'missing', field: name });
  return value[name];
}
