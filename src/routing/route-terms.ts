import { synonyms } from './english-synonyms.ts';
import { tokenize } from './tokenize.ts';

/** Term → weight in a request. */
export type WeightedTerms = Map<string, number>;

/** How much each kind of term of a request counts against a word said in its last line (learned on folds; 014). */
export interface QueryWeights {
  /** Words of the lines before the last (a pasted text, the earlier turns of a transcript). */
  context: number;
  /** The English the lexicon gives a CJK word: it may be the wrong sense. */
  translation: number;
  /** The other words of an English synonym group. */
  synonym: number;
}

export const QUERY_WEIGHTS: QueryWeights = { context: 0.4, translation: 0.7, synonym: 0.32 };

/**
 * The terms of a request by kind, each weighted by how often it is said (saturating: a word said
 * five times is not five times the request), before the kinds' weights: the last line's words,
 * their English, their synonyms, then the same three of the lines before it. A request that pastes
 * a text and then asks ("EK: … \n query: …", a transcript's turns) says what it wants last.
 */
export function termKinds(query: string): WeightedTerms[] {
  const lines = query
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const last = lines.pop() ?? '';
  return [...kindsOf(last), ...kindsOf(lines.join('\n'))];
}

/** Each kind's weight in `termKinds` order. */
export function kindWeights(weights: QueryWeights = QUERY_WEIGHTS): number[] {
  const { context, translation, synonym } = weights;
  return [1, translation, synonym, context, context * translation, context * synonym];
}

/** The terms of a request, every kind at its weight. */
export function queryTerms(query: string, weights: QueryWeights = QUERY_WEIGHTS): WeightedTerms {
  const kinds = termKinds(query);
  const factors = kindWeights(weights);
  const terms: WeightedTerms = new Map();
  for (const [at, kind] of kinds.entries()) {
    const factor = factors[at]!;
    if (factor === 0) continue;
    for (const [term, weight] of kind) terms.set(term, (terms.get(term) ?? 0) + factor * weight);
  }
  return terms;
}

function kindsOf(text: string): [WeightedTerms, WeightedTerms, WeightedTerms] {
  const tokens: string[] = [];
  const translations: string[] = [];
  if (text !== '') tokenize(text, tokens, translations);
  const words = saturated(tokens);
  const english = saturated(translations);
  // A long request says enough in its own words: there the synonyms would mostly add noise (measured).
  const fade = Math.min(1, SYNONYMS_IN_FULL / Math.max(words.size + english.size, 1));
  const table = synonyms();
  const related: WeightedTerms = new Map();
  for (const term of [...words.keys(), ...english.keys()])
    for (const other of table.get(term) ?? []) if (!words.has(other) && !english.has(other)) related.set(other, fade);
  return [words, english, related];
}

function saturated(tokens: readonly string[]): WeightedTerms {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  for (const [term, count] of counts) counts.set(term, (count * 2.2) / (count + 1.2));
  return counts;
}

/** Up to this many terms a request gets its synonyms at full weight; beyond, less and less. */
const SYNONYMS_IN_FULL = 15;
