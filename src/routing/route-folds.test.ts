import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { foldsOf, requestFolds, toolGroup } from './route-folds.ts';

describe('route folds', () => {
  test('every request is in exactly one fold, the folds cover them all and differ in size by one at most', () => {
    const folds = requestFolds(23, 5, 7);
    assert.equal(folds.length, 23);
    const sizes = [0, 1, 2, 3, 4].map((fold) => folds.filter((one) => one === fold).length);
    assert.equal(
      sizes.reduce((sum, size) => sum + size, 0),
      23,
    );
    assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `sizes ${sizes}`);
    assert.ok(folds.every((fold) => Number.isInteger(fold) && fold >= 0 && fold < 5));
  });

  test('the same seed gives the same folds; another seed other ones', () => {
    assert.deepEqual(requestFolds(40, 4, 3), requestFolds(40, 4, 3));
    assert.notDeepEqual(requestFolds(40, 4, 3), requestFolds(40, 4, 4));
  });

  test('the requests of one group share a fold, so a test fold holds tools no training fold saw', () => {
    const groups = ['a', 'b', 'a', 'c', 'b', 'd', 'a', 'e', 'f', 'c'];
    const folds = foldsOf(groups, 3, 1);
    for (const group of new Set(groups)) {
      const of = new Set(folds.filter((_, at) => groups[at] === group));
      assert.equal(of.size, 1, `group ${group} in folds ${[...of]}`);
    }
    assert.equal(new Set(folds).size, 3, 'every fold has requests');
  });

  test('a tool is grouped by the namespace of its dotted name, else by itself', () => {
    assert.equal(toolGroup('Travel.HotelServices.bookHotel'), 'Travel.HotelServices');
    assert.equal(toolGroup('math.factorial'), 'math');
    assert.equal(toolGroup('send_email'), 'send_email');
  });

  test('fewer than two folds is an error that says what k must be', () => {
    assert.throws(() => foldsOf(['a'], 1), /k must be an integer of at least 2, not 1/);
  });
});
