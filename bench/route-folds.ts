// k-fold figures of the router (issue 26): the weights of its fields and kinds of terms learned on
// four folds of the dev sets and measured on the fifth, the folds over requests and over tools (a
// request's tool's namespace, an app's tools together, else the tool). Used by route-all.ts; run on
// its own (`npx node bench/route-folds.ts`) to see the weights learned on all the dev sets.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FEATURES,
  FIELD_COUNT,
  KINDS,
  figuresBySet,
  learnWeights,
  recallOf,
  type LearnedWeights,
  type LearnQuery,
} from '../src/routing/learn-weights.ts';
import { benchRouteDoc, parseBenchQueries, parseBenchTools } from '../src/routing/route-benchmark.ts';
import { foldsOf, requestFolds, toolGroup } from '../src/routing/route-folds.ts';
import { queryTerms, QUERY_WEIGHTS, termKinds } from '../src/routing/route-terms.ts';
import { DEFAULT_RANKING, ToolIndex, type RankingOptions } from '../src/routing/tool-index.ts';

const FOLDS = 5;
/** The candidates a request keeps for learning: its best by the starting weights (and their siblings). */
const CANDIDATES = 150;
const SIBLINGS_OF = 30;

/** The router's weights as the learner's. */
export function currentWeights(ranking: RankingOptions = DEFAULT_RANKING): LearnedWeights {
  return {
    fields: [...ranking.weights],
    example: ranking.exampleWeight,
    query: { ...QUERY_WEIGHTS },
    sibling: ranking.siblingWeight,
  };
}

/** Every request of a set with its candidates' features. */
export function learnQueries(root: string, set: string, at: number, start: LearnedWeights, ranking = DEFAULT_RANKING) {
  const tools = parseBenchTools(readFileSync(join(root, set, 'tools.jsonl'), 'utf8'), set);
  const requests = parseBenchQueries(readFileSync(join(root, set, 'dev.jsonl'), 'utf8'), set);
  const index = new ToolIndex(tools.map(benchRouteDoc), ranking);
  index.prepare();
  const queries: LearnQuery[] = [];
  for (const request of requests) {
    const rows = new Map<number, Float64Array>();
    const rowOf = (slot: number) => {
      let row = rows.get(slot);
      if (row === undefined) rows.set(slot, (row = new Float64Array(FEATURES)));
      return row;
    };
    for (const [kind, terms] of termKinds(request.query).entries()) {
      if (terms.size === 0) continue;
      const { slots, fields } = index.fieldScores(terms);
      for (const [at, slot] of slots.entries()) {
        const row = rowOf(slot);
        for (let field = 0; field < FIELD_COUNT; field++) row[field * KINDS + kind] = fields[at * FIELD_COUNT + field]!;
      }
    }
    const combined = index.fieldScores(queryTerms(request.query, start.query));
    for (const [at, slot] of combined.slots.entries()) rowOf(slot)[FEATURES - 1] = combined.bestExample[at]!;
    // Keep the best by the starting weights, and the tools of their namespaces.
    const all = [...rows.keys()];
    const one: LearnQuery = {
      set: at,
      features: Float64Array.from([...rows.values()].flatMap((row) => [...row])),
      namespaces: Int32Array.from(all.map((slot) => index.namespaceAt(slot))),
      gold: [],
      goldCount: 0,
    };
    const kept = topCandidates(one, start, all, index);
    const features = new Float64Array(kept.length * FEATURES);
    for (const [position, slot] of kept.entries()) {
      const row = rows.get(slot);
      if (row !== undefined) features.set(row, position * FEATURES);
    }
    const gold = new Set(request.gold);
    queries.push({
      set: at,
      features,
      namespaces: Int32Array.from(kept.map((slot) => index.namespaceAt(slot))),
      gold: kept.flatMap((slot, position) => (gold.has(index.nameAt(slot)!) ? [position] : [])),
      goldCount: request.gold.length,
    });
  }
  return { requests, queries };
}

function topCandidates(query: LearnQuery, start: LearnedWeights, slots: number[], index: ToolIndex): number[] {
  const scored = slots.map((slot, position) => ({ slot, score: scoreAt(query, position, start) }));
  scored.sort((a, b) => b.score - a.score);
  const kept = scored.slice(0, CANDIDATES).map((entry) => entry.slot);
  const seen = new Set(kept);
  for (const slot of kept.slice(0, SIBLINGS_OF)) {
    const group = index.namespaceAt(slot);
    if (group < 0) continue;
    for (const sibling of index.membersOf(group)) if (!seen.has(sibling)) kept.push(sibling), seen.add(sibling);
  }
  return kept;
}

function scoreAt(query: LearnQuery, position: number, weights: LearnedWeights): number {
  const one = {
    ...query,
    features: query.features.subarray(position * FEATURES, (position + 1) * FEATURES),
    namespaces: query.namespaces.subarray(position, position + 1),
  };
  // The score of one candidate alone: recallOf is for ranks; here the plain weighted sum.
  let score = weights.example * one.features[FEATURES - 1]!;
  const kinds = [1, weights.query.translation, weights.query.synonym];
  const all = [...kinds, ...kinds.map((value) => value * weights.query.context)];
  for (let field = 0; field < FIELD_COUNT; field++)
    for (let kind = 0; kind < KINDS; kind++) score += weights.fields[field]! * all[kind]! * one.features[field * KINDS + kind]!;
  return score;
}

export interface FoldReport {
  sets: string[];
  /** Recall@10 per set: learned on all the dev set and measured on it; over folds of requests; over folds of tools. */
  dev: number[];
  requestFolds: number[];
  toolFolds: number[];
  /** The weights learned on all the dev sets. */
  learned: LearnedWeights;
  /** Recall@10 per set with the starting weights, through the learner's scoring (to compare with the index's). */
  start: number[];
}

/** Learns on k − 1 folds, measures on the one left, for folds of both kinds; and once on all. */
export function foldReport(root: string, sets: readonly string[], start = currentWeights(), ranking = DEFAULT_RANKING): FoldReport {
  const loaded = sets.map((set, at) => learnQueries(root, set, at, start, ranking));
  const all = loaded.flatMap((one) => one.queries);
  const requestFold: number[] = [];
  const toolFold: number[] = [];
  for (const one of loaded) {
    requestFold.push(...requestFolds(one.queries.length, FOLDS, 26));
    toolFold.push(...foldsOf(one.requests.map((request) => toolGroup(request.gold[0]!)), FOLDS, 26));
  }
  const outOfFold = (folds: number[]) => {
    const sums = sets.map(() => [0, 0]);
    for (let fold = 0; fold < FOLDS; fold++) {
      const train = all.filter((_, at) => folds[at] !== fold);
      const weights = learnWeights(train, sets.length, start);
      for (const [at, query] of all.entries()) {
        if (folds[at] !== fold) continue;
        sums[query.set]![0]! += recallOf(query, weights)[3]!;
        sums[query.set]![1]!++;
      }
    }
    return sums.map(([sum, count]) => sum! / Math.max(count!, 1));
  };
  const learned = learnWeights(all, sets.length, start);
  return {
    sets: [...sets],
    dev: figuresBySet(all, learned, sets.length).map((row) => row[3]!),
    requestFolds: outOfFold(requestFold),
    toolFolds: outOfFold(toolFold),
    learned,
    start: figuresBySet(all, start, sets.length).map((row) => row[3]!),
  };
}

/** The report as a table (recall@10), per set and macro. */
export function formatFoldReport(report: FoldReport): string {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const rows = [
    ['dataset', 'now', 'learned', `${FOLDS}-fold req`, `${FOLDS}-fold tools`],
    ...report.sets.map((set, at) => [
      set,
      ...[report.start, report.dev, report.requestFolds, report.toolFolds].map((values) => values[at]!.toFixed(3)),
    ]),
    ['macro mean', ...[report.start, report.dev, report.requestFolds, report.toolFolds].map((values) => mean(values).toFixed(3))],
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const table = rows
    .map((row) => row.map((value, column) => (column === 0 ? value.padEnd(widths[column]!) : value.padStart(widths[column]!))).join('  '))
    .join('\n');
  const { fields, example, query, sibling } = report.learned;
  return `${table}\n\nrecall@10; now: the router's weights; learned: learned on all the dev sets and measured on them; ${FOLDS}-fold: learned on four folds, measured on the fifth.\nlearned weights: fields ${fields.join(' ')}, best example ${example}, context ${query.context}, translation ${query.translation}, synonym ${query.synonym}, sibling ${sibling}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.env.BENCH_RETRIEVAL ?? fileURLToPath(new URL('../../shared/bench/retrieval/', import.meta.url));
  const sets = (process.env.SETS ?? 'metatool,hammerbench_zh,hammerbench_en,bfcl_pool,seal_tools,acebench_zh,acebench_en').split(',');
  const started = performance.now();
  console.log(formatFoldReport(foldReport(root, sets)));
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
