import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLI_TEXT } from './cli-text.ts';
import { RIVERSE_COMMAND } from './command-hints.ts';

test('a broken file with no tool in use (a new file, a name taken) is not said to keep a last good version', () => {
  assert.equal(
    CLI_TEXT.en.toolsChanged('broken', 'agent/tools/copy.ts', []),
    `↻ agent/tools/copy.ts is broken — run \`${RIVERSE_COMMAND} tools check\` for details`,
  );
  assert.equal(
    CLI_TEXT.en.toolsChanged('broken', 'agent/tools/w.ts', ['weather']),
    `↻ agent/tools/w.ts is broken; its last good version stays in use (weather) — run \`${RIVERSE_COMMAND} tools check\` for details`,
  );
  for (const language of ['zh', 'ja'] as const) {
    assert.notEqual(
      CLI_TEXT[language].toolsChanged('broken', 'a.ts', []),
      CLI_TEXT[language].toolsChanged('broken', 'a.ts', ['x']).replace(/（x）/, ''),
    );
  }
});
