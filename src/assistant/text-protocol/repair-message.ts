import type { Language } from '../../core/language.ts';
import { WORDING } from './wording.ts';

/** The user message for the one repair round after an `invalid` parse. */
export function textProtocolRepair(error: string, language: Language): string {
  const words = WORDING[language];
  return `${words.repairLead}\n${error}\n\n${words.repairFormat}`;
}
