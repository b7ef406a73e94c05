// /v1 judged by the OpenAI Agents SDK (0.20) on Chat Completions (its OpenAIChatCompletionsModel):
// an agent's `outputType` is structured output, checked by the service and parsed by the SDK.
// (Its default, the Responses API, is judged with /v1/responses.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';
import type { ReplySpec } from '../../models/testing/openai-wire.ts';
import { replies } from '../../models/testing/wire-server.ts';
import { openaiService } from './openai-test-support.ts';

setTracingDisabled(true);

describe('/v1 with the Agents SDK on Chat Completions', () => {
  it("an agent's outputType: the schema reaches the model, our tool runs first, the output is parsed", async (t) => {
    const { model, service } = await openaiService(
      t,
      replies<ReplySpec>([
        { toolCalls: [{ name: 'lookup', arguments: { word: 'Paris' } }] },
        { text: '{"city":"Paris","celsius":21}' },
      ]),
    );
    const client = new OpenAI({ baseURL: `${service.url}v1`, apiKey: 'unused', maxRetries: 0 });
    const agent = new Agent({
      name: 'weather',
      instructions: 'Say the weather.',
      model: new OpenAIChatCompletionsModel(client, 'riverse'),
      outputType: z.object({ city: z.string(), celsius: z.number() }),
    });
    const result = await run(agent, 'Weather in Paris?');
    assert.deepEqual(result.finalOutput, { city: 'Paris', celsius: 21 });
    const format = model.requests.at(-1)!.body.response_format as { type: string };
    assert.equal(format.type, 'json_schema');
    assert.equal(model.requests.length, 2);
  });
});
