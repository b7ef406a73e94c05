// The API's error codes as the code knows them (API_ERROR_CODES, which ApiError's type is made of)
// and as docs/server-api.md lists them for clients: one list, so neither can gain a code alone.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { API_ERROR_CODES } from './api-error-codes.ts';

const HEADING = "### The API's error codes";

/** The first cell (a `code`) of each row of the first table under `heading`. */
function tableCodes(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  assert.notEqual(start, -1, `docs/server-api.md has no "${heading}" section`);
  const table: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (line.startsWith('|')) table.push(line);
    else if (table.length > 0) break;
  }
  // The header row and the |---| row, then one row per code.
  return table.slice(2).map((row) => {
    const cell = row.split('|')[1]!.trim();
    const code = /^`([^`]+)`$/.exec(cell);
    assert.ok(code !== null, `the first cell of "${row}" is not one \`code\``);
    return code[1]!;
  });
}

describe("the API's error codes", () => {
  it('are each listed once', () => {
    assert.equal(new Set(API_ERROR_CODES).size, API_ERROR_CODES.length);
  });

  it('are the ones docs/server-api.md documents', async () => {
    const docs = await readFile(join(import.meta.dirname, '..', '..', 'docs', 'server-api.md'), 'utf8');
    const documented = tableCodes(docs, HEADING);
    assert.equal(new Set(documented).size, documented.length, `a code is in the table twice: ${documented.join(', ')}`);
    assert.deepEqual([...documented].sort(), [...API_ERROR_CODES].sort());
  });
});
