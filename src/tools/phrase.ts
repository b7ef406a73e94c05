import { CONFIG_TEXT } from '../config/config-text.ts';
import { LOAD_TEXT } from './load-text.ts';
import { MANIFEST_TEXT } from './manifest-text.ts';
import { PARAMS_TEXT } from './params-text.ts';
import type { Language } from './tool-manifest.ts';

// A phrase is a message kept as data — a stable id and its arguments — so that it can be shown in
// whichever language the reader speaks, long after it was made: diagnostics are found in loader
// processes, sent back as data, kept, and only then printed, in the language of the command.

const CATALOG = {
  en: { ...MANIFEST_TEXT.en, ...LOAD_TEXT.en, ...PARAMS_TEXT.en, ...CONFIG_TEXT.en },
  zh: { ...MANIFEST_TEXT.zh, ...LOAD_TEXT.zh, ...PARAMS_TEXT.zh, ...CONFIG_TEXT.zh },
  ja: { ...MANIFEST_TEXT.ja, ...LOAD_TEXT.ja, ...PARAMS_TEXT.ja, ...CONFIG_TEXT.ja },
} satisfies Record<Language, object>;

type Catalog = typeof CATALOG.en;
type PhraseId = keyof Catalog;

/**
 * A message as data: its id in the catalog and its arguments (text, numbers, or other phrases).
 * Made with `phrase()`, which checks both against the catalog; as data, any id may arrive.
 */
export interface Phrase {
  readonly id: string;
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

/** Deeper than any phrase Riverse makes (a manifest problem at a path is two). */
const MAX_NESTING = 4;

/**
 * The phrase's text in `language`; undefined for what is not a phrase this copy of Riverse knows.
 * Phrases arrive as data from loader processes, which tool code can reach: a forged one (a cycle,
 * a getter, an unknown id) is not shown, and the diagnostic's own text is shown instead.
 */
export function renderPhrase(said: Phrase, language: Language, depth = 0): string | undefined {
  try {
    if (depth > MAX_NESTING || typeof said !== 'object' || said === null || !Object.hasOwn(CATALOG.en, said.id)) return undefined;
    const text = (CATALOG[language] as unknown as Record<string, (args: Record<string, unknown>) => string>)[said.id]!;
    const args: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(said.args ?? {})) {
      if (typeof value !== 'object' || value === null) args[name] = value;
      else {
        const nested = renderPhrase(value, language, depth + 1);
        if (nested === undefined) return undefined;
        args[name] = nested;
      }
    }
    return text(args);
  } catch {
    return undefined;
  }
}

/** Why a tool is unavailable, in `language` where the reason is Riverse's own. */
export function localizeReason(tool: { reason?: string | undefined; reasonText?: Phrase | undefined }, language: Language): string | undefined {
  return (tool.reasonText === undefined ? undefined : renderPhrase(tool.reasonText, language)) ?? tool.reason;
}

/** The English text of a phrase made here (whose id is known). */
export function english(said: Phrase): string {
  return renderPhrase(said, 'en')!;
}
