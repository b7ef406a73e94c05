import { kindWeights, type QueryWeights } from './route-terms.ts';
import { FIELD_NAMES } from './tool-index.ts';

/**
 * Kinds of terms (route-terms.ts `termKinds`, then the feedback terms of tool-index.ts) and fields
 * (tool-index.ts `FIELD_NAMES`) of a candidate's features.
 */
export const KINDS = 7;
export const FIELD_COUNT = FIELD_NAMES.length;
/** Per candidate: a raw score per field and kind, then the best example's. */
export const FEATURES = FIELD_COUNT * KINDS + 1;

/** One request as the learner sees it: the tools it touched, with their features. */
export interface LearnQuery {
  /** Which benchmark it comes from (the objective is the mean over sets). */
  set: number;
  /** FEATURES numbers per candidate. */
  features: Float64Array;
  /** The candidate's namespace (-1 for none), for the sibling lift. */
  namespaces: Int32Array;
  /** The candidates that are gold tools. */
  gold: number[];
  /** How many gold tools the request has (some may not be among the candidates). */
  goldCount: number;
}

/** What is learned: the weight of each field and of the best example, of each kind of term, and of a sibling's score. */
export interface LearnedWeights {
  fields: number[];
  example: number;
  query: QueryWeights;
  sibling: number;
  feedback: number;
}

const KS = [1, 3, 5, 10] as const;

/** Recall at 1, 3, 5, 10 of each request under the weights (the same scoring as the index's, from the features). */
export function recallOf(query: LearnQuery, weights: LearnedWeights): number[] {
  const scores = scoresOf(query, weights);
  const recall = [0, 0, 0, 0];
  for (const gold of query.gold) {
    const score = scores[gold]!;
    if (score <= 0) continue;
    let ahead = 0;
    // A tie counts against the gold tool: the learner must not win by ties.
    for (let other = 0; other < scores.length && ahead < 10; other++)
      if (other !== gold && scores[other]! >= score) ahead++;
    for (const [at, k] of KS.entries()) if (ahead < k) recall[at]! += 1 / Math.max(query.goldCount, 1);
  }
  return recall;
}

// The features summed over the kinds of terms, per field, for the kinds' weights of the moment:
// made again only when those change (a coordinate ascent changes one weight at a time).
const combinedCache = new WeakMap<LearnQuery, { key: string; values: Float64Array }>();

function combined(query: LearnQuery, weights: QueryWeights, feedback: number): Float64Array {
  const key = `${weights.context} ${weights.translation} ${weights.synonym} ${feedback}`;
  const known = combinedCache.get(query);
  if (known?.key === key) return known.values;
  const kinds = [...kindWeights(weights), feedback];
  const count = query.namespaces.length;
  const width = FIELD_COUNT + 1;
  const values = new Float64Array(count * width);
  const features = query.features;
  for (let candidate = 0; candidate < count; candidate++) {
    const row = candidate * FEATURES;
    for (let field = 0; field < FIELD_COUNT; field++) {
      let sum = 0;
      for (let kind = 0; kind < KINDS; kind++) sum += kinds[kind]! * features[row + field * KINDS + kind]!;
      values[candidate * width + field] = sum;
    }
    values[candidate * width + FIELD_COUNT] = features[row + FEATURES - 1]!;
  }
  combinedCache.set(query, { key, values });
  return values;
}

function scoresOf(query: LearnQuery, weights: LearnedWeights): Float64Array {
  const values = combined(query, weights.query, weights.feedback);
  const count = query.namespaces.length;
  const width = FIELD_COUNT + 1;
  const scores = new Float64Array(count);
  const fieldWeights = weights.fields;
  for (let candidate = 0; candidate < count; candidate++) {
    const row = candidate * width;
    let score = weights.example * values[row + FIELD_COUNT]!;
    for (let field = 0; field < FIELD_COUNT; field++) score += fieldWeights[field]! * values[row + field]!;
    scores[candidate] = score;
  }
  if (weights.sibling <= 0) return scores;
  const first = new Map<number, [number, number, number]>();
  for (let candidate = 0; candidate < count; candidate++) {
    const group = query.namespaces[candidate]!;
    if (group < 0) continue;
    const score = scores[candidate]!;
    const known = first.get(group);
    if (known === undefined) first.set(group, [score, candidate, 0]);
    else if (score > known[0]) first.set(group, [score, candidate, known[0]]);
    else if (score > known[2]) known[2] = score;
  }
  const lifted = Float64Array.from(scores);
  for (let candidate = 0; candidate < count; candidate++) {
    const group = query.namespaces[candidate]!;
    if (group < 0) continue;
    const [best, bestAt, second] = first.get(group)!;
    lifted[candidate]! += weights.sibling * (candidate === bestAt ? second : best);
  }
  return lifted;
}

/** Mean recall at 1, 3, 5, 10 per set. */
export function figuresBySet(queries: readonly LearnQuery[], weights: LearnedWeights, sets: number): number[][] {
  const sums = Array.from({ length: sets }, () => [0, 0, 0, 0, 0]);
  for (const query of queries) {
    const recall = recallOf(query, weights);
    const sum = sums[query.set]!;
    for (let at = 0; at < recall.length; at++) sum[at]! += recall[at]!;
    sum[4]!++;
  }
  return sums.map((sum) => sum.slice(0, 4).map((value) => value / Math.max(sum[4]!, 1)));
}

/** The objective: recall@10 macro over the sets, with a little of recall@1/3/5 to break its plateaus. */
function objective(queries: readonly LearnQuery[], weights: LearnedWeights, sets: number): number {
  const figures = figuresBySet(queries, weights, sets).filter((_, set) => queries.some((query) => query.set === set));
  const mean = (at: number) => figures.reduce((sum, row) => sum + row[at]!, 0) / Math.max(figures.length, 1);
  return mean(3) + 0.05 * (mean(0) + mean(1) + mean(2));
}

type Knob = {
  name: string;
  get: (weights: LearnedWeights) => number;
  set: (weights: LearnedWeights, value: number) => void;
};

const KNOBS: Knob[] = [
  // The description's weight stays: the scale of the scores is free, so one weight is fixed.
  ...[0, 1, 3, 4, 5].map((field) => ({
    name: `field${field}`,
    get: (weights: LearnedWeights) => weights.fields[field]!,
    set: (weights: LearnedWeights, value: number) => {
      weights.fields[field] = value;
    },
  })),
  { name: 'example', get: (weights) => weights.example, set: (weights, value) => void (weights.example = value) },
  {
    name: 'context',
    get: (weights) => weights.query.context,
    set: (weights, value) => void (weights.query.context = value),
  },
  {
    name: 'translation',
    get: (weights) => weights.query.translation,
    set: (weights, value) => void (weights.query.translation = value),
  },
  {
    name: 'synonym',
    get: (weights) => weights.query.synonym,
    set: (weights, value) => void (weights.query.synonym = value),
  },
  { name: 'feedback', get: (weights) => weights.feedback, set: (weights, value) => void (weights.feedback = value) },
  { name: 'sibling', get: (weights) => weights.sibling, set: (weights, value) => void (weights.sibling = value) },
];

const STEPS = [0, 0.5, 0.8, 1.25, 2];

/**
 * Weights that do best on `queries` (coordinate ascent from `start`: each weight in turn tried at
 * a few multiples of its value, the best kept, until a pass changes nothing). The `fixed` ones
 * (field0…field5, example, context, translation, synonym, feedback, sibling) stay as they start.
 */
export function learnWeights(
  queries: readonly LearnQuery[],
  sets: number,
  start: LearnedWeights,
  options: { passes?: number; fixed?: readonly string[] } = {},
): LearnedWeights {
  const weights = copy(start);
  let best = objective(queries, weights, sets);
  const knobs = KNOBS.filter((knob) => !(options.fixed ?? []).includes(knob.name));
  for (let pass = 0; pass < (options.passes ?? 2); pass++) {
    let changed = false;
    for (const knob of knobs) {
      const now = knob.get(weights);
      let bestValue = now;
      const tries = now === 0 ? [0.05, 0.1, 0.2, 0.4] : STEPS.map((step) => round(now * step));
      for (const value of tries) {
        if (value === now) continue;
        knob.set(weights, value);
        const score = objective(queries, weights, sets);
        if (score > best + 1e-9) {
          best = score;
          bestValue = value;
          changed = true;
        }
      }
      knob.set(weights, bestValue);
    }
    if (!changed) break;
  }
  return weights;
}

function copy(weights: LearnedWeights): LearnedWeights {
  return { ...weights, fields: [...weights.fields], query: { ...weights.query } };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
