// ask_user in a turn, run where tools run by default (a child process per file) and in Riverse's own
// thread: the question crosses to the turn's channel and the answer comes back to the tool.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Assistant, createOpenAICompatibleModel, ToolRegistry, type Isolation, type TurnEvent } from 'riverse';
import { startOpenAITestServer, type ReplyHandler } from '../../src/models/testing/openai-wire.ts';

const TOOL_FOLDER = fileURLToPath(new URL('.', import.meta.url));

/** The model asks the user, then says back the tool's result. */
const asking: ReplyHandler = (request) => {
  const last = request.body.messages.at(-1)!;
  if (last.role === 'tool') return { text: `Tool: ${String(last.content)}` };
  return { toolCalls: [{ name: 'ask_user', arguments: { question: 'Which city?', choices: ['Paris', 'Rome'] } }] };
};

async function setUp(
  t: { after(fn: () => unknown): void },
  isolation: Isolation,
  askConfig: Record<string, unknown> = {},
) {
  const model = await startOpenAITestServer(asking);
  t.after(() => model.close());
  const registry = await ToolRegistry.load({
    folders: [TOOL_FOLDER],
    config: { tools: { isolation, ask_user: askConfig } },
  });
  const assistant = new Assistant({
    model: createOpenAICompatibleModel({ model: 'm', baseUrl: model.url, apiKey: 'k', maxRetries: 0 }),
    registry,
  });
  return { model, assistant };
}

describe('ask_user', () => {
  for (const isolation of ['process', 'none'] as const) {
    test(`asks in the turn's channel and returns the answer (isolation: ${isolation})`, async (t) => {
      const { assistant } = await setUp(t, isolation);
      const events: TurnEvent[] = [];
      const turn = assistant.turn('Book a table', {
        onEvent: (event) => {
          events.push(event);
          if (event.type === 'question') void assistant.approvals.reply(event.questionId, 'Rome');
        },
      });
      const result = await turn;
      const question = events.find((event) => event.type === 'question');
      assert.deepEqual(question && { tool: question.tool, question: question.question, choices: question.choices }, {
        tool: 'ask_user',
        question: 'Which city?',
        choices: ['Paris', 'Rome'],
      });
      assert.equal(result.toolCalls[0]!.result.data, 'The user answered: Rome');
      assert.equal(result.text, 'Tool: The user answered: Rome');
      assert.ok(events.some((event) => event.type === 'question-ended' && event.answered));
    });
  }

  test('no answer within tools.ask_user.timeout_ms: a failure that says so', async (t) => {
    const { assistant } = await setUp(t, 'process', { timeout_ms: 50 });
    const result = await assistant.turn('Book a table');
    assert.equal(result.toolCalls[0]!.result.success, false);
    assert.match(result.toolCalls[0]!.result.error ?? '', /did not answer within \d+ s/);
  });

  test('where no one can be asked (a /v1 turn): unavailable at once', async (t) => {
    const { assistant } = await setUp(t, 'process');
    const result = await assistant.complete({ messages: [{ role: 'user', content: 'Book a table' }] });
    assert.match(result.toolCalls[0]!.result.error ?? '', /^No one can be asked here/);
  });

  test('its choices are plain strings in the schema models read, with no stray "string" description', async () => {
    const registry = await ToolRegistry.load({ folders: [TOOL_FOLDER], config: {} });
    const schema = registry.get('ask_user')!.schema as { properties: { choices: { items: unknown } } };
    assert.deepEqual(schema.properties.choices.items, { type: 'string' });
  });
});
