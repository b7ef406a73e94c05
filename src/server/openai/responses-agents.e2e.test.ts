// /v1/responses judged by the OpenAI Agents SDK 0.20 on its default settings (the Responses API,
// whole conversations sent back, no previous_response_id), with a client pointed at the service:
// a plain `run` after `setDefaultOpenAIClient`, our tool behind it; then, as the default provider
// keeps the first client it is given, runners with the SDK's own OpenAI provider for each test's
// service: a client-side function tool's round trip, and `run(..., { stream: true })`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Agent, OpenAIProvider, Runner, run, setDefaultOpenAIClient, setTracingDisabled, tool } from '@openai/agents';
import type OpenAI from 'openai';
import { z } from 'zod';
import type { OpenAITestServer, ReplySpec } from '../../models/testing/openai-wire.ts';
import { replies } from '../../models/testing/wire-server.ts';
import { openaiService } from './openai-test-support.ts';

// Traces go to OpenAI's own service, which a test does not reach; the model calls are the judge.
setTracingDisabled(true);

/**
 * A runner on its defaults but for the client: the SDK's own OpenAI provider, with its own default
 * API; the paths the client asked for are kept, to show which API that is.
 */
function runner(client: OpenAI): Runner & { paths: string[] } {
  const { client: recording, paths } = recorded(client);
  return Object.assign(new Runner({ modelProvider: new OpenAIProvider({ openAIClient: recording }) }), { paths });
}

/** The client, keeping the path of every request it makes. */
function recorded(client: OpenAI): { client: OpenAI; paths: string[] } {
  const paths: string[] = [];
  const recording = client.withOptions({
    fetch: (url: string | URL | Request, init?: RequestInit) => {
      paths.push(new URL(url instanceof Request ? url.url : url).pathname);
      return fetch(url, init);
    },
  });
  return { client: recording, paths };
}

const toolContents = (model: OpenAITestServer, index: number) =>
  model.requests[index]!.body.messages.filter((message) => message.role === 'tool').map((message) => message.content);

describe('/v1/responses with the Agents SDK', () => {
  it('answers a plain run, our tool run behind it', async (t) => {
    const { client, model } = await openaiService(
      t,
      replies<ReplySpec>([
        { toolCalls: [{ name: 'lookup', arguments: { word: 'river' } }] },
        { text: 'A stream of water.' },
      ]),
    );
    const agent = new Agent({ name: 'Helper', instructions: 'Answer briefly.', model: 'riverse' });
    const { client: recording, paths } = recorded(client);
    setDefaultOpenAIClient(recording);
    const result = await run(agent, 'What does river mean?');
    assert.equal(result.finalOutput, 'A stream of water.');
    assert.deepEqual(paths, ['/v1/responses']);
    assert.deepEqual(toolContents(model, 1), ['found: river']);
    const system = model.requests[0]!.body.messages.find((message) => message.role === 'system');
    assert.match(String(system?.content), /Answer briefly\.$/);
  });

  it('runs its own function tool when the model calls it, and finishes the turn with its result', async (t) => {
    const { client, model } = await openaiService(
      t,
      replies<ReplySpec>([
        { toolCalls: [{ name: 'lookup', arguments: { word: 'river' } }] },
        { toolCalls: [{ name: 'show_note', arguments: { text: 'found: river' } }] },
        { text: 'The note is shown.' },
      ]),
    );
    const shown: string[] = [];
    const showNote = tool({
      name: 'show_note',
      description: 'Shows a note on the screen',
      parameters: z.object({ text: z.string() }),
      execute: async ({ text }) => {
        shown.push(text);
        return 'shown';
      },
    });
    const agent = new Agent({ name: 'Helper', instructions: 'Use the tools.', model: 'riverse', tools: [showNote] });
    const agents = runner(client);
    const result = await agents.run(agent, 'Look up river and show it');
    assert.equal(result.finalOutput, 'The note is shown.');
    assert.deepEqual(agents.paths, ['/v1/responses', '/v1/responses']);
    assert.deepEqual(shown, ['found: river']);
    // The second request to us carried the SDK's function_call_output; our lookup was put back before it.
    assert.equal(model.requests.length, 3);
    assert.deepEqual(toolContents(model, 2), ['found: river', 'shown']);
  });

  it('streams a run: text deltas as they come, then the final output', async (t) => {
    const { client } = await openaiService(t, { text: 'Streaming works well.' });
    const agent = new Agent({ name: 'Helper', instructions: 'Answer.', model: 'riverse' });
    const agents = runner(client);
    const result = await agents.run(agent, 'Say something', { stream: true });
    let text = '';
    for await (const event of result.toTextStream()) text += event;
    await result.completed;
    assert.equal(text, 'Streaming works well.');
    assert.equal(result.finalOutput, 'Streaming works well.');
    assert.deepEqual(agents.paths, ['/v1/responses']);
  });
});
