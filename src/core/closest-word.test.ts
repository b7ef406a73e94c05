import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closestWord } from './closest-word.ts';

test('a typo finds its word: an edit or two, two letters swapped, any case; a far word finds none', () => {
  assert.equal(closestWord('tols', ['chat', 'tools', 'ask']), 'tools');
  assert.equal(closestWord('lsit', ['list', 'show', 'run']), 'list');
  assert.equal(closestWord('WEATHER', ['weather']), 'weather');
  assert.equal(closestWord('requried', ['required']), 'required');
  assert.equal(closestWord('xyz', ['list', 'show']), undefined);
  assert.equal(closestWord('ab', ['cd']), undefined);
});
