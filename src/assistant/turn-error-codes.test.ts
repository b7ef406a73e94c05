// The turn's error codes: the list in the code and the table users read (docs/server-api.md) are the same.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { TURN_ERROR_CODES } from './turn-error-codes.ts';

const DOC = new URL('../../docs/server-api.md', import.meta.url);

/** The first column of the first table under `heading`, its backticks taken off. */
function tableCodes(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  assert.ok(start >= 0, `${heading} is in the document`);
  const codes: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (!line.startsWith('|')) {
      if (codes.length > 0) break;
      continue;
    }
    const first = line.split('|')[1]!.trim();
    if (/^-+$/.test(first) || first === '`error.code`') continue;
    codes.push(first.replace(/^`(.*)`$/, '$1'));
  }
  return codes;
}

describe('TURN_ERROR_CODES', () => {
  it('are the codes of the "Turn errors" table in docs/server-api.md, each once', () => {
    const documented = tableCodes(readFileSync(DOC, 'utf8'), '### Turn errors');
    assert.equal(new Set(documented).size, documented.length, 'no code is in the table twice');
    assert.deepEqual([...documented].sort(), [...TURN_ERROR_CODES].sort());
  });

  it('hold no code twice', () => {
    assert.equal(new Set(TURN_ERROR_CODES).size, TURN_ERROR_CODES.length);
  });
});
