import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonText } from './json-text.ts';

test('jsonText writes what JSON.stringify writes, and nesting JSON.stringify cannot', () => {
  const shallow = { a: [1, 'two', null, { b: true }], c: { d: undefined, e: '東京' } };
  assert.equal(jsonText(shallow), JSON.stringify(shallow));
  const depth = 20_000;
  const text = `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
  const value: unknown = JSON.parse(text);
  assert.throws(() => JSON.stringify(value), RangeError, 'the case this exists for');
  assert.equal(jsonText(value), text);
  assert.equal(jsonText([[], {}, [undefined]]), '[[],{},[null]]');
});
