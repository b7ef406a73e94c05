import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { textProtocolRepair } from './repair-message.ts';

describe('textProtocolRepair', () => {
  for (const language of ['en', 'zh', 'ja'] as const) {
    it(`contains the error and the expected format (${language})`, () => {
      const error = 'The ```json block is not valid JSON: Unexpected token.';
      const text = textProtocolRepair(error, language);
      assert.ok(text.includes(error));
      assert.ok(text.includes('{"tool": "<'));
      assert.ok(text.includes('```json'));
    });
  }
});
