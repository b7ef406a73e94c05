// Reading a /v1/chat/completions body: the conversation as a turn takes it, and a refusal naming
// the field at fault for each way a body can be wrong.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../api-error.ts';
import { firstImageAt, readCompletionRequest } from './read-completion-request.ts';

const call = { id: 'c1', type: 'function', function: { name: 'show_note', arguments: '{"text":"x"}' } };

function refusal(body: Record<string, unknown>): { status: number; param: string | undefined; message: string } {
  try {
    readCompletionRequest({ model: 'riverse', ...body });
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return { status: error.status, param: error.param, message: error.message };
  }
  assert.fail(`accepted ${JSON.stringify(body)}`);
}

describe('readCompletionRequest', () => {
  it('reads the conversation: system messages set apart, text parts joined, results named after their calls', () => {
    const input = readCompletionRequest({
      model: 'riverse',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Show' },
            { type: 'text', text: 'x' },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'c1', content: 'shown' },
        { role: 'developer', content: 'Use English.' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'show_note', parameters: { type: 'object', properties: { text: { type: 'string' } } } },
        },
      ],
    });
    assert.deepEqual(input, {
      messages: [
        { role: 'user', content: 'Show\nx' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'show_note', arguments: '{"text":"x"}' }] },
        { role: 'tool', toolCallId: 'c1', name: 'show_note', content: 'shown' },
      ],
      system: 'Be brief.\n\nUse English.',
      tools: [{ name: 'show_note', parameters: { type: 'object', properties: { text: { type: 'string' } } } }],
      stream: true,
      includeUsage: true,
      sampling: { temperature: 0.2 },
    });
  });

  it('reads the sampling fields in our names, max_completion_tokens over max_tokens, one stop as a list', () => {
    const input = readCompletionRequest({
      model: 'riverse',
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0,
      top_p: 0.5,
      max_tokens: 10,
      max_completion_tokens: 20,
      stop: 'END',
      seed: 7,
      presence_penalty: -1,
      frequency_penalty: 1.5,
    });
    assert.deepEqual(input.sampling, {
      temperature: 0,
      topP: 0.5,
      maxTokens: 20,
      stop: ['END'],
      seed: 7,
      presencePenalty: -1,
      frequencyPenalty: 1.5,
    });
  });

  it('reads response_format and every form of tool_choice', () => {
    const base = { model: 'riverse', messages: [{ role: 'user', content: 'hi' }] };
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    assert.deepEqual(
      readCompletionRequest({
        ...base,
        response_format: { type: 'json_schema', json_schema: { name: 'thing', schema, strict: true } },
      }).responseFormat,
      { type: 'json_schema', name: 'thing', schema, strict: true },
    );
    assert.deepEqual(readCompletionRequest({ ...base, response_format: { type: 'json_object' } }).responseFormat, {
      type: 'json_object',
    });
    assert.equal(readCompletionRequest({ ...base, response_format: { type: 'text' } }).responseFormat, undefined);
    assert.equal(readCompletionRequest({ ...base, tool_choice: 'auto' }).toolChoice, undefined);
    assert.equal(readCompletionRequest({ ...base, tool_choice: 'none' }).toolChoice, 'none');
    assert.equal(readCompletionRequest({ ...base, tool_choice: 'required' }).toolChoice, 'required');
    assert.deepEqual(
      readCompletionRequest({ ...base, tool_choice: { type: 'function', function: { name: 'lookup' } } }).toolChoice,
      { name: 'lookup' },
    );
  });

  it('refuses a model other than riverse with 404', () => {
    assert.deepEqual(refusal({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).status, 404);
  });

  const user = { role: 'user', content: 'hi' };
  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['no messages', { messages: [] }, 'messages', /non-empty array/],
    ['an unknown role', { messages: [{ role: 'function', content: 'x' }] }, 'messages[0].role', /old form of "tool"/],
    [
      'an image that is neither a data: URL nor a link',
      { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] },
      'messages[0].content[0].image_url.url',
      /must be a data: URL or an http\(s\) link/,
    ],
    [
      'a data: URL that is not a base64 image',
      {
        messages: [
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:text/plain;base64,aGk=' } }] },
        ],
      },
      'messages[0].content[0].image_url.url',
      /not a base64 image/,
    ],
    [
      'audio beside a picture',
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
              { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
            ],
          },
        ],
      },
      'messages[0].content[1]',
      /\(input_audio\): a user message takes text parts.*and pictures/,
    ],
    [
      'an image in a system message',
      {
        messages: [
          { role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' } }] },
          user,
        ],
      },
      'messages[0].content[0]',
      /image_url.*only text parts/,
    ],
    [
      'a call without its result',
      { messages: [user, { role: 'assistant', content: '', tool_calls: [call] }, user] },
      'messages[1].tool_calls',
      /c1 got no result/,
    ],
    [
      'a result without its call',
      { messages: [user, { role: 'tool', tool_call_id: 'c9', content: 'x' }] },
      'messages[1].tool_call_id',
      /"c9", which is not a call/,
    ],
    [
      'an assistant message last',
      { messages: [user, { role: 'assistant', content: 'hello' }] },
      'messages',
      /last message/,
    ],
    [
      'arguments that are not text',
      { messages: [user, { role: 'assistant', tool_calls: [{ ...call, function: { name: 'f', arguments: {} } }] }] },
      'messages[1].tool_calls[0].function.arguments',
      /JSON text/,
    ],
    [
      'stream_options without stream',
      { messages: [user], stream_options: { include_usage: true } },
      'stream_options',
      /only allowed when "stream" is true/,
    ],
    ['two answers', { messages: [user], n: 2 }, 'n', /must be 1/],
    ['an unknown tool_choice', { messages: [user], tool_choice: 'any' }, 'tool_choice', /"auto", "none", "required"/],
    [
      'a tool_choice without a name',
      { messages: [user], tool_choice: { type: 'function', function: {} } },
      'tool_choice.function.name',
      /must name a tool/,
    ],
    ['a temperature out of bounds', { messages: [user], temperature: 3 }, 'temperature', /from 0 to 2; it is 3/],
    ['max_tokens that is not whole', { messages: [user], max_tokens: 1.5 }, 'max_tokens', /whole number/],
    ['a stop that is not text', { messages: [user], stop: [1] }, 'stop', /string or an array of strings/],
    [
      'a response_format of no known type',
      { messages: [user], response_format: { type: 'xml' } },
      'response_format.type',
      /json_schema/,
    ],
    [
      'a response_format schema that does not compile',
      {
        messages: [user],
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'no-such-type' } } },
      },
      'response_format.json_schema.schema',
      /not a JSON Schema/,
    ],
    [
      'tool_calls arguments that are not JSON',
      {
        messages: [
          user,
          { role: 'assistant', tool_calls: [{ ...call, function: { name: 'f', arguments: '{"a": ' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'x' },
        ],
      },
      'messages[1].tool_calls[0].function.arguments',
      /must be a JSON object as text/,
    ],
    [
      'a tool with a bad name',
      { messages: [user], tools: [{ type: 'function', function: { name: 'no spaces' } }] },
      'tools[0].function.name',
      /letters, digits/,
    ],
    [
      'two tools of one name',
      {
        messages: [user],
        tools: [
          { type: 'function', function: { name: 'a' } },
          { type: 'function', function: { name: 'a' } },
        ],
      },
      'tools[1].function.name',
      /two tools are named "a"/,
    ],
    [
      'parameters nested too deep',
      {
        messages: [user],
        tools: [
          {
            type: 'function',
            function: { name: 'a', parameters: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) },
          },
        ],
      },
      'tools[0].function.parameters',
      /nested more than 32/,
    ],
  ];
  for (const [what, body, param, message] of cases) {
    it(`refuses ${what}, naming ${param}`, () => {
      const refused = refusal(body);
      assert.equal(refused.status, 400);
      assert.equal(refused.param, param);
      assert.match(refused.message, message);
    });
  }

  it("reads a user's pictures beside the text: a data: URL as its base64 text, a link as it is, and where the first one is", () => {
    const body = {
      model: 'riverse',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/PNG;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://pictures.test/cat.jpg', detail: 'low' } },
          ],
        },
      ],
    };
    const input = readCompletionRequest(body);
    assert.deepEqual(input.messages, [
      {
        role: 'user',
        content: 'What is this?',
        images: [
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'image-url', url: 'https://pictures.test/cat.jpg', detail: 'low' },
        ],
      },
    ]);
    assert.equal(firstImageAt(body), 'messages[1].content[1]');
  });
});
