import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolDefinition } from './chat-model.ts';
import { PROVIDER_WIRE_NAMES } from './providers/provider-wire-names.ts';
import { PROVIDER_WIRES } from './providers/provider-wires.ts';
import { toolsWire } from './tools-wire.ts';

const tool = (name: string): ToolDefinition => ({
  name,
  description: `The ${name}`,
  parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
});

test('the catalog is each tool as toolText writes it, built once per array object', () => {
  let written = 0;
  const wire = toolsWire('json', (definition) => {
    written++;
    return JSON.stringify(definition.name);
  });
  const tools = [tool('a'), tool('b')];
  assert.equal(wire.toolsText(tools), '["a","b"]');
  assert.equal(wire.toolsText(tools), '["a","b"]');
  assert.equal(written, 2, 'the second time is a lookup');
  assert.equal(wire.toolsText([...tools]), '["a","b"]');
  assert.equal(written, 4, 'another array is written again');
});

test('every provider wire holds its tools exactly as it writes each one', () => {
  assert.deepEqual(Object.keys(PROVIDER_WIRES), [...PROVIDER_WIRE_NAMES]);
  const tools = [tool('a'), tool('b')];
  for (const [name, wire] of Object.entries(PROVIDER_WIRES)) {
    const catalog = wire.toolsText(tools);
    for (const one of tools) assert.ok(catalog.includes(wire.toolText(one)), `${name}: ${catalog}`);
    if (wire.format === 'json') assert.doesNotThrow(() => JSON.parse(catalog), name);
  }
});
