import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatToolResultsForText } from './tool-results.ts';

describe('formatToolResultsForText', () => {
  it('numbers the results, marks failures and fences each body', () => {
    const text = formatToolResultsForText(
      [
        { name: 'get_weather', content: '{"temp": 21}' },
        { name: 'search', content: 'timed out after 30 s', isError: true },
      ],
      'en',
    );
    assert.match(text, /^\[Tool results\]/);
    assert.ok(text.includes('1. get_weather (succeeded)\n```\n{"temp": 21}\n```'));
    assert.ok(text.includes('2. search (FAILED)\n```\ntimed out after 30 s\n```'));
  });

  it('uses a longer fence when the content has backticks', () => {
    const text = formatToolResultsForText([{ name: 'read_file', content: '```js\nx\n```' }], 'en');
    assert.ok(text.includes('````\n```js\nx\n```\n````'));
  });

  it('is localized', () => {
    const results = [{ name: 'search', content: 'no network', isError: true }];
    assert.ok(formatToolResultsForText(results, 'zh').includes('1. search (失败)'));
    assert.ok(formatToolResultsForText(results, 'ja').includes('1. search (失敗)'));
  });
});
