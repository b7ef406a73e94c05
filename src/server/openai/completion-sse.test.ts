// The exact bytes of a streamed /v1 answer, read over raw HTTP: what every OpenAI-compatible
// client's SSE reader expects, and an error after the stream started as OpenAI sends one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { raw } from '../server-test-support.ts';
import { openaiService } from './openai-test-support.ts';

const request = {
  model: 'riverse',
  stream: true,
  stream_options: { include_usage: true },
  messages: [{ role: 'user', content: 'Say hello' }],
};

/** The frames with the id and the time, which change with every answer, made fixed. */
function frames(text: string): string[] {
  const id = /"id":"(chatcmpl-[\w-]+)"/.exec(text)?.[1];
  assert.ok(id !== undefined, text);
  assert.equal(new Set(text.match(/chatcmpl-[\w-]+/g)).size, 1, 'one id in every chunk');
  return text
    .replaceAll(id, 'ID')
    .replace(/"created":\d+/g, '"created":T')
    .split(/(?<=\n\n)/);
}

const HEAD = 'data: {"id":"ID","object":"chat.completion.chunk","created":T,"model":"riverse","choices":';

describe('/v1/chat/completions streamed, byte for byte', () => {
  it('sends the role delta, the content deltas, the finish chunk, the usage chunk, then [DONE]', async (t) => {
    const { service } = await openaiService(t, {
      text: 'Hello there.',
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
    });
    const response = await raw(service.port, '/v1/chat/completions', { method: 'POST', body: request });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'text/event-stream; charset=utf-8');
    assert.deepEqual(frames(response.text), [
      `${HEAD}[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
      `${HEAD}[{"index":0,"delta":{"content":"Hello "},"logprobs":null,"finish_reason":null}]}\n\n`,
      `${HEAD}[{"index":0,"delta":{"content":"there."},"logprobs":null,"finish_reason":null}]}\n\n`,
      `${HEAD}[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}\n\n`,
      `${HEAD}[],"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}}\n\n`,
      'data: [DONE]\n\n',
    ]);
  });

  it('without include_usage, ends with the finish chunk and [DONE]', async (t) => {
    const { service } = await openaiService(t, { text: 'Hi.' });
    const response = await raw(service.port, '/v1/chat/completions', {
      method: 'POST',
      body: { ...request, stream_options: undefined },
    });
    const sent = frames(response.text);
    assert.equal(sent.at(-2), `${HEAD}[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}\n\n`);
    assert.equal(sent.at(-1), 'data: [DONE]\n\n');
    assert.equal(sent.length, 4);
  });

  it('reports a failure after the stream started as an error event, without [DONE], and never repeats the text a retry sends again', async (t) => {
    // Every reply breaks after its second event: the turn asks once more, which breaks the same way.
    const { service, model } = await openaiService(t, { text: 'Hello there, friend.', cutAfterChunks: 2 });
    const response = await raw(service.port, '/v1/chat/completions', { method: 'POST', body: request });
    assert.equal(response.status, 200);
    assert.equal(model.requests.length, 2, 'the broken stream was asked for again once');
    const sent = frames(response.text);
    assert.equal(sent.length, 3, response.text);
    assert.equal(
      sent[1],
      `${HEAD}[{"index":0,"delta":{"content":"Hello "},"logprobs":null,"finish_reason":null}]}\n\n`,
      'the second attempt’s "Hello " is not sent again',
    );
    const error = JSON.parse(sent[2]!.slice('data: '.length)) as {
      error: { type: string; code: string; message: string; param: null };
    };
    assert.equal(error.error.type, 'server_error');
    assert.equal(error.error.code, 'stream-cut');
    assert.match(error.error.message, /model behind riverse failed/);
    assert.ok(!response.text.includes('[DONE]'));
  });
});
