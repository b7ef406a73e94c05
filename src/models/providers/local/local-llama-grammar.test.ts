import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolDefinition } from '../../chat-model.ts';
import { readGrammarReply, replySchema } from './local-llama-grammar.ts';

const NOTE: ToolDefinition = {
  name: 'note',
  description: 'Saves a note',
  parameters: {
    type: 'object',
    properties: {
      text: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
      priority: { type: 'string', enum: ['low', 'high'] },
      extra: { type: 'object' },
    },
    required: ['text'],
    additionalProperties: false,
  },
};
const PING: ToolDefinition = {
  name: 'ping',
  description: 'Pings',
  parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
};

test('the reply schema has one branch per tool, with its own arguments, and the answer', () => {
  assert.deepEqual(replySchema([NOTE, PING]), {
    oneOf: [
      {
        type: 'object',
        properties: {
          tool: { const: 'note' },
          arguments: {
            type: 'object',
            properties: {
              text: { type: 'string' },
              // Optional parameters may be null: a grammar object requires all its keys.
              tags: { oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
              priority: { oneOf: [{ enum: ['low', 'high'] }, { type: 'null' }] },
              extra: { oneOf: [{ type: 'object', additionalProperties: true }, { type: 'null' }] },
            },
          },
        },
      },
      {
        type: 'object',
        properties: { tool: { const: 'ping' }, arguments: { type: 'object', additionalProperties: false } },
      },
      { type: 'object', properties: { answer: { type: 'string' } } },
    ],
  });
});

test('a finished reply reads as a call (optional nulls dropped) or an answer', () => {
  assert.deepEqual(
    readGrammarReply(
      '{"tool": "note", "arguments": {"text": "milk", "tags": null, "priority": "high", "extra": null}}',
      [NOTE, PING],
    ),
    {
      kind: 'call',
      name: 'note',
      arguments: '{"text":"milk","priority":"high"}',
    },
  );
  assert.deepEqual(readGrammarReply('{"tool":"ping","arguments":{}}', [NOTE, PING]), {
    kind: 'call',
    name: 'ping',
    arguments: '{}',
  });
  assert.deepEqual(readGrammarReply('{ "answer": "Hi\\nthere" }', [NOTE]), { kind: 'answer', text: 'Hi\nthere' });
});

test('a reply cut short, or naming no offered tool, reads as nothing', () => {
  assert.equal(readGrammarReply('{"tool": "note", "arguments": {"text": "mi', [NOTE]), undefined);
  assert.equal(readGrammarReply('{"tool": "other", "arguments": {}}', [NOTE]), undefined);
  assert.equal(readGrammarReply('[]', [NOTE]), undefined);
});
