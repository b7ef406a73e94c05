import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { localize, localizeList } from '../core/language.ts';

describe('localize', () => {
  test('a plain string is used for every language', () => {
    assert.equal(localize('Weather'), 'Weather');
    assert.equal(localize('Weather', 'zh'), 'Weather');
  });

  test('picks the language, then English, then any language given', () => {
    const text = { en: 'Weather', zh: '天气' };
    assert.equal(localize(text, 'zh'), '天气');
    assert.equal(localize(text, 'ja'), 'Weather');
    assert.equal(localize(text), 'Weather');
    assert.equal(localize({ ja: '天気' }, 'zh'), '天気');
    assert.equal(localize({ ja: '天気' }), '天気');
  });

  test('nothing gives an empty string', () => {
    assert.equal(localize(undefined), '');
    assert.equal(localize({}), '');
  });
});

describe('localizeList', () => {
  test('a plain list is used for every language', () => {
    assert.deepEqual(localizeList(['a', 'b'], 'ja'), ['a', 'b']);
  });

  test('picks the language, then English, then every language together', () => {
    const lists = { en: ['rain?'], zh: ['下雨吗？'], ja: ['雨？'] };
    assert.deepEqual(localizeList(lists, 'ja'), ['雨？']);
    assert.deepEqual(localizeList({ en: ['rain?'], zh: ['下雨吗？'] }, 'ja'), ['rain?']);
    assert.deepEqual(localizeList({ zh: ['下雨吗？'], ja: ['雨？'] }, 'en'), ['下雨吗？', '雨？']);
  });

  test('nothing gives an empty list', () => {
    assert.deepEqual(localizeList(undefined), []);
    assert.deepEqual(localizeList({}), []);
  });
});
