// What goes wrong in a turn, against the real local OpenAI-protocol server and real tool files:
// failing tools reach the model, a failing call is not repeated forever, model faults and
// cancellation end the turn with a stop reason and a well-formed history.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { replies } from '../models/testing/wire-server.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { runTurn } from './run-turn.ts';
import type { TurnEvent } from './turn-events.ts';
import {
  assertWellFormed,
  eventually,
  EXPLODE_TOOL,
  loadRegistry,
  logLines,
  modelServer,
  sharedCleanup,
  systemOf,
  tempDir,
  testModel,
  textDeltas,
  toolMessagesOf,
  WAIT_FOR_CANCEL_TOOL,
  wttrServer,
} from './turn-test-support.ts';

const shared = sharedCleanup();
let tools: ToolRegistry;
/** Where explode and wait_for_cancel write what they did. */
let explodeLog: string;
let waitLog: string;
before(async () => {
  const wttr = await wttrServer(shared);
  const logs = await tempDir(shared, 'riverse-tool-logs-');
  explodeLog = join(logs, 'explode.log');
  waitLog = join(logs, 'wait.log');
  tools = await loadRegistry(shared, {
    wttrUrl: wttr.url,
    files: { 'explode.ts': EXPLODE_TOOL, 'wait_for_cancel.ts': WAIT_FOR_CANCEL_TOOL },
    config: { tools: { explode: { log_file: explodeLog }, wait_for_cancel: { log_file: waitLog } } },
  });
});
after(() => shared.run());

/** A one-round turn whose call is `call`; returns the result and the tool message the model got. */
async function failingCall(
  t: { after(fn: () => unknown): void },
  call: { name: string; arguments: Record<string, unknown> | string },
) {
  const server = await modelServer(
    t,
    replies([{ toolCalls: [{ ...call, id: 'call_1' }] }, { text: 'Sorry, that did not work.' }]),
  );
  const result = await runTurn({
    model: testModel(server),
    registry: tools,
    history: [],
    input: 'Do it',
    language: 'en',
  });
  assert.equal(result.stopReason, 'answer', 'a failed tool is no failed turn');
  assert.equal(result.text, 'Sorry, that did not work.');
  assert.equal(server.requests.length, 2, 'the failure went back to the model');
  assertWellFormed(result.messages);
  const sent = toolMessagesOf(server.requests[1]!);
  assert.equal(sent.length, 1);
  assert.equal(sent[0]!.tool_call_id, 'call_1');
  assert.ok(sent[0]!.content!.startsWith('Error: '), `the model is told it failed: ${sent[0]!.content}`);
  const stored = result.messages[2]!;
  assert.ok(stored.role === 'tool' && stored.isError === true);
  return { result, content: sent[0]!.content!, record: result.toolCalls[0]! };
}

describe('runTurn: tool failures reach the model', () => {
  it('a tool that throws', async (t) => {
    const { content, record } = await failingCall(t, { name: 'explode', arguments: { what: 'the bridge' } });
    assert.equal(record.result.code, 'threw');
    assert.match(content, /explode failed: the fuse was lit/);
  });

  it('invalid arguments: a required parameter missing', async (t) => {
    const { content, record } = await failingCall(t, { name: 'weather', arguments: {} });
    assert.equal(record.result.code, 'invalid-params');
    assert.match(content, /missing required parameter "city"/);
    assert.match(content, /Expected:/);
  });

  it('arguments that are not JSON', async (t) => {
    const { content, record } = await failingCall(t, { name: 'weather', arguments: '{"city": "Tok' });
    assert.equal(record.result.code, 'invalid-params');
    assert.equal(record.params, '{"city": "Tok', 'the raw text is kept for the trace');
    assert.match(content, /The arguments for weather are not valid JSON/);
    assert.match(content, /Send a JSON object/);
  });

  it('an unknown tool name: the message lists the real tools', async (t) => {
    const { content, record } = await failingCall(t, { name: 'wether', arguments: { city: 'Tokyo' } });
    assert.equal(record.result.code, 'unknown-tool');
    assert.match(content, /Unknown tool "wether"/);
    assert.match(content, /Available tools: explode, wait_for_cancel, weather\./);
  });

  it('the same failing call is run twice at most, then the turn ends with a final request without tools', async (t) => {
    let round = 0;
    const server = await modelServer(t, (request) =>
      request.body.tools !== undefined
        ? { toolCalls: [{ name: 'explode', arguments: { what: 'the bridge' }, id: `call_${++round}` }] }
        : { text: 'The explode tool keeps failing: the fuse was lit.' },
    );
    const runsBefore = logLines(explodeLog).length;
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Blow up the bridge',
      language: 'en',
    });
    assert.equal(result.stopReason, 'loop-stopped');
    assert.equal(result.text, 'The explode tool keeps failing: the fuse was lit.');
    assert.equal(logLines(explodeLog).length - runsBefore, 2, 'the tool itself ran twice');
    assert.deepEqual(
      result.toolCalls.map((call) => call.result.code),
      ['threw', 'threw', 'repeated'],
    );
    assert.equal(server.requests.length, 4);
    assert.equal(result.requests, 4);
    const last = server.requests[3]!;
    assert.equal(last.body.tools, undefined, 'the final request offers no tools');
    assert.match(systemOf(last), /The same tool call kept failing/);
    const repeated = toolMessagesOf(last)[2]!;
    assert.equal(repeated.tool_call_id, 'call_3');
    assert.match(repeated.content!, /already failed 2 times in this turn and was not run again/);
    assertWellFormed(result.messages);
  });

  it('a failing call with other arguments is still run', async (t) => {
    let round = 0;
    const server = await modelServer(t, (request) =>
      request.body.tools !== undefined && round < 3
        ? { toolCalls: [{ name: 'explode', arguments: { what: `bridge ${++round}` }, id: `call_${round}` }] }
        : { text: 'All failed.' },
    );
    const runsBefore = logLines(explodeLog).length;
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Blow up three bridges',
      language: 'en',
    });
    assert.equal(result.stopReason, 'answer');
    assert.equal(logLines(explodeLog).length - runsBefore, 3);
    assert.deepEqual(
      result.toolCalls.map((call) => call.result.code),
      ['threw', 'threw', 'threw'],
    );
  });
});

describe('runTurn: model faults', () => {
  it('429 with Retry-After: waits as asked, then succeeds', async (t) => {
    const server = await modelServer(
      t,
      replies([
        { status: 429, error: 'Rate limit reached for requests', headers: { 'retry-after': '0.2' } },
        { text: 'Here I am.' },
      ]),
    );
    const started = performance.now();
    const events: TurnEvent[] = [];
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Hello',
      language: 'en',
      onEvent: (event) => events.push(event),
    });
    const elapsed = performance.now() - started;
    assert.equal(result.stopReason, 'answer');
    assert.equal(result.text, 'Here I am.');
    assert.equal(server.requests.length, 2);
    assert.equal(result.requests, 2, 'the retry is counted');
    assert.ok(elapsed >= 190, `waited ${Math.round(elapsed)} ms, the server asked for 200 ms`);
    const retries = events.flatMap((event) => (event.type === 'model-retry' ? [event] : []));
    assert.equal(retries.length, 1, 'the wait is announced');
    const [retry] = retries;
    assert.deepEqual([retry!.attempt, retry!.delayMs, retry!.error.code], [1, 200, 'rate-limited']);
    assert.match(retry!.error.message, /Rate limit reached for requests/);
  });

  it('500s exhausting the retries: stopReason error, code server-error, the user message kept', async (t) => {
    const server = await modelServer(t, { status: 500, error: 'upstream exploded' });
    const result = await runTurn({
      model: testModel(server, { maxRetries: 2 }),
      registry: tools,
      history: [],
      input: 'Hello?',
      language: 'en',
    });
    assert.equal(result.stopReason, 'error');
    assert.equal(result.error?.code, 'server-error');
    assert.match(result.error!.message, /HTTP 500.*upstream exploded/);
    assert.match(result.text, /^The model could not answer: .*upstream exploded/);
    assert.equal(server.requests.length, 3, 'the first try and two retries');
    assert.equal(result.requests, 3);
    assert.deepEqual(result.messages, [{ role: 'user', content: 'Hello?' }]);
    assert.deepEqual(result.toolCalls, []);
  });

  it('a failure after a round of calls keeps the calls and their results', async (t) => {
    const server = await modelServer(
      t,
      replies([{ toolCalls: [{ name: 'weather', arguments: { city: 'Tokyo' } }] }, { status: 500, error: 'down' }]),
    );
    const result = await runTurn({
      model: testModel(server, { maxRetries: 0 }),
      registry: tools,
      history: [],
      input: 'Weather in Tokyo?',
      language: 'en',
    });
    assert.equal(result.stopReason, 'error');
    assert.deepEqual(
      result.messages.map((message) => message.role),
      ['user', 'assistant', 'tool'],
    );
    assertWellFormed(result.messages);
  });

  it('a stream cut mid-way is asked again once, with a retry event', async (t) => {
    const server = await modelServer(
      t,
      replies([
        { text: 'The first attempt at an answer that breaks off', cutAfterChunks: 3 },
        { text: 'The whole answer.' },
      ]),
    );
    const events: TurnEvent[] = [];
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Hello',
      language: 'en',
      onEvent: (event) => events.push(event),
    });
    assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
    assert.equal(result.text, 'The whole answer.');
    assert.equal(server.requests.length, 2);
    assert.equal(result.requests, 2);
    const retry = events.findIndex((event) => event.type === 'retry');
    assert.ok(retry > 0, 'a retry event');
    assert.ok(textDeltas(events.slice(0, retry)).length > 0, 'the broken reply had started');
    assert.equal(textDeltas(events.slice(retry)).join(''), 'The whole answer.');
    assert.deepEqual(result.messages, [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'The whole answer.' },
    ]);
  });

  it('a stream cut twice ends the turn with stream-cut', async (t) => {
    const server = await modelServer(t, { text: 'An answer that always breaks off', cutAfterChunks: 3 });
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Hello',
      language: 'en',
    });
    assert.equal(result.stopReason, 'error');
    assert.equal(result.error?.code, 'stream-cut');
    assert.equal(server.requests.length, 2);
  });

  it('a model that never answers times out', { timeout: 30_000 }, async (t) => {
    const server = await modelServer(t, { hang: true });
    const result = await runTurn({
      model: testModel(server, { timeoutMs: 150, maxRetries: 0 }),
      registry: tools,
      history: [],
      input: 'Hello',
      language: 'en',
    });
    assert.equal(result.stopReason, 'error');
    assert.equal(result.error?.code, 'timeout');
    assert.match(result.error!.message, /within 0\.15 s/, 'its own silence limit, not the test model’s 10 s');
    assert.equal(server.requests.length, 1, 'no retry');
    assert.deepEqual(result.messages, [{ role: 'user', content: 'Hello' }]);
  });
});

// In these the server never answers, or stops sending, and the test model's silence limit is 10 s (code
// `timeout`): what ends them with `aborted` within the test's timeout is the abort.
describe('runTurn: cancellation', () => {
  it('aborting during the model request ends the turn at once', { timeout: 30_000 }, async (t) => {
    const controller = new AbortController();
    // Aborts once the server holds the request, before any header.
    const server = await modelServer(t, () => {
      controller.abort();
      return { hang: true };
    });
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Hello',
      language: 'en',
      signal: controller.signal,
    });
    assert.equal(result.stopReason, 'aborted');
    assert.equal(result.error?.code, 'aborted');
    assert.equal(result.text, 'Cancelled.');
    assert.equal(server.requests.length, 1);
    assert.deepEqual(result.messages, [{ role: 'user', content: 'Hello' }]);
  });

  it('aborting while a reply streams ends the turn at once', { timeout: 30_000 }, async (t) => {
    // The role chunk and the first word, then nothing.
    const server = await modelServer(t, {
      text: 'a b c d e f g h i j k l m n o p q r s t u v w x y z',
      hangAfterChunks: 2,
    });
    const controller = new AbortController();
    let aborted = false;
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Spell the alphabet',
      language: 'en',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'text-delta' && !aborted) {
          aborted = true;
          controller.abort();
        }
      },
    });
    assert.equal(result.stopReason, 'aborted');
    assert.equal(result.error?.code, 'aborted');
    assert.equal(server.requests.length, 1, 'a cancelled stream is not retried');
    assert.deepEqual(result.messages, [{ role: 'user', content: 'Spell the alphabet' }]);
  });

  // The tool works until its signal fires (its own limit is 60 s).
  it('aborting during a slow tool fires its signal and ends the turn at once, the history well-formed', {
    timeout: 30_000,
  }, async (t) => {
    const server = await modelServer(
      t,
      replies([
        {
          toolCalls: [
            { name: 'weather', arguments: { city: 'Tokyo' }, id: 'call_weather' },
            { name: 'wait_for_cancel', arguments: {}, id: 'call_wait' },
          ],
        },
        { text: 'never asked' },
      ]),
    );
    const controller = new AbortController();
    const linesBefore = logLines(waitLog).length;
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Do the long job',
      language: 'en',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'tool-call' && event.tool === 'wait_for_cancel') {
          // Cancel once the tool is at work (it may run in a worker thread that takes a while to start).
          void eventually(() => logLines(waitLog).length > linesBefore, 'the tool to start').then(() =>
            controller.abort(),
          );
        }
      },
    });
    assert.equal(result.stopReason, 'aborted');
    await eventually(
      () => logLines(waitLog).slice(linesBefore).includes('aborted'),
      "the tool's context.signal to fire",
    );
    assert.deepEqual(logLines(waitLog).slice(linesBefore), ['started', 'aborted']);
    assert.equal(server.requests.length, 1, 'no request after the abort');

    assertWellFormed(result.messages);
    assert.deepEqual(
      result.messages.map((message) => message.role),
      ['user', 'assistant', 'tool', 'tool'],
    );
    const [weather, wait] = result.toolCalls;
    assert.equal(weather?.result.success, true, 'the call that had finished keeps its result');
    assert.equal(wait?.result.code, 'aborted');
    const waitMessage = result.messages[3]!;
    assert.ok(waitMessage.role === 'tool' && waitMessage.toolCallId === 'call_wait' && waitMessage.isError === true);
  });

  it('a signal aborted before the turn starts sends nothing', async (t) => {
    const server = await modelServer(t, { text: 'never' });
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Hello',
      language: 'en',
      signal: AbortSignal.abort(),
    });
    assert.equal(result.stopReason, 'aborted');
    assert.equal(server.requests.length, 0);
    assert.deepEqual(result.messages, [{ role: 'user', content: 'Hello' }]);
  });
});
