import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../api-error.ts';
import { wholeNumberParam } from './whole-number-param.ts';

test('a whole number in its range is read; absent or empty is undefined', () => {
  assert.equal(wholeNumberParam('limit', '20', 1, 100), 20);
  assert.equal(wholeNumberParam('limit', '0', 0, 100), 0);
  assert.equal(wholeNumberParam('limit', undefined, 1, 100), undefined);
  assert.equal(wholeNumberParam('limit', '', 1, 100), undefined);
});

test('anything else is a 400 naming the parameter and its range', () => {
  for (const text of ['0', '101', '2.5', '-1', '1e2', ' 3', 'ten']) {
    assert.throws(
      () => wholeNumberParam('limit', text, 1, 100),
      (error: unknown) =>
        error instanceof ApiError &&
        error.status === 400 &&
        error.message === `"limit" must be a whole number from 1 to 100, not ${JSON.stringify(text)}`,
      text,
    );
  }
});
