import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { toolDefinition } from './tool-definition.ts';

const weather = { name: 'weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('toolDefinition', () => {
  test('wraps the compiled schema the way each provider takes a tool', () => {
    const strictParameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    assert.deepEqual(toolDefinition(weather, 'openai'), { type: 'function', function: { name: 'weather', description: 'Weather for a city', parameters: strictParameters } });
    assert.deepEqual(toolDefinition(weather, 'openai-strict'), { type: 'function', function: { name: 'weather', description: 'Weather for a city', parameters: strictParameters, strict: true } });
    assert.deepEqual(toolDefinition(weather, 'anthropic'), { name: 'weather', description: 'Weather for a city', input_schema: weather.parameters });
    assert.deepEqual(toolDefinition(weather, 'gemini'), { name: 'weather', description: 'Weather for a city', parameters: weather.parameters });
    assert.deepEqual(toolDefinition(weather, 'json'), { name: 'weather', description: 'Weather for a city', parameters: weather.parameters });
  });

  test('a Gemini tool without parameters declares none', () => {
    assert.deepEqual(toolDefinition({ name: 'now', description: 'The time', parameters: null }, 'gemini'), { name: 'now', description: 'The time' });
    assert.deepEqual(toolDefinition({ name: 'now', description: 'The time', parameters: null }, 'anthropic'), { name: 'now', description: 'The time', input_schema: { type: 'object', properties: {} } });
  });
});
