import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normalizeArguments } from './normalize-arguments.ts';

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    days: { type: 'integer' },
    note: { type: 'string', nullable: true },
    where: { type: 'object', properties: { lat: { type: 'number' }, label: { type: 'string' } }, required: ['lat'] },
    stops: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, minutes: { type: 'integer', enum: [30, 60] } },
        required: ['name'],
      },
    },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    data: { type: 'any' },
  },
  required: ['city'],
};

describe('normalizeArguments', () => {
  test('strict: the nulls sent for left-out optional parameters are dropped, at any depth', () => {
    const sent = {
      city: 'Oslo',
      days: null,
      note: null,
      where: { lat: 59.9, label: null },
      stops: [{ name: 'A', minutes: null }],
      headers: null,
      data: null,
    };
    assert.deepEqual(normalizeArguments(sent, schema, 'openai-strict'), {
      city: 'Oslo',
      where: { lat: 59.9 },
      stops: [{ name: 'A' }],
    });
  });

  test('strict: JSON text is parsed back; text that is not JSON stays text for the usual check to report', () => {
    const sent = { city: 'Oslo', headers: '{"Accept":"text/plain"}', data: '[1,2]' };
    assert.deepEqual(normalizeArguments(sent, schema, 'openai-strict'), {
      city: 'Oslo',
      headers: { Accept: 'text/plain' },
      data: [1, 2],
    });
    assert.deepEqual(normalizeArguments({ city: 'Oslo', data: 'plain words' }, schema, 'openai-strict'), {
      city: 'Oslo',
      data: 'plain words',
    });
  });

  test('gemini: enum text becomes its value again; a null the original takes is kept', () => {
    const sent = { city: 'Oslo', note: null, stops: [{ name: 'A', minutes: '60' }], headers: '{"a":"b"}' };
    assert.deepEqual(normalizeArguments(sent, schema, 'gemini'), {
      city: 'Oslo',
      note: null,
      stops: [{ name: 'A', minutes: 60 }],
      headers: { a: 'b' },
    });
  });

  test('plain dialects: values pass through; nulls for optional parameters that take none are dropped', () => {
    const sent = { city: 'Oslo', days: null, note: null, headers: { a: 'b' }, data: 'x', unknown: 1 };
    for (const dialect of ['json', 'openai', 'anthropic'] as const) {
      assert.deepEqual(normalizeArguments(sent, schema, dialect), {
        city: 'Oslo',
        note: null,
        headers: { a: 'b' },
        data: 'x',
        unknown: 1,
      });
    }
  });

  test('a null for a required parameter is left for the usual check; the input is not changed', () => {
    const sent = { city: null, days: null };
    assert.deepEqual(normalizeArguments(sent, schema, 'openai-strict'), { city: null });
    assert.deepEqual(sent, { city: null, days: null });
  });

  test('anything but an object passes through', () => {
    assert.equal(normalizeArguments(undefined, schema, 'openai-strict'), undefined);
    assert.equal(normalizeArguments('x', schema, 'gemini'), 'x');
  });
});
