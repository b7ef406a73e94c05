import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkToolResult, ToolResult } from './tool-result.ts';

describe('ToolResult helpers', () => {
  test('ok and fail', () => {
    assert.deepEqual(ToolResult.ok('sunny'), { success: true, data: 'sunny' });
    assert.deepEqual(ToolResult.fail('no city'), { success: false, data: '', error: 'no city' });
    assert.deepEqual(ToolResult.fail('partial', 'some data'), { success: false, data: 'some data', error: 'partial' });
  });
});

describe('checkToolResult', () => {
  test('valid results come back normalized', () => {
    assert.deepEqual(checkToolResult({ success: true, data: 'x' }), { success: true, data: 'x' });
    assert.deepEqual(checkToolResult({ success: true }), { success: true, data: '' });
    assert.deepEqual(checkToolResult({ success: true, data: 'x', error: 'note' }), {
      success: true,
      data: 'x',
      error: 'note',
    });
    assert.deepEqual(checkToolResult({ success: true, data: 'x', error: null }), { success: true, data: 'x' });
    assert.deepEqual(checkToolResult({ success: false, error: 'bad' }), { success: false, data: '', error: 'bad' });
    assert.deepEqual(checkToolResult({ success: false, data: '', error: '' }), {
      success: false,
      data: '',
      error: 'the tool reported failure without an error message',
    });
  });

  test('extra fields are dropped, so a tool cannot set the runtime code', () => {
    assert.deepEqual(checkToolResult({ success: false, data: '', error: 'x', code: 'timeout', other: 1 }), {
      success: false,
      data: '',
      error: 'x',
    });
  });

  test('anything else is a sentence saying what is wrong', () => {
    const cases: [unknown, RegExp][] = [
      ['text', /^returned a string \("text"\), not a ToolResult$/],
      ['y'.repeat(100), /a string \("y{40}…"\)/],
      [undefined, /returned nothing \(undefined\)/],
      [null, /returned null/],
      [42, /returned number 42/],
      [[], /returned an array/],
      [{ data: 'x' }, /"success" is nothing \(undefined\), not true or false/],
      [{ success: 'yes', data: 'x' }, /"success" is a string \("yes"\)/],
      [{ success: true, data: {} }, /"data" as an object; "data" must be a string \(use JSON\.stringify/],
      [{ success: true, data: 5 }, /"data" as number 5/],
      [{ success: false, data: '', error: new Error('x') }, /"error" as an object; "error" must be a string/],
    ];
    for (const [value, expected] of cases) {
      const checked = checkToolResult(value);
      assert.equal(typeof checked, 'string', JSON.stringify(value));
      assert.match(checked as string, expected);
    }
  });
});
