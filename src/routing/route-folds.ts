import { nameParts } from './tool-index.ts';

/**
 * Folds for k-fold figures of the router: every item in exactly one of `k` folds. Items of one
 * group stay together (a group's requests are all seen or all unseen), groups dealt out largest
 * first to the fold with fewest items so far, in an order shuffled by `seed`.
 */
export function foldsOf(groups: readonly string[], k: number, seed = 1): number[] {
  if (!Number.isInteger(k) || k < 2) throw new RangeError(`folds: k must be an integer of at least 2, not ${k}`);
  const sizes = new Map<string, number>();
  for (const group of groups) sizes.set(group, (sizes.get(group) ?? 0) + 1);
  const random = mulberry32(seed);
  const order = [...sizes.keys()].map((group) => ({ group, size: sizes.get(group)!, draw: random() }));
  order.sort((a, b) => b.size - a.size || a.draw - b.draw);
  const filled: number[] = new Array(k).fill(0);
  const foldOf = new Map<string, number>();
  for (const { group, size } of order) {
    let fold = 0;
    for (let other = 1; other < k; other++) if (filled[other]! < filled[fold]!) fold = other;
    foldOf.set(group, fold);
    filled[fold]! += size;
  }
  return groups.map((group) => foldOf.get(group)!);
}

/** Folds over requests: each request a group of its own. */
export function requestFolds(count: number, k: number, seed = 1): number[] {
  return foldsOf(
    Array.from({ length: count }, (_, index) => String(index)),
    k,
    seed,
  );
}

/**
 * The group a request's tool belongs to for folds over tools: its namespace where the name has
 * one (`Travel.HotelServices` of `Travel.HotelServices.bookHotel`: an app's tools together), else
 * the tool itself.
 */
export function toolGroup(name: string): string {
  const { namespace } = nameParts(name);
  return namespace === '' ? name : namespace;
}

/** A small seeded generator, so that the folds are the same in every run. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
