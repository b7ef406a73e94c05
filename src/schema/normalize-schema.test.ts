import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normalizeSchema, normalizedSchema } from './normalize-schema.ts';

const top = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  normalizeSchema({ type: 'dict', properties, ...extra });

describe('normalizeSchema', () => {
  test('maps the type names catalogs use to the standard ones; "any" and unknown names put no constraint', () => {
    const schema = top({
      a: { type: 'float' },
      b: { type: 'str' },
      c: { type: 'int' },
      d: { type: 'bool' },
      e: { type: 'tuple', items: { type: 'float' } },
      f: { type: 'any', description: 'Anything' },
      g: { type: 'Date', description: 'When' },
      h: { type: 'STRING' },
      i: { type: 'dict', properties: {} },
    });
    assert.equal(schema.type, 'object');
    assert.deepEqual(schema.properties, {
      a: { type: 'number' },
      b: { type: 'string' },
      c: { type: 'integer' },
      d: { type: 'boolean' },
      e: { type: 'array', items: { type: 'number' } },
      f: { description: 'Anything' },
      g: { description: 'When (type: Date)' },
      h: { type: 'string' },
      i: { type: 'object', properties: {} },
    });
  });

  test('a missing type is inferred from properties, items or enum values, else left open', () => {
    const schema = top({
      o: { properties: { x: { type: 'string' } } },
      a: { items: { type: 'string' } },
      e: { enum: [1, 2] },
      free: { description: 'Any value' },
    });
    assert.equal(schema.properties!.o!.type, 'object');
    assert.equal(schema.properties!.a!.type, 'array');
    assert.equal(schema.properties!.e!.type, 'integer');
    assert.equal(schema.properties!.free!.type, undefined);
  });

  test('the top is always an object with properties; no parameters is an empty one', () => {
    assert.deepEqual(normalizeSchema(null), { type: 'object', properties: {} });
    assert.deepEqual(normalizeSchema({ type: 'dict' }), { type: 'object', properties: {} });
    assert.deepEqual(normalizeSchema({ properties: { q: { type: 'string' } }, required: ['q'] }), {
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    });
  });

  test('OpenAPI nullable and anyOf with null become a type with null', () => {
    const schema = top({
      n: { type: 'string', nullable: true },
      e: { type: 'string', enum: ['a', 'b'], nullable: true },
      u: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'Maybe a count' },
    });
    assert.deepEqual(schema.properties, {
      n: { type: ['string', 'null'] },
      e: { type: ['string', 'null'], enum: ['a', 'b', null] },
      u: { type: ['integer', 'null'], description: 'Maybe a count' },
    });
  });

  test("per-property optional and required: true fold into the object's required list", () => {
    const schema = top(
      {
        a: { type: 'string', optional: true },
        b: { type: 'string', optional: 'True' },
        c: { type: 'string', required: true },
      },
      { required: ['a', 'b'] },
    );
    assert.deepEqual(schema.required, ['c']);
  });

  test('an enum that contradicts its type is retyped from its values; one on an array goes to its items', () => {
    const schema = top({
      flag: { type: 'boolean', enum: ['True', 'False', 'dontcare'] },
      tags: { type: 'array', items: { type: 'string' }, enum: ['a', 'b'] },
      ok: { type: 'integer', enum: [30, 60] },
    });
    assert.deepEqual(schema.properties, {
      flag: { type: 'string', enum: ['True', 'False', 'dontcare'] },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      ok: { type: 'integer', enum: [30, 60] },
    });
  });

  test('a default is kept when it fits, coerced from text when it can be, else dropped', () => {
    const schema = top({
      a: { type: 'boolean', default: 'false' },
      b: { type: 'integer', default: '5' },
      c: { type: 'string', default: null },
      d: { type: 'integer', default: 'dontcare' },
      e: { type: 'string', enum: ['x', 'y'], default: 'z' },
      f: { type: 'string', default: 'x' },
    });
    assert.deepEqual(schema.properties, {
      a: { type: 'boolean', default: false },
      b: { type: 'integer', default: 5 },
      c: { type: 'string' },
      d: { type: 'integer' },
      e: { type: 'string', enum: ['x', 'y'] },
      f: { type: 'string', default: 'x' },
    });
  });

  test('non-standard annotations go into the description; example becomes examples', () => {
    const schema = top({
      t: { type: 'number', description: 'Temperature', unit: 'Celsius' },
      m: { type: 'str', description: 'Movement', choices: ['walk', 'run'] },
      k: { type: 'integer', example: 10 },
    });
    assert.deepEqual(schema.properties, {
      t: { type: 'number', description: 'Temperature (unit: Celsius)' },
      m: { type: 'string', description: 'Movement (choices: walk, run)' },
      k: { type: 'integer', examples: [10] },
    });
  });

  test('a pattern Ajv cannot compile is told, not declared; keywords for another type are dropped', () => {
    const schema = top({
      t: { type: 'string', pattern: '^\\d+\\-\\d+\\s°C$' },
      n: { type: 'number', pattern: '^[0-9]+$', minLength: 2, minimum: 1, format: 'float' },
    });
    assert.deepEqual(schema.properties, {
      t: { type: 'string', description: '(pattern: ^\\d+\\-\\d+\\s°C$)' },
      n: { type: 'number', format: 'float', minimum: 1 },
    });
  });

  test("required names: undeclared ones become open properties; on an array of objects they are the objects'", () => {
    const schema = top(
      {
        list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } }, required: ['a'] },
      },
      { required: ['list', 'ghost'] },
    );
    assert.deepEqual(schema.required, ['list', 'ghost']);
    assert.deepEqual(schema.properties!.ghost, {});
    assert.deepEqual(schema.properties!.list!.items, {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
  });

  test('allOf is merged, tuple items become one schema, oneOf becomes anyOf', () => {
    const schema = top({
      m: {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'integer' } } },
        ],
      },
      t: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] },
      u: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    });
    assert.deepEqual(schema.properties!.m, {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'integer' } },
      required: ['a'],
    });
    assert.deepEqual(schema.properties!.t, { type: 'array', items: { type: 'number' } });
    assert.deepEqual(schema.properties!.u, { anyOf: [{ type: 'string' }, { type: 'integer' }] });
  });

  test('is idempotent, and normalizedSchema normalizes each schema object once', () => {
    const raw = {
      type: 'dict',
      properties: { a: { type: 'float', nullable: true, unit: 'm' }, b: { type: 'bool', enum: ['yes'] } },
      required: ['a'],
    };
    const once = normalizeSchema(raw);
    assert.deepEqual(normalizeSchema(once), once);
    assert.equal(normalizedSchema(raw), normalizedSchema(raw));
    assert.deepEqual(normalizedSchema(raw), once);
  });
});
