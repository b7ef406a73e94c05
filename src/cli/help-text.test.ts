import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LANGUAGES } from '../core/language.ts';
import { PROVIDERS } from '../models/providers/providers.ts';
import { HELP_TEXT } from './help-text.ts';

test("the help lists every provider that resolves, in the list's order, in every language", () => {
  const names = PROVIDERS.map((provider) => provider.name).join(', ');
  for (const language of LANGUAGES) {
    assert.ok(HELP_TEXT[language].programAfter.includes(names), `${language}: ${HELP_TEXT[language].programAfter}`);
  }
});

test('the help says what is used when nothing names a model, the embedded default last, in every language', () => {
  const last = { en: 'the embedded default model', zh: '内置的默认模型', ja: '内蔵の既定のモデル' };
  for (const language of LANGUAGES) {
    assert.ok(
      HELP_TEXT[language].programAfter.includes(last[language]),
      `${language}: ${HELP_TEXT[language].programAfter}`,
    );
  }
});
