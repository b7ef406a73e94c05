import { readFileSync } from 'node:fs';
import { displayWidth } from './display-width.ts';

/**
 * The line a diagnostic points at, and a caret under its column, as compilers show them:
 *
 *     12 |       type: 'strin',
 *        |       ^
 *
 * Undefined when the file cannot be read or has no such line; no caret when the column is not on
 * the line (a wrong caret misleads more than none).
 */
export function codeFrame(file: string, line: number, column?: number, indent = '  '): string | undefined {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const lines = source.split(/\r?\n/);
  if (!Number.isInteger(line) || line < 1 || line > lines.length) return undefined;
  const text = lines[line - 1]!;
  const gutter = String(line);
  const head = `${indent}${gutter} | ${text.trimEnd()}`;
  // A parser that ran out of file (`export class Broken {`) points past the last line's end: that
  // is the end of the file, so the caret goes there.
  if (column !== undefined && column > text.length + 1 && lines.slice(line).every((rest) => rest.trim() === ''))
    column = text.length + 1;
  if (column === undefined || !Number.isInteger(column) || column < 1 || column > text.length + 1) return head;
  // Tabs stay tabs, so that the caret sits under the same character however wide a tab is shown;
  // a CJK character takes two columns, so two spaces.
  const before = text.slice(0, column - 1).replace(/[^\t]/gu, (character) => ' '.repeat(displayWidth(character)));
  return `${head}\n${indent}${' '.repeat(gutter.length)} | ${before}^`;
}
