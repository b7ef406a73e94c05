import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dialectLosses } from './dialect-losses.ts';

const CONTACT = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addr', type: 'object', properties: { city: { type: 'string', minLength: 1 } } } },
  properties: { address: { $ref: '#/$defs/address' }, via: { enum: ['phone', 'email'] }, phone: { type: 'string' } },
  required: ['via'],
  if: { properties: { via: { const: 'phone' } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's conditional keyword
  then: { required: ['phone'] },
};

test('what a dialect leaves out of a full JSON Schema: its rules, not its names and references', () => {
  assert.deepEqual(dialectLosses(CONTACT, 'json'), ['const', 'if', 'then']);
  assert.deepEqual(dialectLosses(CONTACT, 'gemini'), ['const', 'if', 'minLength', 'then']);
  // The reference is followed: the city's rule survives where the dialect takes it.
  assert.ok(!dialectLosses(CONTACT, 'json').includes('minLength'));
  assert.deepEqual(dialectLosses({ type: 'object', properties: { a: { type: 'string' } } }, 'openai-strict'), []);
});

test("MCP's x-mcp-header (a parameter mirrored in a header) is for the transport: no dialect loses a rule by leaving it out", () => {
  const schema = { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } };
  for (const dialect of ['json', 'openai', 'openai-strict', 'gemini'] as const)
    assert.deepEqual(dialectLosses(schema, dialect), [], dialect);
});
