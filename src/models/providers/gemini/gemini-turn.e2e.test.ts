// The turn loop over the Gemini adapter, against the real local Gemini-protocol server, with tools
// loaded from real files: the weather conversation in three languages, several tools in one
// round, failures, and cancellation.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runTurn } from '../../../assistant/run-turn.ts';
import type { TurnEvent } from '../../../assistant/turn-events.ts';
import {
  AGENT_TOOLS,
  assertWellFormed,
  type Cleanup,
  eventOrder,
  eventually,
  EXPLODE_TOOL,
  logLines,
  napTool,
  sharedCleanup,
  tempDir,
  textDeltas,
  WAIT_FOR_CANCEL_TOOL,
  WEATHER_CONVERSATIONS,
  writeFiles,
  wttrServer,
  type WttrServer,
} from '../../../assistant/turn-test-support.ts';
import { ToolRegistry } from '../../../tool-runtime/tool-registry.ts';
import type { ChatModel } from '../../chat-model.ts';
import { createGeminiModel, type GeminiOptions } from './gemini.ts';
import type { GeminiContent, GeminiPart } from './gemini-wire-types.ts';
import {
  startGeminiTestServer,
  type GeminiRecordedRequest,
  type GeminiReplyHandler,
  type GeminiReplySpec,
  type GeminiTestServer,
} from '../../testing/gemini-wire.ts';
import { replies } from '../../testing/wire-server.ts';

const shared = sharedCleanup();
let wttr: WttrServer;
let tools: ToolRegistry;
let explodeLog: string;
let waitLog: string;
before(async () => {
  wttr = await wttrServer(shared);
  const dir = await tempDir(shared, 'riverse-gemini-tools-');
  await writeFiles(dir, {
    'nap_a.ts': napTool('nap_a'),
    'nap_b.ts': napTool('nap_b'),
    'explode.ts': EXPLODE_TOOL,
    'wait_for_cancel.ts': WAIT_FOR_CANCEL_TOOL,
  });
  explodeLog = join(dir, 'explode.log');
  waitLog = join(dir, 'wait.log');
  tools = await ToolRegistry.load({
    folders: [AGENT_TOOLS, dir],
    config: {
      tools: {
        weather: { base_url: wttr.url },
        explode: { log_file: explodeLog },
        wait_for_cancel: { log_file: waitLog },
      },
    },
    isolation: 'none',
  });
  assert.deepEqual(
    tools.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
    [],
    'the test tools load without errors',
  );
});
after(() => shared.run());

async function geminiServer(t: Cleanup, handler: GeminiReplyHandler | GeminiReplySpec): Promise<GeminiTestServer> {
  const server = await startGeminiTestServer(handler);
  t.after(() => server.close());
  return server;
}

function geminiModel(server: GeminiTestServer, options: Partial<GeminiOptions> = {}): ChatModel {
  return createGeminiModel({
    model: 'gemini-test',
    baseUrl: server.url,
    apiKey: 'AIza-test',
    maxRetries: 2,
    retryDelayMs: 5,
    timeoutMs: 10_000,
    ...options,
  });
}

const systemOf = (request: GeminiRecordedRequest) => request.body.systemInstruction?.parts[0]?.text ?? '';
const declarationOf = (request: GeminiRecordedRequest, name: string) =>
  request.body.tools?.[0]?.functionDeclarations.find((declaration) => declaration.name === name);
const partsOf = (contents: GeminiContent[], key: keyof GeminiPart) =>
  contents.flatMap((content) => content.parts.filter((part) => part[key] !== undefined));

describe('runTurn over Gemini: the weather conversation', () => {
  for (const language of ['en', 'zh', 'ja'] as const) {
    for (const stream of [true, false]) {
      it(`${language}, ${stream ? 'streamed' : 'not streamed'}: calls weather, sends the result back as a functionResponse, returns the reply`, async (t) => {
        const talk = WEATHER_CONVERSATIONS[language];
        const server = await geminiServer(
          t,
          replies([
            { functionCalls: [{ name: 'weather', args: { city: talk.city }, thoughtSignature: 'c2lnLXdlYXRoZXI=' }] },
            { text: talk.answer },
          ]),
        );
        const events: TurnEvent[] = [];
        const wttrSeen = wttr.requests.length;
        const result = await runTurn({
          model: geminiModel(server),
          registry: tools,
          history: [],
          input: talk.input,
          language,
          stream,
          onEvent: (event) => events.push(event),
        });

        assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
        assert.equal(result.text, talk.answer);
        assert.equal(server.requests.length, 2, 'one round of calls costs exactly two model requests');
        for (const request of server.requests)
          assert.equal(request.route.endpoint, stream ? 'streamGenerateContent' : 'generateContent');

        // The first request: the user's message, the system prompt and the tool in the user's language.
        const [first, second] = server.requests as [GeminiRecordedRequest, GeminiRecordedRequest];
        assert.ok(systemOf(first).startsWith(talk.system), systemOf(first));
        assert.deepEqual(first.body.contents, [{ role: 'user', parts: [{ text: talk.input }] }]);
        const weather = declarationOf(first, 'weather');
        assert.ok(weather?.description.startsWith(talk.description), weather?.description);
        assert.deepEqual(weather?.parameters, {
          type: 'object',
          properties: { city: { type: 'string', description: talk.cityDescription } },
          required: ['city'],
        });
        assert.doesNotMatch(JSON.stringify(first.body.tools), /additionalProperties/);

        // The tool ran against the local wttr.in, in the user's language.
        assert.deepEqual(wttr.requests.slice(wttrSeen), [{ city: talk.city, lang: language }]);
        const callId = result.toolCalls[0]!.callId;
        assert.match(callId, /^call_\d+_\w+$/);

        // The second request carries the call (with its signature) and its result.
        assert.deepEqual(second.body.contents, [
          { role: 'user', parts: [{ text: talk.input }] },
          {
            role: 'model',
            parts: [
              { functionCall: { name: 'weather', args: { city: talk.city } }, thoughtSignature: 'c2lnLXdlYXRoZXI=' },
            ],
          },
          { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { content: talk.toolSays } } }] },
        ]);
        assert.ok(systemOf(second).startsWith(talk.system));
        assert.ok(second.body.tools !== undefined, 'the tools are offered again after the results');

        assert.deepEqual(result.messages, [
          { role: 'user', content: talk.input },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: callId, name: 'weather', arguments: JSON.stringify({ city: talk.city }) }],
          },
          { role: 'tool', toolCallId: callId, name: 'weather', content: talk.toolSays },
          { role: 'assistant', content: talk.answer },
        ]);
        assertWellFormed(result.messages);
        const order = [
          'messages',
          ...(stream ? ['tool-call-delta'] : []),
          'messages',
          'tool-call',
          'tool-result',
          'messages',
          'text-delta',
          'messages',
          'done',
        ];
        assert.deepEqual(eventOrder(events), order);
        assert.equal(textDeltas(events).join(''), talk.answer);
        if (stream) assert.ok(textDeltas(events).length > 1, 'a streamed reply arrives in pieces');
        assert.ok(result.usage.inputTokens! > 0 && result.usage.outputTokens! > 0, 'usage is counted');
      });
    }
  }
});

describe('runTurn over Gemini: several tools in one round', () => {
  const times = (data: string) => JSON.parse(data) as { tool: string; start: number; end: number };

  it('run in parallel, and their results go back in one turn, in call order', async (t) => {
    // The first call of a tool compiles its parameter validator: not part of what the timing measures.
    for (const name of ['nap_a', 'nap_b']) assert.equal((await tools.execute(name, { ms: 0 })).success, true);
    const server = await geminiServer(
      t,
      replies([
        {
          text: 'Napping twice.',
          functionCalls: [
            { name: 'nap_a', args: { ms: 200 } },
            { name: 'nap_b', args: { ms: 150 } },
            { name: 'weather', args: { city: 'Paris' } },
          ],
        },
        { text: 'All done.' },
      ]),
    );
    const result = await runTurn({
      model: geminiModel(server),
      registry: tools,
      history: [],
      input: 'Take two naps and check Paris',
      language: 'en',
    });
    assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
    assert.equal(result.text, 'All done.');
    assert.deepEqual(
      result.toolCalls.map((call) => call.tool),
      ['nap_a', 'nap_b', 'weather'],
    );
    assert.equal(new Set(result.toolCalls.map((call) => call.callId)).size, 3, 'each call has its own id');
    const [a, b] = result.toolCalls.slice(0, 2).map((call) => times(call.result.data)) as [
      ReturnType<typeof times>,
      ReturnType<typeof times>,
    ];
    assert.ok(Math.max(a.start, b.start) < Math.min(a.end, b.end), 'the two naps overlapped');

    const contents = server.requests[1]!.body.contents;
    assert.deepEqual(
      contents.map((content) => content.role),
      ['user', 'model', 'user'],
    );
    assert.deepEqual(
      partsOf(contents, 'functionCall').map((part) => part.functionCall?.name),
      ['nap_a', 'nap_b', 'weather'],
    );
    const responses = contents[2]!.parts.map((part) => part.functionResponse!);
    assert.deepEqual(
      responses.map((response) => response.name),
      ['nap_a', 'nap_b', 'weather'],
    );
    assert.deepEqual(
      responses.slice(0, 2).map((response) => 'content' in response.response && times(response.response.content).tool),
      ['nap_a', 'nap_b'],
    );
    assert.ok('content' in responses[2]!.response && responses[2]!.response.content.startsWith('Paris: '));
    assertWellFormed(result.messages);
  });
});

describe('runTurn over Gemini: failures', () => {
  it('a tool that throws: the failure goes back as a functionResponse error, and the model answers', async (t) => {
    const server = await geminiServer(
      t,
      replies([
        { functionCalls: [{ name: 'explode', args: { what: 'the bridge' } }] },
        { text: 'Sorry, that did not work.' },
      ]),
    );
    const runsBefore = logLines(explodeLog).length;
    const result = await runTurn({
      model: geminiModel(server),
      registry: tools,
      history: [],
      input: 'Blow up the bridge',
      language: 'en',
    });
    assert.equal(result.stopReason, 'answer');
    assert.equal(result.text, 'Sorry, that did not work.');
    assert.equal(logLines(explodeLog).length - runsBefore, 1);
    const [response] = partsOf(server.requests[1]!.body.contents, 'functionResponse').map(
      (part) => part.functionResponse!,
    );
    assert.equal(response?.name, 'explode');
    assert.ok(response !== undefined && 'error' in response.response, 'sent as an error');
    assert.match(response.response.error, /^Error: .*explode failed: the fuse was lit/);
    assertWellFormed(result.messages);
  });

  it('a rejected API key ends the turn with auth, the user message kept', async (t) => {
    const server = await geminiServer(t, {
      status: 400,
      error: 'API key not valid. Please pass a valid API key.',
      errorDetails: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }],
    });
    const result = await runTurn({
      model: geminiModel(server),
      registry: tools,
      history: [],
      input: 'Hello?',
      language: 'en',
    });
    assert.equal(result.stopReason, 'error');
    assert.equal(result.error?.code, 'auth');
    assert.match(result.error!.message, /check GEMINI_API_KEY/);
    assert.equal(server.requests.length, 1, 'no retry of a bad key');
    assert.deepEqual(result.messages, [{ role: 'user', content: 'Hello?' }]);
  });

  it('an overloaded model (503) is asked again, and the turn goes on', async (t) => {
    const server = await geminiServer(
      t,
      replies([{ status: 503, error: 'The model is overloaded. Please try again later.' }, { text: 'Here I am.' }]),
    );
    const result = await runTurn({
      model: geminiModel(server),
      registry: tools,
      history: [],
      input: 'Hello',
      language: 'en',
    });
    assert.equal(result.stopReason, 'answer');
    assert.equal(result.text, 'Here I am.');
    assert.equal(server.requests.length, 2);
  });
});

describe('runTurn over Gemini: cancellation', () => {
  // The server sends nothing after the first word: only the abort can end the turn within the test's timeout.
  it('aborting while a reply streams ends the turn at once', { timeout: 20_000 }, async (t) => {
    const server = await geminiServer(t, { text: 'a b c d e f g h i j k l m n o p', hangAfterChunks: 1 });
    const controller = new AbortController();
    let aborted = false;
    const result = await runTurn({
      model: geminiModel(server),
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

  // The slow tool works until its signal fires (its own limit is 60 s): only the abort can end the turn in time.
  it("aborting during a slow tool fires the tool's signal and ends the turn, the history well-formed", {
    timeout: 20_000,
  }, async (t) => {
    const server = await geminiServer(
      t,
      replies([
        {
          functionCalls: [
            { name: 'weather', args: { city: 'Tokyo' } },
            { name: 'wait_for_cancel', args: {} },
          ],
        },
        { text: 'never asked' },
      ]),
    );
    const controller = new AbortController();
    let weatherDone = false;
    const linesBefore = logLines(waitLog).length;
    const result = await runTurn({
      model: geminiModel(server),
      registry: tools,
      history: [],
      input: 'Do the long job',
      language: 'en',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'tool-result' && event.call.tool === 'weather') weatherDone = true;
        if (event.type === 'tool-call' && event.tool === 'wait_for_cancel') {
          // Cancel once the slow tool is at work and the weather call beside it has finished.
          void eventually(() => weatherDone && logLines(waitLog).length > linesBefore, 'the tools to get going').then(
            () => controller.abort(),
          );
        }
      },
    });
    assert.equal(result.stopReason, 'aborted');
    await eventually(
      () => logLines(waitLog).slice(linesBefore).includes('aborted'),
      "the tool's context.signal to fire",
    );
    assert.equal(server.requests.length, 1, 'no request after the abort');
    assert.deepEqual(
      result.messages.map((message) => message.role),
      ['user', 'assistant', 'tool', 'tool'],
    );
    assertWellFormed(result.messages);
    assert.equal(result.toolCalls[0]?.result.success, true, 'the call that had finished keeps its result');
    assert.equal(result.toolCalls[1]?.result.code, 'aborted');
  });
});
