import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkDialect } from './check-dialect.ts';
import { compileSchema } from './compile-schema.ts';

const gemini = (properties: Record<string, unknown>, required: string[] = []) =>
  compileSchema({ type: 'dict', properties, required, additionalProperties: false }, 'gemini');

describe('gemini dialect', () => {
  test('takes one lower-case type, description, enum of strings, items, properties and required; no additionalProperties', () => {
    const schema = gemini(
      {
        city: { type: 'str', description: 'City' },
        unit: { type: 'string', enum: ['c', 'f'] },
        days: { type: 'array', items: { type: 'integer' } },
        where: {
          type: 'object',
          properties: { lat: { type: 'float' } },
          required: ['lat'],
          additionalProperties: false,
        },
      },
      ['city'],
    );
    assert.deepEqual(schema, {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City' },
        unit: { type: 'string', enum: ['c', 'f'] },
        days: { type: 'array', items: { type: 'integer' } },
        where: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'] },
      },
      required: ['city'],
    });
    assert.deepEqual(checkDialect(schema, 'gemini'), []);
  });

  test('a union with null is nullable; optional parameters stay optional, not nullable', () => {
    const schema = gemini({
      note: { type: 'string', nullable: true },
      maybe: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      plain: { type: 'string' },
    });
    assert.deepEqual(schema.properties, {
      note: { type: 'string', nullable: true },
      maybe: { type: 'integer', nullable: true },
      plain: { type: 'string' },
    });
  });

  test('an enum of numbers or booleans travels as their text', () => {
    const schema = gemini({
      minutes: { type: 'integer', enum: [30, 60], description: 'Length' },
      on: { type: 'boolean', enum: [true, false] },
    });
    assert.deepEqual(schema.properties, {
      minutes: { type: 'string', description: 'Length', enum: ['30', '60'] },
      on: { type: 'string', enum: ['true', 'false'] },
    });
  });

  test('formats: date-time, float/double and int32/int64 stay; others, defaults and constraints are told', () => {
    const schema = gemini({
      at: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date', description: 'Day' },
      ratio: { type: 'number', format: 'float', minimum: 0, maximum: 1, default: 0.5 },
      code: { type: 'string', pattern: '^[A-Z]{3}$', minLength: 3 },
      list: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5 },
    });
    assert.deepEqual(schema.properties, {
      at: { type: 'string', format: 'date-time' },
      day: { type: 'string', description: 'Day (format: date)' },
      ratio: { type: 'number', format: 'float', description: '(default: 0.5; minimum: 0; maximum: 1)' },
      code: { type: 'string', description: '(minLength: 3; pattern: ^[A-Z]{3}$)' },
      list: { type: 'array', description: '(minItems: 1; maxItems: 5)', items: { type: 'string' } },
    });
  });

  test('free-form objects, values of any type and unions travel as JSON text; every array gets items', () => {
    const schema = gemini({
      headers: { type: 'dict', description: 'Headers' },
      data: { type: 'any' },
      id: { type: ['string', 'integer'] },
      tags: { type: 'array' },
      empty: { type: 'object', properties: {}, additionalProperties: false },
    });
    assert.deepEqual(schema.properties, {
      headers: { type: 'string', description: 'Headers (a JSON object, written as text)' },
      data: { type: 'string', description: '(any JSON value, written as JSON text)', nullable: true },
      id: { type: 'string', description: '(JSON text: string or integer)' },
      tags: {
        type: 'array',
        items: { type: 'string', description: '(any JSON value, written as JSON text)', nullable: true },
      },
      // Gemini rejects `properties: {}`: an object that must stay empty is just an object.
      empty: { type: 'object' },
    });
    assert.deepEqual(checkDialect(schema, 'gemini'), []);
  });

  test('a top without properties is just an object', () => {
    assert.deepEqual(compileSchema({ type: 'object', properties: {} }, 'gemini'), { type: 'object' });
  });

  test('rules: the keywords, types, enums and formats Gemini takes', () => {
    const bad = {
      type: 'object',
      additionalProperties: false,
      properties: {
        a: { type: ['string', 'null'] },
        b: { type: 'integer', enum: [1, 2] },
        c: { type: 'array' },
        d: { type: 'object', properties: {} },
        e: { type: 'string', format: 'date', default: 'x' },
        f: { type: 'STRING' },
      },
    };
    assert.deepEqual(checkDialect(bad, 'gemini'), [
      'top: "additionalProperties" is not allowed',
      'a: type must be one of string, number, integer, boolean, array, object',
      'a: one type only',
      'b: enum is for strings only',
      'c: an array needs items',
      'd: properties must not be empty',
      'e: "default" is not allowed',
      'e: format "date" is not supported for string',
      'f: unknown type "STRING"',
      'f: type must be one of string, number, integer, boolean, array, object',
    ]);
  });
});
