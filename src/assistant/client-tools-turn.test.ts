// Turns with the caller's own tools (an OpenAI client's `tools`), against the real local
// OpenAI-protocol server and a real tool file: offered beside ours, a call to one ends the turn for
// the caller to run, ours in the same reply run first, and the caller's results continue the turn
// with our earlier calls put back from the call memory.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChatMessage } from '../models/chat-message.ts';
import { replies } from '../models/testing/wire-server.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { Assistant } from './assistant.ts';
import { ToolRouter } from '../routing/tool-router.ts';
import { CallMemory } from './call-memory.ts';
import type { ClientTool } from './client-tools.ts';
import { FIND_TOOLS } from './offered-tools.ts';
import { runTurn } from './run-turn.ts';
import { join } from 'node:path';
import {
  assertWellFormed,
  eventually,
  loadRegistry,
  logLines,
  messagesOf,
  modelServer,
  napTool,
  sharedCleanup,
  tempDir,
  testModel,
  toolMessagesOf,
  WAIT_FOR_CANCEL_TOOL,
} from './turn-test-support.ts';

const LOOKUP_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class LookupTool extends BaseTool {
  manifest() {
    return { name: 'lookup', description: 'Looks a word up', parameters: { word: { type: 'string', required: true, description: 'The word' } }, examples: ['Look up river'] };
  }
  async execute(params) {
    return ToolResult.ok('found: ' + params.word);
  }
}
`;

const shared = sharedCleanup();
let registry: ToolRegistry;
before(async () => {
  registry = await loadRegistry(shared, { files: { 'lookup.ts': LOOKUP_TOOL } });
});
after(() => shared.run());

/** A tool the client runs: it shows a note on the client's screen. */
const SHOW_NOTE: ClientTool = {
  name: 'show_note',
  description: 'Shows a note on the screen',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string' }, color: { type: 'string', enum: ['red', 'blue'] } },
    required: ['text'],
  },
};

const toolNames = (request: { body: { tools?: Array<{ function: { name: string } }> } }) =>
  request.body.tools?.map((tool) => tool.function.name);

describe('runTurn with client tools', () => {
  it('offers them beside ours, runs our call of the same reply first, and ends with the client call', async (t) => {
    const server = await modelServer(t, {
      text: 'Looking it up. ',
      toolCalls: [
        { name: 'lookup', arguments: { word: 'river' } },
        { name: 'show_note', arguments: { text: 'river' } },
      ],
    });
    const result = await runTurn({
      model: testModel(server),
      registry,
      history: [],
      input: 'Look up river and show it',
      language: 'en',
      clientTools: [SHOW_NOTE],
    });

    assert.equal(result.stopReason, 'tool-calls', JSON.stringify(result.error));
    assert.equal(server.requests.length, 1, 'the turn ends at the client call, without asking the model again');
    assert.deepEqual(toolNames(server.requests[0]!), ['lookup', 'show_note']);
    assert.deepEqual(
      server.requests[0]!.body.tools![1]!.function.parameters,
      { ...SHOW_NOTE.parameters, additionalProperties: false },
      'compiled to the openai dialect, like ours',
    );
    // Ours ran; the client's is handed back with an id of its own, not the model server's.
    assert.equal(result.toolCalls.length, 1);
    assert.equal(result.toolCalls[0]!.tool, 'lookup');
    assert.equal(result.toolCalls[0]!.result.data, 'found: river');
    const [call] = result.clientCalls ?? [];
    assert.equal(call?.name, 'show_note');
    assert.deepEqual(JSON.parse(call.arguments), { text: 'river' });
    assert.match(call.id, /^call_[\w-]{24}$/);
    assert.equal(result.text, 'Looking it up. ');
    // The conversation so far: the reply with both calls, and our result; the client's is the caller's to add.
    const [, reply, ours] = result.messages;
    assert.deepEqual(reply, {
      role: 'assistant',
      content: 'Looking it up. ',
      toolCalls: [
        { id: 'call_1', name: 'lookup', arguments: '{"word":"river"}' },
        { id: call.id, name: 'show_note', arguments: call.arguments },
      ],
    });
    assert.deepEqual(ours, { role: 'tool', toolCallId: 'call_1', name: 'lookup', content: 'found: river' });
  });

  it('answers without stopping when the model calls only our tools', async (t) => {
    const server = await modelServer(
      t,
      replies([{ toolCalls: [{ name: 'lookup', arguments: { word: 'sea' } }] }, { text: 'Sea found.' }]),
    );
    const result = await runTurn({
      model: testModel(server),
      registry,
      history: [],
      input: 'Look up sea',
      language: 'en',
      clientTools: [SHOW_NOTE],
    });
    assert.equal(result.stopReason, 'answer');
    assert.equal(result.text, 'Sea found.');
    assert.equal(result.clientCalls, undefined);
    assert.equal(server.requests.length, 2);
  });

  it('undoes the dialect for the client: a strict model’s null for a left-out parameter is dropped', async (t) => {
    const server = await modelServer(t, { toolCalls: [{ name: 'show_note', arguments: { text: 'hi', color: null } }] });
    const result = await runTurn({
      model: testModel(server, { strictTools: true }),
      registry,
      history: [],
      input: 'Show hi',
      language: 'en',
      clientTools: [SHOW_NOTE],
    });
    assert.equal(result.stopReason, 'tool-calls');
    const shown = server.requests[0]!.body.tools![1]!.function;
    assert.equal(shown.strict, true);
    assert.deepEqual(
      (shown.parameters as { required?: string[] }).required,
      ['text', 'color'],
      'compiled to openai-strict like ours',
    );
    assert.deepEqual(JSON.parse(result.clientCalls![0]!.arguments), { text: 'hi' });
  });

  it('refuses a client tool with the name of one of ours, naming it, before asking the model', async (t) => {
    const server = await modelServer(t, { text: 'never' });
    const result = await runTurn({
      model: testModel(server),
      registry,
      history: [],
      input: 'hi',
      language: 'en',
      clientTools: [{ name: 'lookup' }],
    });
    assert.equal(result.stopReason, 'error');
    assert.equal(result.error?.code, 'tool-name-clash');
    assert.match(result.error!.message, /"lookup"/);
    assert.equal(server.requests.length, 0);
  });

  it('refuses a client tool named like one the turn offers besides the registry’s (find_tools, when it routes)', async (t) => {
    const two = await loadRegistry(t, { files: { 'lookup.ts': LOOKUP_TOOL, 'nap.ts': napTool('nap') } });
    const server = await modelServer(t, { text: 'never' });
    const routing = { router: new ToolRouter(), settings: { max_tools: 1 } };
    const result = await runTurn({
      model: testModel(server),
      registry: two,
      history: [],
      input: 'Look up river',
      language: 'en',
      routing,
      clientTools: [{ name: FIND_TOOLS }],
    });
    assert.equal(result.error?.code, 'tool-name-clash');
    assert.equal(server.requests.length, 0);
  });

  it('keeps the deadline: our call that outlives it is cancelled, and no client call is handed out', async (t) => {
    const log = join(await tempDir(t), 'log');
    const slow = await loadRegistry(t, {
      files: { 'wait.ts': WAIT_FOR_CANCEL_TOOL },
      config: { tools: { wait_for_cancel: { log_file: log } } },
    });
    const server = await modelServer(t, {
      toolCalls: [
        { name: 'wait_for_cancel', arguments: {} },
        { name: 'show_note', arguments: { text: 'late' } },
      ],
    });
    const result = await runTurn({
      model: testModel(server),
      registry: slow,
      history: [],
      input: 'Do the long job',
      language: 'en',
      clientTools: [SHOW_NOTE],
      timeoutMs: 1_500,
    });
    assert.equal(result.stopReason, 'timeout');
    assert.equal(result.error?.code, 'turn-timeout');
    assert.equal(result.clientCalls, undefined);
    await eventually(() => logLines(log).includes('aborted'), 'our tool saw its signal abort');
  });

  it('ends with invalid-client-tool, not a throw, for parameters too deep to compile', async (t) => {
    const server = await modelServer(t, { text: 'never' });
    let deep: Record<string, unknown> = { type: 'object' };
    for (let i = 0; i < 20_000; i++) deep = { type: 'object', properties: { a: deep } };
    const result = await runTurn({
      model: testModel(server),
      registry,
      history: [],
      input: 'hi',
      language: 'en',
      clientTools: [{ name: 'deep', parameters: deep }],
    });
    assert.equal(result.error?.code, 'invalid-client-tool');
    assert.match(result.error!.message, /"deep"/);
    assert.equal(server.requests.length, 0);
  });

  it('refuses client tools for a model used through the text protocol', async (t) => {
    const server = await modelServer(t, { text: 'never' });
    const result = await runTurn({
      model: testModel(server),
      registry,
      history: [],
      input: 'hi',
      language: 'ja',
      toolCalling: 'text',
      clientTools: [SHOW_NOTE],
    });
    assert.equal(result.error?.code, 'client-tools-unsupported');
    assert.match(result.text, /ネイティブ/);
    assert.equal(server.requests.length, 0);
  });
});

describe('Assistant.complete: a conversation the client keeps', () => {
  it('continues from the client’s result, with our earlier calls of both rounds put back', async (t) => {
    const server = await modelServer(
      t,
      replies([
        { toolCalls: [{ name: 'lookup', arguments: { word: 'river' } }] },
        {
          toolCalls: [
            { name: 'lookup', arguments: { word: 'sea' } },
            { name: 'show_note', arguments: { text: 'river, sea' } },
          ],
        },
        { text: 'Shown.' },
      ]),
    );
    const assistant = new Assistant({ model: testModel(server), registry });
    const memory = new CallMemory();
    const user: ChatMessage = { role: 'user', content: 'Look up river and sea, then show them' };
    const first = await assistant.complete({ messages: [user], clientTools: [SHOW_NOTE], memory });
    assert.equal(first.stopReason, 'tool-calls', JSON.stringify(first.error));
    assert.deepEqual(
      first.toolCalls.map((call) => call.result.data),
      ['found: river', 'found: sea'],
    );
    assert.equal(memory.size, 1);

    // What an OpenAI client sends next: what it was shown (the reply with its call), and its result.
    const call = first.clientCalls![0]!;
    const clientResult: ChatMessage = { role: 'tool', toolCallId: call.id, name: '', content: 'note shown' };
    const second = await assistant.complete({
      messages: [user, { role: 'assistant', content: '', toolCalls: [call] }, clientResult],
      clientTools: [SHOW_NOTE],
      memory,
    });
    assert.equal(second.stopReason, 'answer', JSON.stringify(second.error));
    assert.equal(second.text, 'Shown.');
    assert.equal(second.messages[0]?.role, 'assistant', 'a continuation adds no user message');

    const seen = messagesOf(server.requests[2]!);
    assert.deepEqual(
      toolMessagesOf(server.requests[2]!).map((message) => message.content),
      ['found: river', 'found: sea', 'note shown'],
      'the model sees its own two earlier results and the client’s',
    );
    assert.equal(seen.length, 6);
    assert.deepEqual(
      seen[3]!.tool_calls?.map((wire) => wire.id),
      ['call_1', call.id],
      'the reply that asked for both calls, as the model wrote it',
    );
  });

  it('without a remembered turn, sends the client’s conversation as it is', async (t) => {
    const server = await modelServer(t, { text: 'ok' });
    const assistant = new Assistant({ model: testModel(server), registry });
    const call = { id: 'call_unknown', name: 'show_note', arguments: '{"text":"x"}' };
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Show x' },
      { role: 'assistant', content: '', toolCalls: [call] },
      { role: 'tool', toolCallId: call.id, name: '', content: 'done' },
    ];
    const result = await assistant.complete({ messages, clientTools: [SHOW_NOTE], memory: new CallMemory() });
    assert.equal(result.stopReason, 'answer');
    const seen = messagesOf(server.requests[0]!);
    assert.equal(seen.length, 3);
    assertWellFormed(messages);
  });

  it('keeps the client’s system messages after ours and detects the language from the last user message', async (t) => {
    const server = await modelServer(t, { text: '好的' });
    const assistant = new Assistant({ model: testModel(server), registry });
    const result = await assistant.complete({
      messages: [{ role: 'user', content: '你好，今天怎么样？' }],
      system: 'Always be brief.',
    });
    assert.equal(result.stopReason, 'answer');
    const system = String(server.requests[0]!.body.messages[0]!.content);
    assert.ok(system.startsWith('你是 Riverse'), system);
    assert.ok(system.includes('\n\nAlways be brief.'), system);
  });
});
