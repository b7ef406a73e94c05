import { stemmer } from 'stemmer';
import { lexicon, longestEntryFrom } from './cjk-lexicon.ts';
import { ENGLISH_STOPWORDS, CJK_STOPWORDS } from './stopwords.ts';

/**
 * Terms of a text for the router, in English, Chinese and Japanese alike:
 * - NFKC first, so full-width letters and digits (ＡＢＣ１２) and half-width katakana (ｶﾀｶﾅ) meet
 *   their ordinary forms;
 * - identifiers split where their words join (`getWeatherForecast`, `send_email`, `Math.factorial`);
 * - Latin words lower-cased, stop words dropped, Porter-stemmed (`bookings` and `booking` meet);
 * - runs of Han characters cut into overlapping pairs (查询违章 → 查询 询违 违章), which find words
 *   however a query and a description happen to be cut; Japanese text also into words by
 *   `Intl.Segmenter`, so katakana words stay whole (they are mostly loanwords) and particles go.
 * - CJK words the lexicon knows also give their English (天気 → weather), into `translations`
 *   (the same list unless the caller wants to weigh them apart).
 */
export function tokenize(text: string, into: string[] = [], translations: string[] = into): string[] {
  const normalized = splitIdentifiers(text.normalize('NFKC')).toLowerCase();
  for (const run of normalized.matchAll(RUN)) {
    const value = run[0];
    if (isLatin(value.charCodeAt(0))) addLatin(value, into);
    else addCjk(value, into, translations);
  }
  return into;
}

// A Latin/digit word, or a run of CJK (Han, kana, the prolonged sound mark).
const RUN = /[a-z0-9\u00c0-\u024f]+|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆ー]+/g;

function isLatin(code: number): boolean {
  return code < 0x3040;
}

/** `getHTTPResponse2` → `get HTTP Response 2`; `a_b.c-d` → `a b c d`. */
export function splitIdentifiers(text: string): string {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])|([0-9])([A-Za-z])/g, '$1$3 $2$4')
    .replace(/[_.\-/:]+/g, ' ');
}

const stems = new Map<string, string>();

/** The stem of a lower-case English word, remembered: a catalog repeats its words many times. */
export function stem(word: string): string {
  let found = stems.get(word);
  if (found === undefined) {
    found = /^[0-9]+$/.test(word) ? word : stemmer(word);
    if (stems.size > 200_000) stems.clear();
    stems.set(word, found);
  }
  return found;
}

function addLatin(word: string, into: string[]): void {
  if (word.length < 2 && !/[0-9]/.test(word)) return;
  if (ENGLISH_STOPWORDS.has(word)) return;
  into.push(stem(word));
}

const japanese = new Intl.Segmenter('ja', { granularity: 'word' });

const KANA = /[\u3040-\u30ff]/;
const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々]+/g;

function addCjk(run: string, into: string[], translations: string[]): void {
  const words = new Set<string>();
  if (!KANA.test(run)) {
    // Chinese: the pairs alone find as much as the segmenter's words and pairs together (measured
    // on the benchmark's dev sets), at a third of the cost; a lone character is a word of its own.
    if (run.length === 1 && !CJK_STOPWORDS.has(run)) {
      words.add(run);
      into.push(run);
    }
  } else {
    for (const piece of japanese.segment(run)) {
      const word = piece.segment;
      if (word.length < 2 && !/[\u3400-\u9fff]/.test(word)) continue;
      if (CJK_STOPWORDS.has(word)) continue;
      words.add(word);
      into.push(word);
    }
  }
  for (const han of run.matchAll(HAN)) {
    const value = han[0];
    for (let index = 0; index + 2 <= value.length; index++) {
      const pair = value.slice(index, index + 2);
      // A two-character word the segmenter found is there already; a pair adds what it cut apart.
      if (!words.has(pair) && !CJK_STOPWORDS.has(pair)) into.push(pair);
    }
  }
  translate(run, words, translations);
}

/**
 * The English of the lexicon's words in a CJK run, longest match first. A one-character entry
 * (查, 車) counts only as a word of its own (the Japanese segmenter's, or a lone character): inside
 * longer words such characters mean too many things (measured: letting them count in Chinese runs
 * gains nothing on the dev sets).
 */
function translate(run: string, words: ReadonlySet<string>, into: string[]): void {
  const table = lexicon();
  for (let start = 0; start < run.length; ) {
    let length = Math.min(longestEntryFrom(run[start]!), run.length - start);
    for (; length >= 1; length--) {
      const candidate = run.slice(start, start + length);
      if (length === 1 && !words.has(candidate)) continue;
      const english = table.get(candidate);
      if (english === undefined) continue;
      for (const word of english) addLatin(word, into);
      break;
    }
    start += Math.max(length, 1);
  }
}
