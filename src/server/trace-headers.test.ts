// A caller's trace context on /v1 (chat completions, responses) and /api/chat becomes the turn's
// parent: the stored trace has the caller's trace id, and the model requests carry a traceparent in
// it. A malformed one is ignored (a new trace). The real service, the local OpenAI-protocol server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chat } from './server-test-support.ts';
import { openaiService } from './openai/openai-test-support.ts';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const TRACEPARENT = `00-${TRACE}-b7ad6b7169203331-01`;
const traceOf = (header: unknown) => String(header).split('-')[1];

describe('traceparent on a request', () => {
  it('/v1/chat/completions, /v1/responses and /api/chat: the turn continues the caller’s trace', async (t) => {
    const { model, service } = await openaiService(t, { text: 'Hello.' });
    const headers = { 'content-type': 'application/json', traceparent: TRACEPARENT, tracestate: 'vendor=1' };
    const completion = await fetch(`${service.url}v1/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: 'riverse', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    assert.equal(completion.status, 200);
    const response = await fetch(`${service.url}v1/responses`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: 'riverse', input: 'Hi', store: false }),
    });
    assert.equal(response.status, 200);
    const api = await chat(service.url, { message: 'Hi', session: 'traced' }, { traceparent: TRACEPARENT });
    assert.equal(api.status, 200);

    const traces = await service.context.store.turnTraces.list();
    assert.equal(traces.length, 3);
    for (const trace of traces) assert.equal(trace.traceId, TRACE);
    assert.equal(model.requests.length, 3);
    for (const request of model.requests) {
      assert.equal(traceOf(request.headers.traceparent), TRACE);
      assert.equal(request.headers.tracestate, undefined, 'tracestate is the exported spans’, not sent to the model');
    }
  });

  it('without one, or with a malformed one, a new trace; and no traceparent to the model while telemetry is off', async (t) => {
    const { model, service } = await openaiService(t, { text: 'Hello.' });
    for (const traceparent of [undefined, 'not-a-traceparent']) {
      const result = await fetch(`${service.url}v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(traceparent === undefined ? {} : { traceparent }) },
        body: JSON.stringify({ model: 'riverse', messages: [{ role: 'user', content: 'Hi' }] }),
      });
      assert.equal(result.status, 200);
    }
    const traces = await service.context.store.turnTraces.list();
    assert.equal(traces.length, 2);
    assert.notEqual(traces[0]!.traceId, traces[1]!.traceId);
    for (const request of model.requests) assert.equal(request.headers.traceparent, undefined);
  });
});
