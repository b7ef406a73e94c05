import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../models/chat-message.ts';
import { ApiError } from '../api-error.ts';
import { itemsToMessages } from './responses-items.ts';
import { readResponsesRequest } from './responses-request.ts';

const read = (body: Record<string, unknown>) => readResponsesRequest({ model: 'riverse', ...body });
/** The request read and its items joined to `before`, as the route does. */
const conversation = (body: Record<string, unknown>, before: ChatMessage[] = []) =>
  itemsToMessages(read(body).items, before);

function refused(run: () => unknown, param: string, message?: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid-request');
    assert.equal(error.param, param);
    if (message !== undefined) assert.match(error.message, message);
    return true;
  });
}

const CALL = { type: 'function_call', call_id: 'call_1', name: 'show_note', arguments: '{"text":"hi"}' };

describe('readResponsesRequest', () => {
  it("takes a string input as the user's message, and instructions with the system messages after them", () => {
    const input = read({
      instructions: 'Be brief.',
      input: [
        { role: 'developer', content: 'Use metric units.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Hi' }] },
      ],
    });
    assert.equal(input.system, 'Be brief.\n\nUse metric units.');
    assert.equal(input.instructions, 'Be brief.');
    assert.deepEqual(itemsToMessages(input.items, []), [{ role: 'user', content: 'Hi' }]);
    assert.deepEqual(itemsToMessages(read({ input: 'Hello' }).items, []), [{ role: 'user', content: 'Hello' }]);
    assert.equal(input.store, true);
    assert.equal(input.stream, false);
  });

  it('joins an assistant message and its function calls into one message, answered by the outputs after it', () => {
    assert.deepEqual(
      conversation({
        input: [
          { role: 'user', content: 'Show hi' },
          {
            type: 'message',
            role: 'assistant',
            id: 'msg_1',
            status: 'completed',
            content: [{ type: 'output_text', text: 'Showing.', annotations: [] }],
          },
          { type: 'reasoning', id: 'rs_1', summary: [] },
          { ...CALL, id: 'fc_1', status: 'completed' },
          { type: 'function_call_output', call_id: 'call_1', output: 'shown' },
        ],
      }),
      [
        { role: 'user', content: 'Show hi' },
        {
          role: 'assistant',
          content: 'Showing.',
          toolCalls: [{ id: 'call_1', name: 'show_note', arguments: '{"text":"hi"}' }],
        },
        { role: 'tool', toolCallId: 'call_1', name: 'show_note', content: 'shown' },
      ],
    );
  });

  it('answers the calls a stored chain left open', () => {
    const before: ChatMessage[] = [
      { role: 'user', content: 'Show hi' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'show_note', arguments: '{}' }] },
    ];
    assert.deepEqual(
      conversation(
        { input: [{ type: 'function_call_output', call_id: 'call_1', output: [{ type: 'input_text', text: 'ok' }] }] },
        before,
      ),
      [{ role: 'tool', toolCallId: 'call_1', name: 'show_note', content: 'ok' }],
    );
    refused(
      () => conversation({ input: 'Something else' }, before),
      'previous_response_id',
      /call_1, which got no result/,
    );
  });

  it('refuses a conversation that is not whole, naming the item', () => {
    refused(
      () => conversation({ input: [{ role: 'user', content: 'Hi' }, CALL] }),
      'input[1]',
      /call_1, which got no result/,
    );
    refused(
      () => conversation({ input: [{ role: 'user', content: 'Hi' }, CALL, { role: 'user', content: 'Well?' }] }),
      'input[1]',
    );
    refused(
      () => conversation({ input: [{ type: 'function_call_output', call_id: 'call_9', output: 'ok' }] }),
      'input[0].call_id',
      /not a function_call just before it/,
    );
    refused(
      () =>
        conversation({
          input: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: 'Hello' },
          ],
        }),
      'input',
    );
    refused(() => conversation({ input: [{ type: 'reasoning', summary: [] }] }), 'input');
    refused(
      () =>
        read({
          input: [
            { role: 'user', content: 'Hi' },
            { ...CALL, arguments: '{"text":' },
          ],
        }),
      'input[1].arguments',
      /not JSON/,
    );
    // An item_reference is resolved where responses are kept (the route); one that no response has is refused.
    refused(
      () => conversation({ input: [{ type: 'item_reference', id: 'msg_1' }] }),
      'input[0].id',
      /previous_response_id/,
    );
    refused(() => read({ input: [{ type: 'item_reference' }] }), 'input[0].id');
    refused(() => read({ input: [{ type: 'web_search_call', id: 'ws_1' }] }), 'input[0].type');
    refused(() => read({ input: [{ role: 'tool', content: 'x' }] }), 'input[0].role');
    refused(() => read({ input: [] }), 'input');
  });

  it('reads a user’s image parts beside the text, and refuses file parts, naming the part', () => {
    const input = read({
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look' },
            { type: 'input_image', image_url: 'https://x/y.png', detail: 'original' },
          ],
        },
      ],
    });
    assert.deepEqual(input.items[0], {
      kind: 'message',
      role: 'user',
      text: 'Look',
      images: [{ type: 'image-url', url: 'https://x/y.png' }],
      imageAt: 'input[0].content[1]',
      at: 'input[0]',
    });
    assert.equal(input.firstImage, 'input[0].content[1]');
    refused(
      () => read({ input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] }),
      'input[0].content[0]',
    );
  });

  it('reads structured output, tool choice and sampling under the names Assistant.complete takes', () => {
    const input = read({
      input: 'Hi',
      text: {
        format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
        verbosity: 'low',
      },
      tool_choice: { type: 'function', name: 'show_note' },
      temperature: 0.2,
      top_p: 0.9,
      max_output_tokens: 256,
    });
    assert.deepEqual(input.responseFormat, {
      type: 'json_schema',
      name: 'answer',
      schema: { type: 'object' },
      strict: true,
    });
    assert.deepEqual(input.toolChoice, { name: 'show_note' });
    assert.deepEqual(input.sampling, { temperature: 0.2, topP: 0.9, maxTokens: 256 });
    assert.deepEqual(read({ input: 'Hi', text: { format: { type: 'json_object' } } }).responseFormat, {
      type: 'json_object',
    });
    const plain = read({ input: 'Hi', text: { format: { type: 'text' } }, tool_choice: 'auto' });
    assert.equal(plain.responseFormat, undefined);
    assert.equal(plain.toolChoice, 'auto');
    assert.equal(plain.sampling, undefined);
    refused(() => read({ input: 'Hi', temperature: 3 }), 'temperature');
    refused(() => read({ input: 'Hi', max_output_tokens: 1.5 }), 'max_output_tokens');
    refused(() => read({ input: 'Hi', tool_choice: 'sometimes' }), 'tool_choice');
    refused(() => read({ input: 'Hi', text: { format: { type: 'yaml' } } }), 'text.format.type');
  });

  it('takes function tools and echoes them; refuses hosted tools and what has no counterpart here', () => {
    const input = read({
      input: 'Hi',
      tools: [{ type: 'function', name: 'show_note', parameters: { type: 'object', properties: {} }, strict: false }],
      include: ['reasoning.encrypted_content'],
      parallel_tool_calls: true,
      truncation: 'disabled',
      store: false,
      metadata: { topic: 'x' },
    });
    assert.deepEqual(input.tools, [{ name: 'show_note', parameters: { type: 'object', properties: {} } }]);
    assert.deepEqual(input.toolsEcho, [
      {
        type: 'function',
        name: 'show_note',
        description: null,
        parameters: { type: 'object', properties: {} },
        strict: false,
      },
    ]);
    assert.equal(input.store, false);
    assert.deepEqual(input.metadata, { topic: 'x' });
    refused(() => read({ input: 'Hi', tools: [{ type: 'file_search' }] }), 'tools[0]', /file_search/);
    refused(() => read({ input: 'Hi', tools: [{ type: 'function', name: 'bad name' }] }), 'tools[0].name');
    refused(() => read({ input: 'Hi', background: true }), 'background');
    refused(() => read({ input: 'Hi', conversation: 'conv_1' }), 'conversation', /previous_response_id/);
    refused(() => read({ input: 'Hi', prompt: { id: 'pmpt_1' } }), 'prompt');
    refused(() => read({ input: 'Hi', stream_options: { include_obfuscation: false } }), 'stream_options');
    refused(() => read({ input: 'Hi', previous_response_id: 7 }), 'previous_response_id');
    refused(() => read({ input: 'Hi', metadata: { topic: 7 } }), 'metadata.topic');
    refused(() => readResponsesRequest({ input: 'Hi' }), 'model');
    assert.throws(
      () => readResponsesRequest({ model: 'gpt-4o', input: 'Hi' }),
      (error: unknown) => error instanceof ApiError && error.status === 404 && error.code === 'model_not_found',
    );
  });
});
