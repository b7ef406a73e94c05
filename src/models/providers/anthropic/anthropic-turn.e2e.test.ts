// The turn loop over the Anthropic adapter, end to end: the real local Messages-API server, the
// seed's weather tool (and temporary tool files) loaded from disk, a local wttr.in.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runTurn } from '../../../assistant/run-turn.ts';
import {
  AGENT_TOOLS,
  assertWellFormed,
  type Cleanup,
  eventOrder,
  eventually,
  logLines,
  napTool,
  sharedCleanup,
  SKY,
  STREAMED_ORDER,
  tempDir,
  textDeltas,
  UNSTREAMED_ORDER,
  WAIT_FOR_CANCEL_TOOL,
  WEATHER_CONVERSATIONS,
  writeFiles,
  wttrServer,
  type WttrServer,
} from '../../../assistant/turn-test-support.ts';
import type { TurnEvent } from '../../../assistant/turn-events.ts';
import { ToolRegistry } from '../../../tool-runtime/tool-registry.ts';
import { createAnthropicModel } from './anthropic.ts';
import type { AnthropicBlock } from './anthropic-wire-types.ts';
import type { ChatModel } from '../../chat-model.ts';
import {
  startAnthropicTestServer,
  type AnthropicTestServer,
  type ReplyHandler,
  type ReplySpec,
} from '../../testing/anthropic-wire.ts';
import { replies } from '../../testing/wire-server.ts';

const shared = sharedCleanup();
let wttr: WttrServer;
let weatherTools: ToolRegistry;
before(async () => {
  wttr = await wttrServer(shared);
  weatherTools = await ToolRegistry.load({
    folders: [AGENT_TOOLS],
    config: { tools: { weather: { base_url: wttr.url } } },
    isolation: 'none',
  });
  assert.deepEqual(
    weatherTools.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
    [],
  );
});
after(() => shared.run());

async function claude(t: Cleanup, handler: ReplyHandler | ReplySpec): Promise<AnthropicTestServer> {
  const server = await startAnthropicTestServer(handler);
  t.after(() => server.close());
  return server;
}

function modelOn(server: AnthropicTestServer): ChatModel {
  return createAnthropicModel({
    model: 'claude-test',
    baseUrl: server.url,
    apiKey: 'sk-ant-test',
    retryDelayMs: 5,
    timeoutMs: 10_000,
  });
}

/** Tools from the seed's folder and `files` written to a temp folder, loaded in this thread. */
async function toolsWith(
  t: Cleanup,
  files: Record<string, string>,
  config: Record<string, Record<string, unknown>> = {},
): Promise<ToolRegistry> {
  const dir = await tempDir(t, 'riverse-anthropic-tools-');
  await writeFiles(dir, files);
  const registry = await ToolRegistry.load({
    folders: [AGENT_TOOLS, dir],
    config: { tools: { weather: { base_url: wttr.url }, ...config } },
    isolation: 'none',
  });
  assert.deepEqual(
    registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
    [],
  );
  return registry;
}

/** A text reply's events up to and with its first word: message_start, content_block_start, ping, the word. */
const FIRST_WORD = 4;
const blocks = (content: string | AnthropicBlock[] | undefined): AnthropicBlock[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : (content ?? []);

describe('runTurn over Anthropic: the weather conversation', () => {
  for (const language of ['en', 'zh', 'ja'] as const) {
    for (const stream of [true, false]) {
      it(`${language}, ${stream ? 'streamed' : 'not streamed'}: tool_use → tool_result → the reply`, async (t) => {
        const talk = WEATHER_CONVERSATIONS[language];
        const server = await claude(
          t,
          replies([{ toolCalls: [{ name: 'weather', input: { city: talk.city } }] }, { text: talk.answer }]),
        );
        const events: TurnEvent[] = [];
        const wttrSeen = wttr.requests.length;
        const result = await runTurn({
          model: modelOn(server),
          registry: weatherTools,
          history: [],
          input: talk.input,
          language,
          stream,
          onEvent: (event) => events.push(event),
        });

        assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
        assert.equal(result.text, talk.answer);
        assert.equal(server.requests.length, 2, 'one round of calls costs exactly two requests');
        const [first, second] = server.requests.map((request) => request.body) as [
          AnthropicTestServer['requests'][0]['body'],
          AnthropicTestServer['requests'][0]['body'],
        ];

        // The first request: the system prompt top-level, the tool in the user's language, the message.
        assert.ok(first.system?.startsWith(talk.system), first.system);
        assert.equal(first.stream, stream ? true : undefined);
        const tool = first.tools?.find((candidate) => candidate.name === 'weather');
        assert.ok(tool?.description.startsWith(talk.description), tool?.description);
        assert.deepEqual((tool?.input_schema as { required?: string[] } | undefined)?.required, ['city']);
        assert.deepEqual(first.messages, [{ role: 'user', content: talk.input }]);

        // The tool ran against the local wttr.in, in the user's language.
        assert.deepEqual(wttr.requests.slice(wttrSeen), [{ city: talk.city, lang: language }]);
        assert.deepEqual(result.toolCalls[0]?.params, { city: talk.city });

        // The second: the call as tool_use with its input parsed, the result as a tool_result.
        assert.deepEqual(second.messages, [
          { role: 'user', content: talk.input },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: talk.city } }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: talk.toolSays }] },
        ]);
        assert.ok(second.tools !== undefined, 'the tools are offered again after the results');

        assert.deepEqual(result.messages, [
          { role: 'user', content: talk.input },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'toolu_1', name: 'weather', arguments: JSON.stringify({ city: talk.city }) }],
          },
          { role: 'tool', toolCallId: 'toolu_1', name: 'weather', content: talk.toolSays },
          { role: 'assistant', content: talk.answer },
        ]);
        assertWellFormed(result.messages);
        assert.deepEqual(eventOrder(events), stream ? STREAMED_ORDER : UNSTREAMED_ORDER);
        assert.equal(textDeltas(events).join(''), talk.answer);
        if (stream) assert.ok(textDeltas(events).length > 1, 'a streamed reply arrives in pieces');
        assert.ok(result.usage.inputTokens! > 0 && result.usage.outputTokens! > 0, 'usage is counted');

        // The next turn sends this one back as history, still valid for Anthropic.
        const next = await claude(t, { text: 'You are welcome.' });
        const thanks = await runTurn({
          model: modelOn(next),
          registry: weatherTools,
          history: result.messages,
          input: 'Thanks!',
          language,
          stream,
        });
        assert.equal(thanks.stopReason, 'answer', JSON.stringify(thanks.error));
        assert.deepEqual(
          next.requests[0]!.body.messages.map((message) => message.role),
          ['user', 'assistant', 'user', 'assistant', 'user'],
        );
      });
    }
  }

  it('the last round goes without tools, and the history is told as text so that Anthropic accepts it', async (t) => {
    const server = await claude(t, (request) =>
      request.body.tools !== undefined
        ? { toolCalls: [{ name: 'weather', input: { city: 'Tokyo' } }] }
        : { text: 'Tokyo is at 16 °C.' },
    );
    const result = await runTurn({
      model: modelOn(server),
      registry: weatherTools,
      history: [],
      input: 'Keep checking Tokyo',
      language: 'en',
      maxRounds: 1,
    });
    assert.equal(result.stopReason, 'round-limit', JSON.stringify(result.error));
    assert.equal(result.text, 'Tokyo is at 16 °C.');
    const last = server.requests[1]!.body;
    assert.equal(last.tools, undefined);
    assert.deepEqual(blocks(last.messages[1]?.content), [
      { type: 'text', text: '[called tool weather with {"city":"Tokyo"}]' },
    ]);
    assert.deepEqual(blocks(last.messages[2]?.content), [
      {
        type: 'text',
        text: `[result of tool weather: Tokyo: ${SKY.en}, 16°C (feels like 14°C), humidity 63%, wind 11 km/h]`,
      },
    ]);
  });
});

describe('runTurn over Anthropic: several tools in one round', () => {
  it('run in parallel; their results go back in call order as one user message, failures flagged', async (t) => {
    const tools = await toolsWith(t, { 'nap_a.ts': napTool('nap_a'), 'nap_b.ts': napTool('nap_b') });
    const server = await claude(
      t,
      replies([
        {
          text: 'Let me do all of that.',
          toolCalls: [
            { name: 'nap_a', input: { ms: 200 }, id: 'toolu_a' },
            { name: 'weather', input: { city: 'Atlantis' }, id: 'toolu_w' },
            { name: 'nap_b', input: { ms: 150 }, id: 'toolu_b' },
          ],
          argumentPieces: 2,
        },
        { text: 'Both naps done; Atlantis is unknown.' },
      ]),
    );
    const events: TurnEvent[] = [];
    const result = await runTurn({
      model: modelOn(server),
      registry: tools,
      history: [],
      input: 'Nap twice and check Atlantis',
      language: 'en',
      onEvent: (event) => events.push(event),
    });
    assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
    assert.equal(result.text, 'Both naps done; Atlantis is unknown.');
    assert.deepEqual(
      result.toolCalls.map((call) => [call.callId, call.tool, call.result.success]),
      [
        ['toolu_a', 'nap_a', true],
        ['toolu_w', 'weather', false],
        ['toolu_b', 'nap_b', true],
      ],
    );
    const times = result.toolCalls
      .filter((call) => call.tool.startsWith('nap'))
      .map((call) => JSON.parse(call.result.data) as { start: number; end: number });
    assert.ok(
      Math.max(times[0]!.start, times[1]!.start) < Math.min(times[0]!.end, times[1]!.end),
      'the naps overlapped',
    );
    assert.deepEqual(
      new Set(events.flatMap((event) => (event.type === 'tool-call-delta' ? [event.index] : []))),
      new Set([0, 1, 2]),
    );

    const [, assistant, results] = server.requests[1]!.body.messages;
    assert.deepEqual(blocks(assistant?.content), [
      { type: 'text', text: 'Let me do all of that.' },
      { type: 'tool_use', id: 'toolu_a', name: 'nap_a', input: { ms: 200 } },
      { type: 'tool_use', id: 'toolu_w', name: 'weather', input: { city: 'Atlantis' } },
      { type: 'tool_use', id: 'toolu_b', name: 'nap_b', input: { ms: 150 } },
    ]);
    const sent = blocks(results?.content);
    assert.equal(results?.role, 'user');
    assert.deepEqual(
      sent.map((block) => block.type === 'tool_result' && [block.tool_use_id, block.is_error ?? false]),
      [
        ['toolu_a', false],
        ['toolu_w', true],
        ['toolu_b', false],
      ],
    );
    const failed = sent[1];
    assert.ok(
      failed?.type === 'tool_result' && failed.content?.startsWith('Error: ') && failed.content.includes('Atlantis'),
      JSON.stringify(failed),
    );
    assert.equal(server.requests[1]!.body.messages.length, 3);
  });
});

describe('runTurn over Anthropic: cancellation', () => {
  // The server sends nothing after the first word: only the abort can end the turn within the test's timeout.
  it('aborting while the reply streams ends the turn at once, without a retry', { timeout: 20_000 }, async (t) => {
    const server = await claude(t, {
      text: 'a b c d e f g h i j k l m n o p q r s t u v w x y z',
      hangAfterChunks: FIRST_WORD,
    });
    const controller = new AbortController();
    let aborted = false;
    const result = await runTurn({
      model: modelOn(server),
      registry: weatherTools,
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
    assert.equal(server.requests.length, 1);
    assert.deepEqual(result.messages, [{ role: 'user', content: 'Spell the alphabet' }]);
  });

  // The slow tool works until its signal fires (its own limit is 60 s): only the abort can end the turn in time.
  it('aborting during a slow tool ends the turn; the next turn sends the results merged with the new message', {
    timeout: 20_000,
  }, async (t) => {
    const logs = await tempDir(t, 'riverse-anthropic-logs-');
    const waitLog = join(logs, 'wait.log');
    const tools = await toolsWith(
      t,
      { 'wait_for_cancel.ts': WAIT_FOR_CANCEL_TOOL },
      { wait_for_cancel: { log_file: waitLog } },
    );
    const server = await claude(
      t,
      replies([
        {
          toolCalls: [
            { name: 'weather', input: { city: 'Tokyo' }, id: 'toolu_weather' },
            { name: 'wait_for_cancel', input: {}, id: 'toolu_wait' },
          ],
        },
        { text: 'Sorry about the long job. Tokyo is at 16 °C.' },
      ]),
    );
    const controller = new AbortController();
    let weatherDone = false;
    const result = await runTurn({
      model: modelOn(server),
      registry: tools,
      history: [],
      input: 'Check Tokyo and do the long job',
      language: 'en',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'tool-result' && event.call.tool === 'weather') weatherDone = true;
        if (event.type === 'tool-call' && event.tool === 'wait_for_cancel') {
          // Cancel once the weather call has its result and the long job is at work.
          void eventually(() => weatherDone && logLines(waitLog).length > 0, 'the tools to get going').then(() =>
            controller.abort(),
          );
        }
      },
    });
    assert.equal(result.stopReason, 'aborted');
    await eventually(() => logLines(waitLog).includes('aborted'), "the tool's signal to fire");
    assert.equal(server.requests.length, 1, 'no request after the abort');
    assertWellFormed(result.messages);

    const next = await runTurn({
      model: modelOn(server),
      registry: tools,
      history: result.messages,
      input: 'Never mind the job.',
      language: 'en',
    });
    assert.equal(next.stopReason, 'answer', JSON.stringify(next.error));
    const sent = server.requests[1]!.body.messages;
    assert.deepEqual(
      sent.map((message) => message.role),
      ['user', 'assistant', 'user'],
    );
    const merged = blocks(sent[2]?.content);
    assert.deepEqual(
      merged.map((block) => block.type),
      ['tool_result', 'tool_result', 'text'],
    );
    assert.ok(
      merged[0]?.type === 'tool_result' &&
        merged[0].tool_use_id === 'toolu_weather' &&
        merged[0].is_error === undefined,
      JSON.stringify(merged[0]),
    );
    assert.ok(
      merged[1]?.type === 'tool_result' && merged[1].tool_use_id === 'toolu_wait' && merged[1].is_error === true,
    );
    assert.deepEqual(merged[2], { type: 'text', text: 'Never mind the job.' });
  });

  it('a signal aborted before the turn starts sends nothing', async (t) => {
    const server = await claude(t, { text: 'never' });
    const result = await runTurn({
      model: modelOn(server),
      registry: weatherTools,
      history: [],
      input: 'Hello',
      language: 'en',
      signal: AbortSignal.abort(),
    });
    assert.equal(result.stopReason, 'aborted');
    assert.equal(server.requests.length, 0);
  });
});
