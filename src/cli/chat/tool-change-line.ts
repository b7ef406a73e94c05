import { localizeDiagnostic } from '../../core/diagnostic.ts';
import type { Language } from '../../core/language.ts';
import type { ToolChange } from '../../tool-runtime/live-registry.ts';
import { CLI_TEXT } from '../cli-text.ts';
import { shortPath } from '../format.ts';

/**
 * A tool change as told in the chat, one line: a broken file with its first error (where and what,
 * in the reader's language), since whoever just saved it wants to know what broke, not another
 * command to run.
 */
export function toolChangeLine(change: ToolChange, language: Language): string {
  const first = change.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
  const text = CLI_TEXT[language];
  if (change.event !== 'broken' || first === undefined)
    return text.toolsChanged(change.event, shortPath(change.file), change.tools);
  const shown = localizeDiagnostic(first, language);
  const place = shown.line === undefined ? '' : `:${shown.line}${shown.column === undefined ? '' : `:${shown.column}`}`;
  const message = shown.message.split('\n')[0]!.trim();
  return text.toolsChanged(
    change.event,
    `${shortPath(shown.file)}${place}`,
    change.tools,
    `[${shown.code}] ${message}`,
  );
}
