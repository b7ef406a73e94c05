import type { Language } from '../core/language.ts';

const KANA = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/;
const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;

/**
 * The language of a user's message, among those the assistant speaks: any kana means Japanese,
 * Han characters without kana mean Chinese, anything else English.
 */
export function detectLanguage(text: string): Language {
  if (KANA.test(text)) return 'ja';
  if (HAN.test(text)) return 'zh';
  return 'en';
}
