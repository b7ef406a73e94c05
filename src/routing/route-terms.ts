import { synonyms } from './english-synonyms.ts';
import { tokenize } from './tokenize.ts';

/** Term → weight in a request. */
export type WeightedTerms = Map<string, number>;

/**
 * The terms of a request, each weighted by how often it is said (saturating: a word said five
 * times is not five times the request), with the English of its CJK words and the synonyms of its
 * English ones at lower weights.
 */
export function queryTerms(query: string, translationWeight = TRANSLATION_WEIGHT): WeightedTerms {
  const tokens: string[] = [];
  const translations: string[] = [];
  tokenize(query, tokens, translations);
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  for (const token of translations) counts.set(token, (counts.get(token) ?? 0) + translationWeight);
  const terms: WeightedTerms = new Map();
  for (const [term, count] of counts) terms.set(term, (count * 2.2) / (count + 1.2));
  // A long request says enough in its own words: there the synonyms would mostly add noise (measured).
  const weight = SYNONYM_WEIGHT * Math.min(1, SYNONYMS_IN_FULL / Math.max(counts.size, 1));
  const table = synonyms();
  for (const term of counts.keys())
    for (const other of table.get(term) ?? []) if (!terms.has(other)) terms.set(other, weight);
  return terms;
}

/** A synonym's weight against a word said (english-synonyms.ts). */
export const SYNONYM_WEIGHT = 0.4;
/** Up to this many terms a request gets its synonyms at full weight; beyond, less and less. */
const SYNONYMS_IN_FULL = 15;

/** A word's English from the lexicon counts less than a word said: it may be the wrong sense. */
export const TRANSLATION_WEIGHT = 0.7;
