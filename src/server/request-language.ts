import type { Context } from 'hono';
import { isLanguage, type Language } from '../core/language.ts';

/**
 * The language to answer a request in: `?lang=` (en, zh, ja), else the first of ours that
 * `Accept-Language` asks for (by its q weights, `zh-CN` counting as `zh`), else English.
 */
export function requestLanguage(c: Context): Language {
  const asked = c.req.query('lang');
  if (isLanguage(asked)) return asked;
  return acceptedLanguage(c.req.header('accept-language'));
}

function acceptedLanguage(header: string | undefined): Language {
  const ranges = (header ?? '')
    .slice(0, 1_000)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...options] = part.trim().split(';');
      const q = Number(/^\s*q=([\d.]+)\s*$/.exec(options.find((option) => /^\s*q=/.test(option)) ?? '')?.[1] ?? 1);
      return { language: tag.trim().toLowerCase().split('-')[0], q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((range) => range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranges.find((range) => isLanguage(range.language))?.language as Language | undefined) ?? 'en';
}
