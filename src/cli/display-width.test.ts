import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { codeFrame } from './code-frame.ts';
import { displayWidth, padToWidth } from './display-width.ts';
import { table } from './format.ts';

test('CJK characters and full-width forms take two columns; Latin, tabs and emoji-free text one', () => {
  assert.equal(displayWidth('weather'), 7);
  assert.equal(displayWidth('名前'), 4);
  assert.equal(displayWidth('状态：可用'), 10);
  assert.equal(displayWidth('ソース'), 6);
  assert.equal(displayWidth('한국'), 4);
  assert.equal(displayWidth('𠀋'), 2);
  assert.equal(padToWidth('名前', 6), '名前  ');
  assert.equal(padToWidth('toolong', 3), 'toolong');
});

test('a table with a Japanese header lines its columns up as a terminal shows them', () => {
  const shown = table([
    ['名前', 'ソース', '状態'],
    ['weather', 'agent/tools/weather.ts', '使用可能'],
  ]).split('\n');
  // The second column starts at the same terminal column on every line.
  const start = (line: string, cell: string) => displayWidth(line.slice(0, line.indexOf(cell)));
  assert.equal(start(shown[0]!, 'ソース'), start(shown[1]!, 'agent/'));
  assert.equal(start(shown[0]!, '状態'), start(shown[1]!, '使用可能'));
  assert.equal(shown[0], '名前     ソース                  状態');
});

test('the caret of a code frame sits under its column after CJK text on the line', () => {
  const folder = mkdtempSync(join(tmpdir(), 'riverse-frame-'));
  try {
    const file = join(folder, 'tool.ts');
    writeFileSync(file, "  description: { ja: '天気', en: 1 },\n");
    const column = "  description: { ja: '天気', ".length + 1;
    const [line, caret] = codeFrame(file, 1, column)!.split('\n');
    assert.equal(
      displayWidth(caret!.indexOf('^') === -1 ? '' : caret!.slice(0, caret!.indexOf('^'))),
      displayWidth(line!.slice(0, line!.indexOf('en: 1'))),
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
