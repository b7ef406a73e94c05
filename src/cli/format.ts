import { jsonText } from '../models/json-text.ts';
import { relative } from 'node:path';
import { localizeReason } from '../core/phrase.ts';
import { formatDiagnostic, type Diagnostic } from '../core/diagnostic.ts';
import { codeFrame } from './code-frame.ts';
import { displayWidth, padToWidth } from './display-width.ts';
import type { Language } from '../core/language.ts';
import type { ToolListing, ToolRegistry } from '../tool-runtime/tool-registry.ts';

/** A path as the user would type it from here. */
export function shortPath(path: string): string {
  return relative(process.cwd(), path) || path;
}

/** Left-aligned columns, measured in terminal columns (a CJK header is twice as wide); the last is not padded. */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => displayWidth(row[column] ?? '')))) ?? [];
  return rows
    .map((row) =>
      row.map((cell, column) => (column === row.length - 1 ? cell : padToWidth(cell, widths[column]!))).join('  '),
    )
    .join('\n');
}

export function printJson(value: unknown): void {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2);
  } catch (error) {
    // Arguments a model nested too deep for JSON.stringify: written on one line instead.
    if (!(error instanceof RangeError)) throw error;
    text = jsonText(value);
  }
  process.stdout.write(`${text}\n`);
}

/** Every tool found, as printed or sent as JSON: why one is off, in `language` where the reason is Riverse's. */
export function shownListing(registry: ToolRegistry, language: Language): ToolListing[] {
  return registry.list().map((row) =>
    row.reason === undefined
      ? row
      : {
          ...row,
          reason: localizeReason(
            {
              reason: row.reason,
              reasonText: registry.find(row.name)?.reasonText,
              reasonTexts: registry.find(row.name)?.reasonTexts,
            },
            language,
          )!,
        },
  );
}

/** A diagnostic as `tools check` and `tools list` print it: with the line it points at and a caret, where it has one. */
export function formatDiagnosticWithFrame(diagnostic: Diagnostic, language: Language): string {
  const text = formatDiagnostic(diagnostic, process.cwd(), language);
  const frame =
    diagnostic.line === undefined ? undefined : codeFrame(diagnostic.file, diagnostic.line, diagnostic.column);
  return frame === undefined ? text : `${text}\n${frame}`;
}
