// The request's top-level fields (sampling, tool choice, response format) in each adapter's wire,
// read from the body each one builds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ModelRequest, ToolDefinition } from './chat-model.ts';
import { anthropicRequestBody } from './providers/anthropic/anthropic-request.ts';
import { GeminiCallMemory } from './providers/gemini/gemini-call-memory.ts';
import { requestBody as geminiBody } from './providers/gemini/gemini-request.ts';
import { replySchema } from './providers/local/local-llama-grammar.ts';
import { bodyText } from './http-transport.ts';
import { requestBody } from './providers/openai/openai-request.ts';

const openaiBody = (...args: Parameters<typeof requestBody>) => bodyText(requestBody(...args));

const tools: ToolDefinition[] = [
  { name: 'lookup', description: 'Looks up', parameters: { type: 'object', properties: { word: { type: 'string' } } } },
  { name: 'note', description: 'Notes', parameters: { type: 'object', properties: {} } },
];
const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { a: { type: 'string' } },
};
const base: ModelRequest = {
  messages: [{ role: 'user', content: 'hi' }],
  sampling: {
    temperature: 0.3,
    topP: 0.9,
    maxTokens: 77,
    stop: ['END'],
    seed: 5,
    presencePenalty: 1,
    frequencyPenalty: -1,
  },
};

describe('the request fields on each wire', () => {
  it('Chat Completions: its own names, max_completion_tokens for OpenAI itself, tool_choice only with tools', () => {
    const body = JSON.parse(
      openaiBody('"m"', {
        ...base,
        tools,
        toolChoice: { name: 'lookup' },
        responseFormat: { type: 'json_schema', name: 'x', schema, strict: true },
      }),
    );
    assert.deepEqual(
      [
        body.temperature,
        body.top_p,
        body.max_tokens,
        body.stop,
        body.seed,
        body.presence_penalty,
        body.frequency_penalty,
      ],
      [0.3, 0.9, 77, ['END'], 5, 1, -1],
    );
    assert.deepEqual(body.tool_choice, { type: 'function', function: { name: 'lookup' } });
    assert.deepEqual(body.response_format, { type: 'json_schema', json_schema: { name: 'x', schema, strict: true } });
    const own = JSON.parse(openaiBody('"m"', base, undefined, 'max_completion_tokens'));
    assert.equal(own.max_completion_tokens, 77);
    assert.equal(own.max_tokens, undefined);
    assert.equal(JSON.parse(openaiBody('"m"', { ...base, toolChoice: 'required' })).tool_choice, undefined);
  });

  it('Anthropic: max_tokens, temperature over top_p, stop_sequences, tool_choice, structured output when strict', () => {
    const body = JSON.parse(
      anthropicRequestBody('"m"', 4096, {
        ...base,
        tools,
        toolChoice: 'required',
        responseFormat: { type: 'json_schema', name: 'x', schema, strict: true },
      }),
    );
    assert.equal(body.max_tokens, 77);
    assert.equal(body.temperature, 0.3);
    assert.equal(body.top_p, undefined);
    assert.deepEqual(body.stop_sequences, ['END']);
    assert.equal(body.seed, undefined);
    assert.deepEqual(body.tool_choice, { type: 'any' });
    assert.deepEqual(body.output_config, {
      format: { type: 'json_schema', schema: { type: 'object', properties: { a: { type: 'string' } } } },
    });
    const named = JSON.parse(
      anthropicRequestBody('"m"', 4096, { messages: base.messages, tools, toolChoice: { name: 'note' } }),
    );
    assert.deepEqual(named.tool_choice, { type: 'tool', name: 'note' });
    assert.equal(named.max_tokens, 4096);
    const loose = JSON.parse(
      anthropicRequestBody('"m"', 4096, { messages: base.messages, responseFormat: { type: 'json_object' } }),
    );
    assert.equal(loose.output_config, undefined);
  });

  it('Gemini: generationConfig in its names, JSON mode only without tools, toolConfig modes', () => {
    const memory = new GeminiCallMemory();
    const plain = JSON.parse(
      geminiBody({ ...base, responseFormat: { type: 'json_schema', name: 'x', schema } }, memory),
    );
    assert.deepEqual(plain.generationConfig, {
      temperature: 0.3,
      topP: 0.9,
      maxOutputTokens: 77,
      stopSequences: ['END'],
      seed: 5,
      presencePenalty: 1,
      frequencyPenalty: -1,
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object', properties: { a: { type: 'string' } } },
    });
    const withTools = JSON.parse(
      geminiBody(
        { messages: base.messages, tools, toolChoice: { name: 'lookup' }, responseFormat: { type: 'json_object' } },
        memory,
      ),
    );
    assert.equal(withTools.generationConfig, undefined);
    assert.deepEqual(withTools.toolConfig, {
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lookup'] },
    });
    const none = JSON.parse(geminiBody({ messages: base.messages, tools, toolChoice: 'none' }, memory));
    assert.deepEqual(none.toolConfig, { functionCallingConfig: { mode: 'NONE' } });
  });

  it('a local model: the grammar holds a tool choice (a call and no answer; one tool)', () => {
    const branches = (choice?: Parameters<typeof replySchema>[1]) =>
      (replySchema(tools, choice).oneOf as { properties: { tool?: { const: string }; answer?: object } }[]).map(
        (branch) => branch.properties.tool?.const ?? 'answer',
      );
    assert.deepEqual(branches(), ['lookup', 'note', 'answer']);
    assert.deepEqual(branches('required'), ['lookup', 'note']);
    assert.deepEqual(branches({ name: 'note' }), ['note']);
  });
});
