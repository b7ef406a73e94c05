import type { TurnResult } from '../../assistant/turn-events.ts';
import type { Language } from '../../core/language.ts';
import { HELP_TEXT } from '../help-text.ts';

/** A failed turn as printed on stderr: an error starts as every error of the command does; a cancel is no error. */
export function turnFailureLine(result: Pick<TurnResult, 'stopReason' | 'text'>, language: Language): string {
  return `${result.stopReason === 'aborted' ? '' : HELP_TEXT[language].error}${result.text}\n`;
}
