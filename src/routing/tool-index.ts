import type { RouteDoc } from './route-doc.ts';
import { queryTerms, type WeightedTerms } from './route-terms.ts';
import { tokenize } from './tokenize.ts';

/**
 * The fields of a tool, each scored on its own (BM25, its own length normalization), their scores
 * weighed and added: the name's namespace (`Travel.HotelServices` of
 * `Travel.HotelServices.bookHotel`), the name's last part, the description, the parameters'
 * names, their descriptions and enum values, the examples.
 */
export const FIELD_NAMES = ['namespace', 'name', 'description', 'parameter names', 'parameter texts', 'examples'];
const FIELDS = FIELD_NAMES.length;

/** How the fields count; learned on folds of the benchmark's dev sets (docs/decisions/014-routing.md). */
export interface RankingOptions {
  /** Weight of each field's score, in FIELD_NAMES order. */
  weights: readonly number[];
  /** Length normalization per field. */
  b: readonly number[];
  k1: number;
  /** Weight of the best single example's match, each example scored as a document of its own. */
  exampleWeight: number;
  exampleB: number;
  /**
   * A tool gets this share of the best score among the other tools of its namespace: a request
   * near one tool of an app is near the app (0 for none).
   */
  siblingWeight: number;
  /**
   * Pseudo-relevance feedback: the telling words of the first pass's best tools are added to the
   * request at this weight and it is asked again (0 for one pass).
   */
  feedbackWeight: number;
}

/** Feedback reads this many of the first pass's tools, and adds this many of their words. */
const FEEDBACK_TOOLS = 3;
const FEEDBACK_TERMS = 8;

// Learned on all the dev sets by bench/route-folds.ts (the fold figures of the procedure are in 014).
export const DEFAULT_RANKING: RankingOptions = {
  weights: [0.8, 2.4, 1.5, 0.48, 0.75, 0.05],
  b: [0.5, 0.5, 0.75, 0.75, 0.75, 0.75],
  k1: 2,
  exampleWeight: 0.5,
  exampleB: 0.75,
  siblingWeight: 0,
  feedbackWeight: 0,
};

/** One term's documents, with the term's count in each field (FIELDS numbers per document). */
interface Posting {
  ids: number[];
  counts: number[];
  /** The saturated, length-normalized weight per document, made on first use; see #weights. */
  weights: Float64Array | undefined;
  generation: number;
  /** Per document and field, the field's saturated weight alone (for learning; made on first use). */
  fieldWeights?: Float64Array | undefined;
  fieldGeneration?: number;
}

interface ToolEntry {
  name: string;
  /** The namespace's number, or -1 for a name without one. */
  namespace: number;
  lengths: number[];
  terms: string[];
  examples: number[];
}

interface ExampleEntry {
  slot: number;
  length: number;
  terms: string[];
}

export interface RouteHit {
  name: string;
  score: number;
}

/**
 * A lexical index of tools (a BM25 score per field, weighed and added, plus each example scored on
 * its own, as a request that reached the tool), changed one tool at a time —
 * add, replace, remove — so that a hot reload or an MCP server's list_changed costs the tools
 * that changed, not the catalog.
 */
export class ToolIndex {
  readonly #options: RankingOptions;
  readonly #tools: (ToolEntry | undefined)[] = [];
  readonly #freeTools: number[] = [];
  readonly #byName = new Map<string, number>();
  readonly #postings = new Map<string, Posting>();
  readonly #lengthSums: number[] = new Array(FIELDS).fill(0);
  readonly #namespaces = new Map<string, number>();
  readonly #members: Set<number>[] = [];
  readonly #examples: (ExampleEntry | undefined)[] = [];
  readonly #freeExamples: number[] = [];
  readonly #examplePostings = new Map<string, Posting>();
  #exampleLengthSum = 0;
  #exampleCount = 0;
  // The averages the weights were made with; see #checkDrift.
  #averages: number[] = new Array(FIELDS).fill(1);
  #exampleAverage = 1;
  #generation = 0;
  #scores = new Float64Array(0);
  #exampleScores = new Float64Array(0);
  // Each namespace's best and second-best score in a request, for the sibling lift (kept zeroed between requests).
  #groupFirst = new Float64Array(0);
  #groupSecond = new Float64Array(0);
  #groupFirstSlot = new Int32Array(0);

  constructor(docs: Iterable<RouteDoc> = [], options: Partial<RankingOptions> = {}) {
    this.#options = { ...DEFAULT_RANKING, ...options };
    for (const doc of docs) this.set(doc);
  }

  get size(): number {
    return this.#byName.size;
  }

  has(name: string): boolean {
    return this.#byName.has(name);
  }

  names(): string[] {
    return [...this.#byName.keys()];
  }

  /** Adds a tool, or replaces the one of that name. */
  set(doc: RouteDoc): void {
    this.delete(doc.name);
    const slot = this.#freeTools.pop() ?? this.#tools.length;
    const counts = new Map<string, number[]>();
    const lengths: number[] = new Array(FIELDS).fill(0);
    const add = (tokens: readonly string[], field: number) => {
      for (const token of tokens) {
        let perField = counts.get(token);
        if (perField === undefined) counts.set(token, (perField = new Array(FIELDS).fill(0)));
        perField[field]!++;
      }
      lengths[field]! += tokens.length;
    };
    const { namespace, last } = nameParts(doc.name);
    add(tokenize(namespace), 0);
    add(tokenize(last), 1);
    for (const text of doc.description) add(tokenize(text), 2);
    for (const text of doc.parameterNames ?? []) add(tokenize(text), 3);
    for (const text of doc.parameters) add(tokenize(text), 4);
    // Each example is read once: as part of the tool, and as a request of its own.
    const exampleTokens = doc.examples.map((text) => tokenize(text));
    for (const tokens of exampleTokens) add(tokens, 5);
    for (const [term, perField] of counts) {
      const posting = postingOf(this.#postings, term);
      posting.ids.push(slot);
      posting.counts.push(...perField);
      posting.weights = undefined;
      posting.fieldWeights = undefined;
    }
    for (let field = 0; field < FIELDS; field++) this.#lengthSums[field]! += lengths[field]!;
    const examples = exampleTokens.map((tokens) => this.#addExample(slot, tokens));
    let group = -1;
    if (namespace !== '') {
      group = this.#namespaces.get(namespace) ?? this.#members.length;
      if (group === this.#members.length) {
        this.#namespaces.set(namespace, group);
        this.#members.push(new Set());
      }
      this.#members[group]!.add(slot);
    }
    this.#tools[slot] = { name: doc.name, namespace: group, lengths, terms: [...counts.keys()], examples };
    this.#byName.set(doc.name, slot);
  }

  /** Removes a tool; false when there was none of that name. */
  delete(name: string): boolean {
    const slot = this.#byName.get(name);
    if (slot === undefined) return false;
    const entry = this.#tools[slot]!;
    for (const term of entry.terms) removeFrom(this.#postings, term, slot);
    for (let field = 0; field < FIELDS; field++) this.#lengthSums[field]! -= entry.lengths[field]!;
    for (const example of entry.examples) this.#removeExample(example);
    // An empty namespace keeps its number: a reload puts its tools back.
    if (entry.namespace >= 0) this.#members[entry.namespace]!.delete(slot);
    this.#tools[slot] = undefined;
    this.#freeTools.push(slot);
    this.#byName.delete(name);
    return true;
  }

  #addExample(slot: number, tokens: readonly string[]): number {
    const id = this.#freeExamples.pop() ?? this.#examples.length;
    const terms = new Map<string, number>();
    for (const token of tokens) terms.set(token, (terms.get(token) ?? 0) + 1);
    for (const [term, count] of terms) {
      const posting = postingOf(this.#examplePostings, term);
      posting.ids.push(id);
      posting.counts.push(count);
      posting.weights = undefined;
    }
    this.#examples[id] = { slot, length: tokens.length, terms: [...terms.keys()] };
    this.#exampleLengthSum += tokens.length;
    this.#exampleCount++;
    return id;
  }

  #removeExample(id: number): void {
    const entry = this.#examples[id]!;
    for (const term of entry.terms) removeFrom(this.#examplePostings, term, id, 1);
    this.#exampleLengthSum -= entry.length;
    this.#exampleCount--;
    this.#examples[id] = undefined;
    this.#freeExamples.push(id);
  }

  /** The best `k` tools for a request, best first; ties go by name, so the order is the same every time. */
  search(query: string, k = 10): RouteHit[] {
    return this.searchTerms(queryTerms(query), k);
  }

  /** As `search`, for terms already made (weighted as the caller wants). */
  searchTerms(terms: WeightedTerms, k = 10): RouteHit[] {
    const weight = this.#options.feedbackWeight;
    if (weight <= 0) return this.#rank(terms, k);
    const expanded = new Map(terms);
    for (const [term, share] of this.feedbackTerms(terms))
      expanded.set(term, (expanded.get(term) ?? 0) + weight * share);
    return this.#rank(expanded, k);
  }

  /**
   * The words the best tools of a first pass share that the request did not say, each with its
   * share (0–1) of the best one's weight: a word is telling by its rarity in the catalog and by
   * how many of those tools have it.
   */
  feedbackTerms(terms: WeightedTerms): WeightedTerms {
    const top = this.#rank(terms, FEEDBACK_TOOLS);
    const weights = new Map<string, number>();
    const count = this.#byName.size;
    for (const hit of top) {
      const entry = this.#tools[this.#byName.get(hit.name)!]!;
      for (const term of entry.terms) {
        if (terms.has(term)) continue;
        const idf = inverseFrequency(count, this.#postings.get(term)!.ids.length);
        weights.set(term, (weights.get(term) ?? 0) + idf);
      }
    }
    const best = [...weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, FEEDBACK_TERMS);
    const most = best[0]?.[1] ?? 1;
    return new Map(best.map(([term, weight]) => [term, weight / most]));
  }

  #rank(terms: WeightedTerms, k: number): RouteHit[] {
    const touched = this.#score(terms);
    const scores = this.#scores;
    if (this.#options.siblingWeight > 0) this.#liftSiblings(touched);
    // Keep the best k while reading the scores (and clear them for the next request), rather
    // than sorting every tool a word of the request touched.
    const best: RouteHit[] = [];
    for (const slot of touched) {
      const score = scores[slot]!;
      scores[slot] = 0;
      if (score <= 0 || k <= 0) continue;
      if (best.length === k && !before(score, this.#tools[slot]!.name, best[k - 1]!)) continue;
      const hit = { name: this.#tools[slot]!.name, score };
      let at = best.length === k ? k - 1 : best.length;
      while (at > 0 && before(hit.score, hit.name, best[at - 1]!)) {
        best[at] = best[at - 1]!;
        at--;
      }
      best[at] = hit;
    }
    return best;
  }

  /** Adds to each touched tool, and to the untouched ones of a touched namespace, its best sibling's share. */
  #liftSiblings(touched: number[]): void {
    const scores = this.#scores;
    const groups = this.#members.length;
    if (this.#groupFirst.length < groups) {
      this.#groupFirst = new Float64Array(groups * 2);
      this.#groupSecond = new Float64Array(groups * 2);
      this.#groupFirstSlot = new Int32Array(groups * 2);
    }
    const first = this.#groupFirst;
    const second = this.#groupSecond;
    const firstSlot = this.#groupFirstSlot;
    const seen: number[] = [];
    for (const slot of touched) {
      const group = this.#tools[slot]!.namespace;
      if (group < 0) continue;
      const score = scores[slot]!;
      if (first[group] === 0) seen.push(group);
      if (score > first[group]!) {
        second[group] = first[group]!;
        first[group] = score;
        firstSlot[group] = slot;
      } else if (score > second[group]!) second[group] = score;
    }
    const weight = this.#options.siblingWeight;
    for (const group of seen) {
      const best = first[group]!;
      const bestSlot = firstSlot[group]!;
      const next = second[group]!;
      for (const slot of this.#members[group]!) {
        const lift = weight * (slot === bestSlot ? next : best);
        if (lift <= 0) continue;
        if (scores[slot] === 0) touched.push(slot);
        scores[slot]! += lift;
      }
      first[group] = 0;
      second[group] = 0;
    }
  }

  /**
   * Adds the raw score of each field (no field weights) of the tools a request's terms touch into
   * `out[slot * stride + offset + field * fieldStride]`, marking them in `seen` and listing them in
   * `touched`: what the weights are learned from (bench/route-folds.ts).
   */
  addFieldScores(
    terms: WeightedTerms,
    out: Float64Array,
    layout: { stride: number; offset: number; fieldStride: number },
    seen: Uint8Array,
    touched: number[],
  ): void {
    this.#checkDrift();
    const count = this.#byName.size;
    const { stride, offset, fieldStride } = layout;
    for (const [term, queryWeight] of terms) {
      const posting = this.#postings.get(term);
      if (posting === undefined) continue;
      const saturated = this.#fieldWeights(posting);
      const idf = queryWeight * inverseFrequency(count, posting.ids.length);
      for (let index = 0; index < posting.ids.length; index++) {
        const slot = posting.ids[index]!;
        if (seen[slot] === 0) {
          seen[slot] = 1;
          touched.push(slot);
        }
        const base = slot * stride + offset;
        for (let field = 0; field < FIELDS; field++) {
          const value = saturated[index * FIELDS + field]!;
          if (value !== 0) out[base + field * fieldStride]! += idf * value;
        }
      }
    }
  }

  /** Each tool's best example's raw score (slot → score), as `addFieldScores` is for the fields. */
  bestExampleScores(terms: WeightedTerms): Map<number, number> {
    this.#checkDrift();
    return this.#bestExamples(terms);
  }

  #fieldWeights(posting: Posting): Float64Array {
    if (posting.fieldWeights !== undefined && posting.fieldGeneration === this.#generation) return posting.fieldWeights;
    const { b, k1 } = this.#options;
    const values = new Float64Array(posting.ids.length * FIELDS);
    for (let index = 0; index < posting.ids.length; index++) {
      const lengths = this.#tools[posting.ids[index]!]!.lengths;
      for (let field = 0; field < FIELDS; field++) {
        const count = posting.counts[index * FIELDS + field]!;
        if (count !== 0)
          values[index * FIELDS + field] = saturate(count, lengths[field]!, this.#averages[field]!, b[field]!, k1);
      }
    }
    posting.fieldGeneration = this.#generation;
    return (posting.fieldWeights = values);
  }

  /** The tool's name at a slot (for fieldScores' slots). */
  nameAt(slot: number): string | undefined {
    return this.#tools[slot]?.name;
  }

  /** The namespace number of the tool at a slot, -1 for none. */
  namespaceAt(slot: number): number {
    return this.#tools[slot]?.namespace ?? -1;
  }

  /** The slots of a namespace's tools. */
  membersOf(namespace: number): ReadonlySet<number> {
    return this.#members[namespace] ?? new Set();
  }

  /** Makes every term's weights now, so that the first requests do not pay for it. */
  prepare(): void {
    this.#checkDrift();
    for (const posting of this.#postings.values()) this.#toolWeights(posting);
    for (const posting of this.#examplePostings.values()) this.#exampleWeights(posting);
  }

  /** Adds each tool's score into #scores; returns the slots touched. */
  #score(query: WeightedTerms): number[] {
    const touched: number[] = [];
    const count = this.#byName.size;
    if (count === 0) return touched;
    this.#checkDrift();
    if (this.#scores.length < this.#tools.length) this.#scores = new Float64Array(this.#tools.length * 2);
    const scores = this.#scores;
    for (const [term, queryWeight] of query) {
      const posting = this.#postings.get(term);
      if (posting === undefined) continue;
      const weights = this.#toolWeights(posting);
      const idf = queryWeight * inverseFrequency(count, posting.ids.length);
      const ids = posting.ids;
      for (let index = 0; index < ids.length; index++) {
        const slot = ids[index]!;
        if (scores[slot] === 0) touched.push(slot);
        scores[slot]! += idf * weights[index]!;
      }
    }
    const { exampleWeight } = this.#options;
    if (exampleWeight <= 0) return touched;
    for (const [slot, score] of this.#bestExamples(query)) {
      if (scores[slot] === 0) touched.push(slot);
      scores[slot]! += exampleWeight * score;
    }
    return touched;
  }

  /** Each tool's best example's score: three examples that each match a little are not one that matches. */
  #bestExamples(query: WeightedTerms): Map<number, number> {
    const best = new Map<number, number>();
    if (this.#exampleCount === 0) return best;
    if (this.#exampleScores.length < this.#examples.length)
      this.#exampleScores = new Float64Array(this.#examples.length * 2);
    const byExample = this.#exampleScores;
    const examplesTouched: number[] = [];
    for (const [term, queryWeight] of query) {
      const posting = this.#examplePostings.get(term);
      if (posting === undefined) continue;
      const weights = this.#exampleWeights(posting);
      const idf = queryWeight * inverseFrequency(this.#exampleCount, posting.ids.length);
      const ids = posting.ids;
      for (let index = 0; index < ids.length; index++) {
        const id = ids[index]!;
        if (byExample[id] === 0) examplesTouched.push(id);
        byExample[id]! += idf * weights[index]!;
      }
    }
    for (const id of examplesTouched) {
      const score = byExample[id]!;
      byExample[id] = 0;
      const slot = this.#examples[id]!.slot;
      if (score > (best.get(slot) ?? 0)) best.set(slot, score);
    }
    return best;
  }

  #toolWeights(posting: Posting): Float64Array {
    if (posting.weights !== undefined && posting.generation === this.#generation) return posting.weights;
    const { weights: fieldWeights, b, k1 } = this.#options;
    const weights = new Float64Array(posting.ids.length);
    for (let index = 0; index < weights.length; index++) {
      const lengths = this.#tools[posting.ids[index]!]!.lengths;
      // Each field saturates on its own: a word in the name and the description is two pieces of evidence.
      let weight = 0;
      for (let field = 0; field < FIELDS; field++) {
        const count = posting.counts[index * FIELDS + field]!;
        if (count !== 0)
          weight += fieldWeights[field]! * saturate(count, lengths[field]!, this.#averages[field]!, b[field]!, k1);
      }
      weights[index] = weight;
    }
    posting.generation = this.#generation;
    return (posting.weights = weights);
  }

  #exampleWeights(posting: Posting): Float64Array {
    if (posting.weights !== undefined && posting.generation === this.#generation) return posting.weights;
    const { exampleB: b, k1 } = this.#options;
    const weights = new Float64Array(posting.ids.length);
    for (let index = 0; index < weights.length; index++) {
      const tf =
        posting.counts[index]! / (1 - b + (b * this.#examples[posting.ids[index]!]!.length) / this.#exampleAverage);
      weights[index] = (tf * (k1 + 1)) / (k1 + tf);
    }
    posting.generation = this.#generation;
    return (posting.weights = weights);
  }

  /**
   * The weights are made with the average field lengths of their time and kept until the catalog
   * has drifted 10% from them, so that one tool changing remakes only the postings of its terms.
   */
  #checkDrift(): void {
    const count = Math.max(this.#byName.size, 1);
    const averages = this.#lengthSums.map((sum) => Math.max(sum / count, 1e-9));
    const exampleAverage = Math.max(this.#exampleLengthSum / Math.max(this.#exampleCount, 1), 1e-9);
    const drifted = (now: number, then: number) => Math.abs(now - then) > 0.1 * then;
    if (
      !drifted(exampleAverage, this.#exampleAverage) &&
      !averages.some((average, field) => drifted(average, this.#averages[field]!))
    )
      return;
    this.#averages = averages;
    this.#exampleAverage = exampleAverage;
    this.#generation++;
  }
}

/** Higher score first; equal scores by name, so the order never depends on insertion. */
function before(score: number, name: string, other: RouteHit): boolean {
  return score > other.score || (score === other.score && name < other.name);
}

/** BM25's term frequency part: length-normalized, then saturating at k1 + 1. */
function saturate(count: number, length: number, average: number, b: number, k1: number): number {
  const tf = count / (1 - b + (b * length) / average);
  return (tf * (k1 + 1)) / (k1 + tf);
}

/** `Travel.HotelServices.bookHotel` → `Travel.HotelServices` and `bookHotel`; a name without a dot is all last part. */
export function nameParts(name: string): { namespace: string; last: string } {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? { namespace: '', last: name } : { namespace: name.slice(0, dot), last: name.slice(dot + 1) };
}

function inverseFrequency(count: number, frequency: number): number {
  return Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
}

function postingOf(postings: Map<string, Posting>, term: string): Posting {
  let posting = postings.get(term);
  if (posting === undefined) postings.set(term, (posting = { ids: [], counts: [], weights: undefined, generation: 0 }));
  return posting;
}

function removeFrom(postings: Map<string, Posting>, term: string, id: number, width = FIELDS): void {
  const posting = postings.get(term)!;
  const index = posting.ids.indexOf(id);
  if (posting.ids.length === 1) {
    postings.delete(term);
    return;
  }
  posting.ids.splice(index, 1);
  posting.counts.splice(index * width, width);
  posting.weights = undefined;
  posting.fieldWeights = undefined;
}
