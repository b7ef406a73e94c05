import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkDialect } from './check-dialect.ts';
import { compileSchema } from './compile-schema.ts';

const strict = (properties: Record<string, unknown>, required: string[] = []) =>
  compileSchema({ type: 'object', properties, required }, 'openai-strict');

describe('openai-strict dialect', () => {
  test('lists every property as required; optional ones become nullable', () => {
    const schema = strict({ city: { type: 'string' }, days: { type: 'integer', description: 'Days' } }, ['city']);
    assert.deepEqual(schema, {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: ['integer', 'null'], description: 'Days' } },
      required: ['city', 'days'],
      additionalProperties: false,
    });
    assert.deepEqual(checkDialect(schema, 'openai-strict'), []);
  });

  test('an optional enum, object or array is anyOf with null, the description outside', () => {
    const schema = strict({
      unit: { type: 'string', enum: ['c', 'f'], description: 'Unit' },
      where: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'] },
      tags: { type: 'array', items: { type: 'string' } },
    });
    assert.deepEqual(schema.properties, {
      unit: { description: 'Unit', anyOf: [{ type: 'string', enum: ['c', 'f'] }, { type: 'null' }] },
      where: {
        anyOf: [
          { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'], additionalProperties: false },
          { type: 'null' },
        ],
      },
      tags: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
    });
    assert.deepEqual(checkDialect(schema, 'openai-strict'), []);
  });

  test('a required property stays non-null unless the source allows null', () => {
    const schema = strict({ a: { type: 'string' }, b: { type: 'string', nullable: true } }, ['a', 'b']);
    assert.deepEqual(schema.properties, { a: { type: 'string' }, b: { type: ['string', 'null'] } });
  });

  test('keeps the supported keywords and tells the others in the description', () => {
    const schema = strict(
      {
        when: { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        site: { type: 'string', format: 'uri', minLength: 4, description: 'Page' },
        volume: { type: 'integer', minimum: 0, maximum: 100, default: 50, description: 'Volume' },
        ids: { type: 'array', items: { type: 'integer' }, minItems: 1, uniqueItems: true },
        ratio: { type: 'number', format: 'float' },
      },
      ['when', 'site', 'volume', 'ids', 'ratio'],
    );
    assert.deepEqual(schema.properties, {
      when: { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
      site: { type: 'string', description: 'Page (minLength: 4; format: uri)' },
      volume: { type: 'integer', description: 'Volume (default: 50)', minimum: 0, maximum: 100 },
      ids: { type: 'array', description: '(uniqueItems: true)', items: { type: 'integer' }, minItems: 1 },
      ratio: { type: 'number' },
    });
  });

  test('what strict cannot declare travels as JSON text: a free-form object, any value, a union', () => {
    const schema = strict(
      {
        headers: { type: 'object', description: 'Headers', additionalProperties: { type: 'string' } },
        data: { type: 'any' },
        id: { type: ['string', 'integer'] },
        list: { type: 'array' },
      },
      ['headers'],
    );
    assert.deepEqual(schema.properties, {
      headers: { type: 'string', description: 'Headers (a JSON object, written as text)' },
      data: { type: ['string', 'null'], description: '(any JSON value, written as JSON text)' },
      id: { type: ['string', 'null'], description: '(JSON text: string or integer)' },
      // Null is a value of any type, so an open item may be null.
      list: {
        anyOf: [
          { type: 'array', items: { type: ['string', 'null'], description: '(any JSON value, written as JSON text)' } },
          { type: 'null' },
        ],
      },
    });
  });

  test('a top without declared properties is a tool without parameters', () => {
    const expected = { type: 'object', properties: {}, required: [], additionalProperties: false };
    assert.deepEqual(compileSchema({ type: 'object', properties: {} }, 'openai-strict'), expected);
    assert.deepEqual(compileSchema(null, 'openai-strict'), expected);
  });

  test('rules: closed objects, all required, known keywords and formats, a type everywhere', () => {
    const bad = {
      type: 'object',
      properties: {
        a: { type: 'string', default: 'x', format: 'uri' },
        b: { description: 'untyped' },
        c: { type: 'object', properties: { d: { type: 'string' } } },
      },
      required: ['a'],
    };
    assert.deepEqual(checkDialect(bad, 'openai-strict'), [
      'top: additionalProperties must be false',
      'top: every property must be required',
      'a: "default" is not allowed',
      'a: format "uri" is not supported',
      'b: needs a type',
      'c: additionalProperties must be false',
      'c: every property must be required',
    ]);
  });

  test('rules: the documented size limits', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 11; level++)
      deep = { type: 'object', properties: { x: deep }, required: ['x'], additionalProperties: false };
    assert.deepEqual(checkDialect(deep, 'openai-strict'), ['objects nest 11 deep, over 10']);
    const values = Array.from({ length: 1001 }, (_, index) => `v${index}`);
    const big = {
      type: 'object',
      properties: { e: { type: 'string', enum: values } },
      required: ['e'],
      additionalProperties: false,
    };
    assert.deepEqual(checkDialect(big, 'openai-strict'), ['1001 enum values, over 1000']);
  });
});
