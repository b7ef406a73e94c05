import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { strayToolSections } from './stray-tool-sections.ts';

test('tools.files is read by the file tools: stray only when none of them is found', () => {
  const folder = mkdtempSync(join(tmpdir(), 'riverse-stray-'));
  try {
    const path = join(folder, 'riverse.yaml');
    writeFileSync(path, 'tools:\n  files:\n    roots: [notes]\n  wether: {}\n');
    const config = { tools: { files: { roots: ['notes'] }, wether: {} } };
    assert.deepEqual(
      strayToolSections(config, path, ['grep', 'weather']).map((diagnostic) => diagnostic.line),
      [4],
    );
    assert.deepEqual(
      strayToolSections(config, path, ['weather']).map((diagnostic) => diagnostic.line),
      [2, 4],
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
