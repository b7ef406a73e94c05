/** Languages the assistant speaks; manifests, phrases and the dashboard carry text for each. */
export const LANGUAGES = ['en', 'zh', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Whether `value` names one of the languages Riverse speaks. */
export function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

/** A string, or one string per language (`{ en, zh, ja }`). */
export type LocalizedText = string | Partial<Record<Language, string>>;
/** A list, or one list per language. */
export type LocalizedList = string[] | Partial<Record<Language, string[]>>;

/** Picks the text for `language`, falling back to English, then to any language given. */
export function localize(text: LocalizedText | undefined, language: Language = 'en'): string {
  if (text === undefined) return '';
  if (typeof text === 'string') return text;
  return text[language] ?? text.en ?? Object.values(text).find((value) => typeof value === 'string') ?? '';
}

/** Picks the examples for `language`, falling back to English, then to every language's together. */
export function localizeList(list: LocalizedList | undefined, language: Language = 'en'): string[] {
  if (list === undefined) return [];
  if (Array.isArray(list)) return list;
  return list[language] ?? list.en ?? Object.values(list).flat();
}
