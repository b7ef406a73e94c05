/** The known word one or two edits away from `word` (a typo of it), if there is one. */
export function closestWord(word: string, known: readonly string[]): string | undefined {
  return known.find(
    (candidate) =>
      editDistance(word.toLowerCase(), candidate.toLowerCase()) <= Math.min(2, Math.floor(candidate.length / 3)),
  );
}

/** Edits between two words; two letters swapped count as one edit (`lsit` is one from `list`). */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        current[j] = Math.min(current[j]!, before[j - 2]! + 1);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}
