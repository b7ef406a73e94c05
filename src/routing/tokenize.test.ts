import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { splitIdentifiers, tokenize } from './tokenize.ts';

describe('tokenize', () => {
  test('splits identifiers where their words join: camelCase, acronyms, snake_case, dots, digits', () => {
    assert.equal(splitIdentifiers('getHTTPResponse2'), 'get HTTP Response 2');
    assert.deepEqual(tokenize('Navigation.TrafficViolations.queryViolation'), [
      'navig',
      'traffic',
      'violat',
      'queri',
      'violat',
    ]);
    assert.deepEqual(tokenize('send_email_v2'), ['send', 'email', '2']);
  });

  test('stems English and drops stop words, so that inflections meet', () => {
    assert.deepEqual(tokenize('Can you show me the bookings'), tokenize('booking'));
    assert.deepEqual(tokenize('Cancelled flights'), tokenize('cancel flight'));
  });

  test('folds full-width letters and digits and half-width katakana to their ordinary forms', () => {
    assert.deepEqual(tokenize('ＴＯＫＹＯ　１２３'), tokenize('tokyo 123'));
    assert.deepEqual(tokenize('ｶﾒﾗ'), tokenize('カメラ'));
  });

  test('cuts Chinese into overlapping character pairs, whatever words a query and a description are cut into', () => {
    const terms = tokenize('查询违章记录');
    for (const pair of ['查询', '询违', '违章', '章记', '记录'])
      assert.ok(terms.includes(pair), `${pair} in ${terms.join(' ')}`);
  });

  test('cuts Japanese into words: katakana loanwords stay whole, particles go', () => {
    const terms = tokenize('レストランを予約して');
    assert.ok(terms.includes('レストラン'), terms.join(' '));
    assert.ok(!terms.includes('を'), terms.join(' '));
  });

  test('adds the English of the CJK words the lexicon knows, stemmed as English is', () => {
    assert.ok(tokenize('明日の天気を教えて').includes('weather'));
    assert.ok(tokenize('查询明天的天气').includes('weather'));
    // Through the same stemmer as English text: 予約 → "reservation" meets "reservations".
    assert.ok(tokenize('ホテルを予約').includes(tokenize('reservations')[0]!));
    // A translation may go to a separate list, to be weighed apart.
    const translations: string[] = [];
    const words = tokenize('天気', [], translations);
    assert.ok(!words.includes('weather') && translations.includes('weather'));
  });

  test('a one-character lexicon entry counts only as a word of its own, not inside a longer word', () => {
    // 車 (car) alone is a word; inside 自転車 (bicycle) it is not a car.
    assert.ok(tokenize('車').includes('car'));
    assert.ok(!tokenize('自転車に乗る').includes('car'));
  });
});
