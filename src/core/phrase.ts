import { LANGUAGES, type Language } from './language.ts';

// A phrase is a message kept as data — a stable id and its arguments — so that it can be shown in
// whichever language the reader speaks, long after it was made: diagnostics are found in loader
// processes, sent back as data, kept, and only then printed, in the language of the command.
// Each room defines its own texts (definePhrases); the core knows none of them.

/** A text of a catalog: its arguments in, the sentence out. */
type Text = (args: never) => string;
/** One language's texts, keyed by phrase id. */
export type PhraseTexts = Record<string, Text>;

/** Every phrase id defined so far, in each language (null-prototype: an id is never inherited). */
const CATALOG = Object.fromEntries(
  LANGUAGES.map((language) => [language, Object.create(null) as Record<string, Text>]),
) as Record<Language, Record<string, Text>>;

/**
 * A message as data: its id in the catalog and its arguments (text, numbers, or other phrases).
 * Made with `phrase()`, which checks both against the catalog; as data, any id may arrive.
 */
export interface Phrase {
  readonly id: string;
  readonly args?: Readonly<Record<string, PhraseArg>>;
}

export type PhraseArg = string | number | boolean | undefined | Phrase;

type ArgsOf<T extends PhraseTexts, K extends keyof T> = Parameters<T[K]>[0];
/** A text argument may be a phrase of its own, shown in the same language. */
type Nestable<A> = { [P in keyof A]: A[P] extends string ? A[P] | Phrase : A[P] };

/** Makes the phrases of one catalog, each id's arguments checked against what its text needs. */
export type PhraseMaker<T extends PhraseTexts> = <K extends keyof T & string>(
  id: K,
  ...args: undefined extends ArgsOf<T, K> ? [] : [Nestable<ArgsOf<T, K>>]
) => Phrase;

/**
 * Adds a room's texts to the catalog and returns its phrase maker. An id belongs to one catalog:
 * defining it again with other words throws, at start-up, rather than showing one of the two.
 */
export function definePhrases<T extends PhraseTexts>(texts: { readonly [L in Language]: T }): PhraseMaker<T> {
  for (const language of LANGUAGES) {
    for (const [id, text] of Object.entries(texts[language])) {
      const known = CATALOG[language][id];
      if (known !== undefined && known !== text) throw new Error(`The phrase "${id}" is defined twice (${language}).`);
      CATALOG[language][id] = text;
    }
  }
  return (id, ...args) => (args[0] === undefined ? { id } : { id, args: args[0] as Record<string, PhraseArg> });
}

/** Deeper than any phrase Riverse makes (a manifest problem at a path is two). */
const MAX_NESTING = 4;

/**
 * The phrase's text in `language`; undefined for what is not a phrase this copy of Riverse knows.
 * Phrases arrive as data from loader processes, which tool code can reach: a forged one (a cycle,
 * a getter, an unknown id) is not shown, and the diagnostic's own text is shown instead.
 */
export function renderPhrase(said: Phrase, language: Language, depth = 0): string | undefined {
  try {
    if (depth > MAX_NESTING || typeof said !== 'object' || said === null || typeof said.id !== 'string')
      return undefined;
    const text = CATALOG[language][said.id];
    if (text === undefined) return undefined;
    const args: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(said.args ?? {})) {
      if (typeof value !== 'object' || value === null) args[name] = value;
      else {
        const nested = renderPhrase(value, language, depth + 1);
        if (nested === undefined) return undefined;
        args[name] = nested;
      }
    }
    return (text as (args: Record<string, unknown>) => string)(args);
  } catch {
    return undefined;
  }
}

/** Why a tool is unavailable, in `language`: Riverse's own reason (a phrase), or the tool's in the languages it gave. */
export function localizeReason(
  tool: {
    reason?: string | undefined;
    reasonText?: Phrase | undefined;
    reasonTexts?: Partial<Record<Language, string>> | undefined;
  },
  language: Language,
): string | undefined {
  const own = tool.reasonTexts?.[language];
  return (
    (tool.reasonText === undefined ? undefined : renderPhrase(tool.reasonText, language)) ??
    (typeof own === 'string' ? own : undefined) ??
    tool.reason
  );
}

/** The English text of a phrase made here (whose id is known). */
export function english(said: Phrase): string {
  return renderPhrase(said, 'en')!;
}
