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

/**
 * Where every learning starts (the weights chosen by hand before any learning, 014): starting from
 * the weights learned on all the dev sets would let each fold see its own test requests.
 */
const PRIOR: LearnedWeights = {
  fields: [1, 3, 1.5, 0.6, 0.6, 1],
  example: 0.5,
  query: { context: 0.5, translation: 0.7, synonym: 0.4 },
  sibling: 0,
  feedback: 0,
};

/** The router's weights as the learner's. */
export function currentWeights(ranking: RankingOptions = DEFAULT_RANKING): LearnedWeights {
  return {
    fields: [...ranking.weights],
    example: ranking.exampleWeight,
    query: { ...QUERY_WEIGHTS },
    sibling: ranking.siblingWeight,
    feedback: ranking.feedbackWeight,
  };
}

/** Every request of a set with its candidates' features. */
export function learnQueries(root: string, set: string, at: number, start: LearnedWeights, ranking = DEFAULT_RANKING) {
  const tools = parseBenchTools(readFileSync(join(root, set, 'tools.jsonl'), 'utf8'), set);
  const requests = parseBenchQueries(readFileSync(join(root, set, 'dev.jsonl'), 'utf8'), set);
  // The raw field scores do not depend on the weights; the feedback's first pass does, and is made
  // with the starting ones (so that no fold sees weights learned on its own requests).
  const index = new ToolIndex(tools.map(benchRouteDoc), {
    ...ranking,
    weights: start.fields,
    exampleWeight: start.example,
    siblingWeight: start.sibling,
    feedbackWeight: 0,
  });
  index.prepare();
  const queries: LearnQuery[] = [];
  const size = index.size;
  const dense = new Float64Array(size * FEATURES);
  const seen = new Uint8Array(size);
  const kinds = [1, start.query.translation, start.query.synonym];
  const kindWeight = [...kinds, ...kinds.map((value) => value * start.query.context), start.feedback];
  for (const request of requests) {
    const touched: number[] = [];
    for (const [kind, terms] of termKinds(request.query).entries()) {
      if (terms.size > 0)
        index.addFieldScores(terms, dense, { stride: FEATURES, offset: kind, fieldStride: KINDS }, seen, touched);
    }
    const startTerms = queryTerms(request.query, start.query);
    for (const [slot, score] of index.bestExampleScores(startTerms)) dense[slot * FEATURES + FEATURES - 1] = score;
    const feedback = index.feedbackTerms(startTerms);
    if (feedback.size > 0)
      index.addFieldScores(feedback, dense, { stride: FEATURES, offset: KINDS - 1, fieldStride: KINDS }, seen, touched);
    // Keep the best by the starting weights, and the tools of their namespaces.
    const scoreOf = (slot: number) => {
      const row = slot * FEATURES;
      let score = start.example * dense[row + FEATURES - 1]!;
      for (let field = 0; field < FIELD_COUNT; field++)
        for (let kind = 0; kind < KINDS; kind++)
          score += start.fields[field]! * kindWeight[kind]! * dense[row + field * KINDS + kind]!;
      return score;
    };
    const kept = touched
      .map((slot) => ({ slot, score: scoreOf(slot) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, CANDIDATES)
      .map((entry) => entry.slot);
    const inKept = new Set(kept);
    for (const slot of kept.slice(0, SIBLINGS_OF)) {
      const group = index.namespaceAt(slot);
      if (group < 0) continue;
      for (const sibling of index.membersOf(group))
        if (!inKept.has(sibling)) {
          kept.push(sibling);
          inKept.add(sibling);
        }
    }
    const features = new Float64Array(kept.length * FEATURES);
    for (const [position, slot] of kept.entries())
      if (seen[slot] === 1) features.set(dense.subarray(slot * FEATURES, (slot + 1) * FEATURES), position * FEATURES);
    for (const slot of touched) {
      dense.fill(0, slot * FEATURES, (slot + 1) * FEATURES);
      seen[slot] = 0;
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

export interface FoldReport {
  sets: string[];
  /** Recall@10 per set: learned on all the dev set and measured on it; over folds of requests; over folds of tools. */
  dev: number[];
  requestFolds: number[];
  toolFolds: number[];
  /** The weights learned on all the dev sets. */
  learned: LearnedWeights;
  /** The weights each fold learned (requests' folds, then tools'). */
  perFold: LearnedWeights[];
  /** Recall@10 per set with the router's weights of now, through the learner's scoring (to compare with the index's). */
  now: number[];
}

/** Learns on k − 1 folds, measures on the one left, for folds of both kinds; and once on all. */
export function foldReport(
  root: string,
  sets: readonly string[],
  start = PRIOR,
  ranking = DEFAULT_RANKING,
  fixed: readonly string[] = [],
): FoldReport {
  const loaded = sets.map((set, at) => learnQueries(root, set, at, start, ranking));
  const all = loaded.flatMap((one) => one.queries);
  const requestFold: number[] = [];
  const toolFold: number[] = [];
  for (const one of loaded) {
    requestFold.push(...requestFolds(one.queries.length, FOLDS, 26));
    toolFold.push(
      ...foldsOf(
        one.requests.map((request) => toolGroup(request.gold[0]!)),
        FOLDS,
        26,
      ),
    );
  }
  const perFold: LearnedWeights[] = [];
  const outOfFold = (folds: number[]) => {
    const sums = sets.map(() => [0, 0]);
    for (let fold = 0; fold < FOLDS; fold++) {
      const train = all.filter((_, at) => folds[at] !== fold);
      const weights = learnWeights(train, sets.length, start, { fixed });
      perFold.push(weights);
      for (const [at, query] of all.entries()) {
        if (folds[at] !== fold) continue;
        sums[query.set]![0]! += recallOf(query, weights)[3]!;
        sums[query.set]![1]!++;
      }
    }
    return sums.map(([sum, count]) => sum! / Math.max(count!, 1));
  };
  const learned = learnWeights(all, sets.length, start, { fixed });
  return {
    sets: [...sets],
    dev: figuresBySet(all, learned, sets.length).map((row) => row[3]!),
    requestFolds: outOfFold(requestFold),
    toolFolds: outOfFold(toolFold),
    learned,
    perFold,
    now: figuresBySet(all, currentWeights(ranking), sets.length).map((row) => row[3]!),
  };
}

/** The report as a table (recall@10), per set and macro. */
export function formatFoldReport(report: FoldReport): string {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const rows = [
    ['dataset', 'now', 'learned', `${FOLDS}-fold req`, `${FOLDS}-fold tools`],
    ...report.sets.map((set, at) => [
      set,
      ...[report.now, report.dev, report.requestFolds, report.toolFolds].map((values) => values[at]!.toFixed(3)),
    ]),
    [
      'macro mean',
      ...[report.now, report.dev, report.requestFolds, report.toolFolds].map((values) => mean(values).toFixed(3)),
    ],
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const table = rows
    .map((row) =>
      row
        .map((value, column) => (column === 0 ? value.padEnd(widths[column]!) : value.padStart(widths[column]!)))
        .join('  '),
    )
    .join('\n');
  const describe = ({ fields, example, query, sibling, feedback }: LearnedWeights) =>
    `fields ${fields.join(' ')}, best example ${example}, context ${query.context}, translation ${query.translation}, synonym ${query.synonym}, sibling ${sibling}, feedback ${feedback}`;
  const folds = report.perFold.map(
    (weights, at) => `  fold ${at < FOLDS ? 'req' : 'tools'} ${at % FOLDS}: ${describe(weights)}`,
  );
  return `${table}\n\nrecall@10; now: the router's weights; learned: learned on all the dev sets and measured on them; ${FOLDS}-fold: learned on four folds, measured on the fifth.\nlearned weights: ${describe(report.learned)}\n${folds.join('\n')}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.env.BENCH_RETRIEVAL ?? fileURLToPath(new URL('../../shared/bench/retrieval/', import.meta.url));
  const sets = (
    process.env.SETS ?? 'metatool,hammerbench_zh,hammerbench_en,bfcl_pool,seal_tools,acebench_zh,acebench_en'
  ).split(',');
  const started = performance.now();
  // RANKING='{"k1":2}' measures the procedure with other fixed settings of the index.
  const ranking = { ...DEFAULT_RANKING, ...(JSON.parse(process.env.RANKING ?? '{}') as Partial<RankingOptions>) };
  // FIXED=sibling,feedback keeps those weights where they start (0), to see what learning them is worth.
  const fixed = (process.env.FIXED ?? '').split(',').filter((name) => name !== '');
  console.log(formatFoldReport(foldReport(root, sets, PRIOR, ranking, fixed)));
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
