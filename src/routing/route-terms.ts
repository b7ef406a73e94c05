import { tokenize } from './tokenize.ts';

/** Term → weight in a request. */
export type WeightedTerms = Map<string, number>;

/**
 * The terms of a request, each weighted by how often it is said (saturating: a word said five
 * times is not five times the request).
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
  return terms;
}

/** A word's English from the lexicon counts less than a word said: it may be the wrong sense. */
export const TRANSLATION_WEIGHT = 0.7;
