import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolDefinition } from '../../chat-model.ts';
import { chatHistory, LOCAL_TOOLS } from './local-llama-prompt.ts';

const WEATHER: ToolDefinition = {
  name: 'weather',
  description: 'Get the weather.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

test('calls read as the JSON the grammar has the model write; results come back as one user message', () => {
  const history = chatHistory(
    'Be brief.',
    [
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' },
          { id: 'c2', name: 'weather', arguments: '{"city": "Rome"}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', name: 'weather', content: 'Paris: 16°C' },
      { role: 'tool', toolCallId: 'c2', name: 'weather', content: 'Error: unknown city', isError: true },
      { role: 'assistant', content: 'Paris is 16°C.' },
      { role: 'user', content: 'Thanks' },
    ],
    [WEATHER],
  );
  assert.equal(history[0]?.type, 'system');
  assert.match((history[0] as { text: string }).text, /^Be brief\.\n\nReply with exactly one JSON object/);
  assert.match(
    (history[0] as { text: string }).text,
    /- weather: Get the weather\. Parameters \(JSON Schema\): \{"type":"object"/,
  );
  // What `tools show --dialect local` prints is the tool's line here.
  assert.ok((history[0] as { text: string }).text.includes(`\n${LOCAL_TOOLS.toolText(WEATHER)}`));
  assert.deepEqual(history.slice(1), [
    { type: 'user', text: 'Weather in Paris and Rome?' },
    {
      type: 'model',
      response: [
        '{"tool": "weather", "arguments": {"city":"Paris"}}\n{"tool": "weather", "arguments": {"city":"Rome"}}',
      ],
    },
    {
      type: 'user',
      text: 'Result of weather (c1):\nParis: 16°C\n\nResult of weather (c2), failed:\nError: unknown city',
    },
    { type: 'model', response: ['Paris is 16°C.'] },
    { type: 'user', text: 'Thanks' },
    { type: 'model', response: [] },
  ]);
});

test('without tools or a system prompt there is no system message', () => {
  assert.deepEqual(chatHistory(undefined, [{ role: 'user', content: 'Hi' }], []), [
    { type: 'user', text: 'Hi' },
    { type: 'model', response: [] },
  ]);
});
