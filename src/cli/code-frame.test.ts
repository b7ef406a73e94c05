import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { codeFrame } from './code-frame.ts';

function frameOf(source: string, line: number, column: number): string | undefined {
  const folder = mkdtempSync(join(tmpdir(), 'riverse-frame-'));
  try {
    const file = join(folder, 'tool.ts');
    writeFileSync(file, source);
    return codeFrame(file, line, column, '');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

test('a caret under the column a diagnostic gives', () => {
  assert.equal(frameOf("const a = 1;\nconst b = 'x;\n", 2, 11), "2 | const b = 'x;\n  |           ^");
});

test('past the end of the last line (the parser ran out of file): the caret at its end', () => {
  assert.equal(frameOf('export class Broken {\n', 1, 23), '1 | export class Broken {\n  |                      ^');
});

test('past the end of a line with more code after it: no caret, since it would point at nothing', () => {
  assert.equal(frameOf('export class Broken {\n  x = 1;\n', 1, 23), '1 | export class Broken {');
});
