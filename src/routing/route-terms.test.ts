import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { queryTerms, SYNONYM_WEIGHT, TRANSLATION_WEIGHT } from './route-terms.ts';
import { stem } from './tokenize.ts';

describe('queryTerms', () => {
  test('a word said counts most, its English (from CJK) less, its synonyms least', () => {
    const english = queryTerms('rent an apartment');
    assert.equal(english.get(stem('apartment')), 1);
    assert.equal(english.get(stem('house')), SYNONYM_WEIGHT);
    const japanese = queryTerms('天気');
    const said = japanese.get('天気')!;
    const translated = japanese.get('weather')!;
    assert.ok(
      translated < said && translated === (TRANSLATION_WEIGHT * 2.2) / (TRANSLATION_WEIGHT + 1.2),
      `${translated} < ${said}`,
    );
    assert.ok(japanese.get('forecast')! < translated, 'the synonym of a translation is weaker still');
  });

  test('a word said again weighs more, but not twice as much', () => {
    const once = queryTerms('weather')!.get('weather')!;
    const twice = queryTerms('weather weather')!.get('weather')!;
    assert.ok(twice > once && twice < 2 * once);
  });

  test('a long request gets its synonyms at less weight: it says enough in its own words', () => {
    const long = queryTerms(`apartment ${Array.from({ length: 40 }, (_, index) => `word${index}x`).join(' ')}`);
    assert.ok(long.get(stem('house'))! < SYNONYM_WEIGHT / 2);
  });
});
