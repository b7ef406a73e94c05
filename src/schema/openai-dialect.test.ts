import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkDialect } from './check-dialect.ts';
import { compileSchema } from './compile-schema.ts';

const schema = {
  type: 'dict',
  properties: {
    q: { type: 'string', description: 'Query', default: 'x', format: 'uri' },
    filters: { type: 'object', properties: { lang: { type: 'string' } } },
    rows: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
    extra: { type: 'object', description: 'Free-form' },
    open: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
    tags: { type: 'array', description: 'No items given' },
  },
  required: ['q'],
};

describe('json and anthropic dialects', () => {
  test('are the normalized standard JSON Schema, with an object at the top', () => {
    const json = compileSchema(schema, 'json');
    assert.deepEqual(compileSchema(schema, 'anthropic'), json);
    assert.equal(json.type, 'object');
    assert.deepEqual(json.properties!.q, { type: 'string', description: 'Query', default: 'x', format: 'uri' });
    assert.equal(json.additionalProperties, undefined);
    assert.deepEqual(checkDialect(json, 'json'), []);
    assert.deepEqual(checkDialect(json, 'anthropic'), []);
  });

  test('a non-standard keyword or type breaks the json rules', () => {
    assert.deepEqual(checkDialect({ type: 'object', properties: { a: { type: 'dict', nullable: true } } }, 'json'), [
      'a: "nullable" is not allowed',
      'a: unknown type "dict"',
    ]);
    assert.deepEqual(checkDialect({ type: 'array' }, 'anthropic'), ['the top must be type "object"']);
  });
});

describe('openai dialect', () => {
  const openai = compileSchema(schema, 'openai');

  test('closes every object that declares properties, at any depth, unless the source left it open', () => {
    assert.equal(openai.additionalProperties, false);
    assert.equal(openai.properties!.filters!.additionalProperties, false);
    assert.equal(openai.properties!.rows!.items!.additionalProperties, false);
    assert.equal(openai.properties!.extra!.additionalProperties, undefined);
    assert.equal(openai.properties!.open!.additionalProperties, true);
  });

  test('keeps the rest as it is, and gives every array items', () => {
    assert.deepEqual(openai.properties!.q, { type: 'string', description: 'Query', default: 'x', format: 'uri' });
    assert.deepEqual(openai.properties!.tags, { type: 'array', description: 'No items given', items: {} });
    assert.deepEqual(openai.required, ['q']);
    assert.deepEqual(checkDialect(openai, 'openai'), []);
  });

  test('rules: objects with properties say additionalProperties, arrays have items', () => {
    assert.deepEqual(checkDialect({ type: 'object', properties: { a: { type: 'array' } } }, 'openai'), [
      'top: an object with properties needs additionalProperties',
      'a: an array needs items',
    ]);
  });
});
