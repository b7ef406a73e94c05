import { LOAD_TEXT } from './load-text.ts';
import { MANIFEST_TEXT } from './manifest-text.ts';
import type { Language } from './tool-manifest.ts';

// A phrase is a message kept as data — a stable id and its arguments — so that it can be shown in
// whichever language the reader speaks, long after it was made: diagnostics are found in loader
// processes, sent back as data, kept, and only then printed, in the language of the command.

const CATALOG = {
  en: { ...MANIFEST_TEXT.en, ...LOAD_TEXT.en },
  zh: { ...MANIFEST_TEXT.zh, ...LOAD_TEXT.zh },
  ja: { ...MANIFEST_TEXT.ja, ...LOAD_TEXT.ja },
} satisfies Record<Language, object>;

type Catalog = typeof CATALOG.en;
export type PhraseId = keyof Catalog;

/** A message as data: its id in the catalog and its arguments (text, numbers, or other phrases). */
export interface Phrase {
  readonly id: PhraseId;
  readonly args?: Readonly<Record<string, PhraseArg>>;
}

export type PhraseArg = string | number | boolean | undefined | Phrase;

type ArgsOf<K extends PhraseId> = Parameters<Catalog[K]>[0];
/** A text argument may be a phrase of its own, shown in the same language. */
type Nestable<A> = { [P in keyof A]: A[P] extends string ? A[P] | Phrase : A[P] };

/** The phrase `id` with its arguments, checked against what the catalog's text needs. */
export function phrase<K extends PhraseId>(id: K, ...args: undefined extends ArgsOf<K> ? [] : [Nestable<ArgsOf<K>>]): Phrase {
  return args[0] === undefined ? { id } : { id, args: args[0] as Record<string, PhraseArg> };
}

/** The phrase's text in `language`; undefined for an id this copy of Riverse does not know. */
export function renderPhrase(said: Phrase, language: Language): string | undefined {
  const text = (CATALOG[language] as unknown as Record<string, ((args: Record<string, unknown>) => string) | undefined>)[said.id];
  if (text === undefined) return undefined;
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(said.args ?? {})) {
    args[name] = typeof value === 'object' && value !== null ? (renderPhrase(value, language) ?? '') : value;
  }
  return text(args);
}

/** The English text of a phrase made here (whose id is known). */
export function english(said: Phrase): string {
  return renderPhrase(said, 'en')!;
}
