import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ToolDefinition } from '../../models/chat-model.ts';
import { compactSchema, textProtocolInstructions } from './instructions.ts';
import { parseTextToolCalls } from './parse-tool-calls.ts';

const FENCE = '```';

const TOOLS: ToolDefinition[] = [
  {
    name: 'get_weather',
    description: 'Current weather for a city.',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' }, days: { type: 'integer', default: 1 } },
      required: ['city'],
    },
  },
  { name: 'get_time', description: 'The current time.', parameters: { type: 'object', properties: {} } },
];

describe('textProtocolInstructions', () => {
  for (const language of ['en', 'zh', 'ja'] as const) {
    it(`lists each tool with its schema (${language})`, () => {
      const text = textProtocolInstructions(TOOLS, language);
      for (const tool of TOOLS) {
        assert.ok(text.includes(tool.name), tool.name);
        assert.ok(text.includes(tool.description), tool.description);
        assert.ok(text.includes(JSON.stringify(tool.parameters)), `schema of ${tool.name}`);
      }
      assert.ok(text.includes('```json'));
      assert.ok(text.includes('"tool":'));
      assert.ok(text.includes('"arguments":'));
    });
  }

  it('is localized', () => {
    assert.match(textProtocolInstructions(TOOLS, 'en'), /reply with ONLY a fenced JSON block/);
    assert.match(textProtocolInstructions(TOOLS, 'zh'), /只回复一个 JSON 代码块/);
    assert.match(textProtocolInstructions(TOOLS, 'ja'), /JSON のコードブロックだけを返信/);
  });

  it('is empty without tools', () => {
    assert.equal(textProtocolInstructions([], 'en'), '');
  });

  it('parses its own example format', () => {
    const example = `${FENCE}json\n{"tool": "get_weather", "arguments": {"city": "Paris"}}\n${FENCE}`;
    assert.deepEqual(parseTextToolCalls(example), {
      kind: 'calls',
      calls: [{ name: 'get_weather', arguments: '{"city":"Paris"}' }],
      text: '',
    });
  });
});

describe('compactSchema', () => {
  it('drops additionalProperties: false and empty required lists, nested too', () => {
    const schema = {
      type: 'object',
      properties: { place: { type: 'object', properties: {}, required: [], additionalProperties: false } },
      required: [],
      additionalProperties: false,
    };
    assert.equal(compactSchema(schema), '{"type":"object","properties":{"place":{"type":"object","properties":{}}}}');
  });

  it('keeps parameters that happen to be named required or additionalProperties', () => {
    const schema = {
      type: 'object',
      properties: { required: { type: 'boolean' }, additionalProperties: { type: 'string' } },
    };
    assert.equal(compactSchema(schema), JSON.stringify(schema));
  });
});
