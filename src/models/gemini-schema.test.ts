import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { geminiParameters, geminiSchema } from './gemini-schema.ts';

describe('geminiSchema', () => {
  it('keeps type, description, enum, items, properties and required; drops the rest', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name', default: 'Tokyo', format: 'city', minLength: 1 },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'array', items: { type: 'integer' }, maxItems: 3 },
        where: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat', 'lon'], additionalProperties: false },
      },
      required: ['city'],
      additionalProperties: false,
    };
    assert.deepEqual(geminiSchema(schema), {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'array', items: { type: 'integer' } },
        where: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'] },
      },
      required: ['city'],
    });
  });

  it('turns nullable unions and type arrays into nullable, other unions into anyOf', () => {
    assert.deepEqual(geminiSchema({ type: ['string', 'null'], description: 'd' }), { type: 'string', description: 'd', nullable: true });
    assert.deepEqual(geminiSchema({ anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'n' }), { type: 'integer', description: 'n', nullable: true });
    assert.deepEqual(geminiSchema({ type: ['string', 'number'] }), { anyOf: [{ type: 'string' }, { type: 'number' }] });
    assert.deepEqual(geminiSchema({ oneOf: [{ type: 'string' }, { type: 'boolean' }, { type: 'null' }] }), { anyOf: [{ type: 'string' }, { type: 'boolean' }], nullable: true });
  });

  it('reshapes what Gemini rejects: enums of non-strings, objects without properties, arrays without items, no type', () => {
    assert.deepEqual(geminiSchema({ type: 'integer', enum: [1, 2, 3] }), { type: 'string', enum: ['1', '2', '3'] });
    assert.deepEqual(geminiSchema({ type: 'string', enum: ['a', null] }), { type: 'string', enum: ['a'], nullable: true });
    assert.deepEqual(geminiSchema({ type: 'object', description: 'Extra fields' }), { type: 'string', description: 'Extra fields (a JSON object)' });
    assert.deepEqual(geminiSchema({ type: 'array' }), { type: 'array', items: { type: 'string' } });
    assert.deepEqual(geminiSchema({ description: 'anything' }), { type: 'string', description: 'anything' });
    assert.deepEqual(geminiSchema({ properties: { a: { type: 'boolean' } } }), { type: 'object', properties: { a: { type: 'boolean' } } });
  });

  it('gives no parameters for a tool that takes none', () => {
    assert.equal(geminiParameters({ type: 'object', properties: {}, required: [], additionalProperties: false }), undefined);
    assert.equal(geminiParameters({ type: 'object' }), undefined);
    assert.deepEqual(geminiParameters({ type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] }), {
      type: 'object',
      properties: { ms: { type: 'integer' } },
      required: ['ms'],
    });
  });
});
