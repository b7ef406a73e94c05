import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { kindWeights, queryTerms, QUERY_WEIGHTS, termKinds } from './route-terms.ts';
import { stem } from './tokenize.ts';

describe('queryTerms', () => {
  test('a word said counts most, its English (from CJK) less, its synonyms less still', () => {
    const english = queryTerms('rent an apartment');
    assert.equal(english.get(stem('apartment')), 1);
    assert.equal(english.get(stem('house')), QUERY_WEIGHTS.synonym);
    const japanese = queryTerms('天気');
    const said = japanese.get('天気')!;
    const translated = japanese.get('weather')!;
    assert.equal(translated, QUERY_WEIGHTS.translation * said);
    assert.ok(japanese.get('forecast')! < translated, 'the synonym of a translation is weaker still');
  });

  test('a word said again weighs more, but not twice as much', () => {
    const once = queryTerms('weather')!.get('weather')!;
    const twice = queryTerms('weather weather')!.get('weather')!;
    assert.ok(twice > once && twice < 2 * once);
  });

  test('a long request gets its synonyms at less weight: it says enough in its own words', () => {
    const long = queryTerms(`apartment ${Array.from({ length: 40 }, (_, index) => `word${index}x`).join(' ')}`);
    assert.ok(long.get(stem('house'))! < QUERY_WEIGHTS.synonym / 2);
  });

  test('the last line is what is asked; the lines before it count as context, at the context weight', () => {
    const kinds = termKinds('Dear customer, your parcel left the depot.\n\nquery: book a hotel');
    assert.ok(kinds[0]!.has(stem('hotel')) && !kinds[0]!.has(stem('parcel')));
    assert.ok(kinds[3]!.has(stem('parcel')) && !kinds[3]!.has(stem('hotel')));
    const terms = queryTerms('Dear customer, your parcel left the depot.\nbook a hotel');
    assert.equal(terms.get(stem('hotel')), 1);
    assert.equal(terms.get(stem('parcel')), QUERY_WEIGHTS.context);
    assert.equal(queryTerms('parcel').get(stem('parcel')), 1, 'a one-line request is all asked');
  });

  test('each kind has its weight, and a weight of 0 leaves the kind out', () => {
    assert.deepEqual(kindWeights({ context: 0.5, translation: 0.6, synonym: 0.2 }), [1, 0.6, 0.2, 0.5, 0.3, 0.1]);
    const none = queryTerms('a letter\nrent an apartment', { context: 0, translation: 1, synonym: 0 });
    assert.equal(none.get(stem('letter')), undefined);
    assert.equal(none.get(stem('house')), undefined);
  });
});
