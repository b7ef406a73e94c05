// A tool that returns a picture, in a whole turn against each wire's real local test server: the
// image reaches the request each model server receives in its provider's own shape (OpenAI: an
// image_url part in a user message after the tool messages; Anthropic: an image block inside
// tool_result; Gemini: inlineData in the functionResponse, or after it before Gemini 3), and a
// model that cannot see gets a description with the type and size, in the turn's language.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChatModel } from '../models/chat-model.ts';
import { createAnthropicModel } from '../models/providers/anthropic/anthropic.ts';
import { createGeminiModel } from '../models/providers/gemini/gemini.ts';
import { createOpenAICompatibleModel } from '../models/providers/openai/openai-compatible.ts';
import { startAnthropicTestServer } from '../models/testing/anthropic-wire.ts';
import { startGeminiTestServer } from '../models/testing/gemini-wire.ts';
import { startOpenAITestServer } from '../models/testing/openai-wire.ts';
import { PNG_BASE64 } from '../models/testing/test-image.ts';
import { replies } from '../models/testing/wire-server.ts';
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { runTurn } from './run-turn.ts';
import { sharedCleanup, tempDir, writeFiles } from './turn-test-support.ts';

/** `chart()`: a caption, and the chart as a PNG (its bytes, as a tool that draws one has them). */
const CHART_TOOL = `import { BaseTool } from 'riverse';

export class ChartTool extends BaseTool {
  manifest() {
    return { name: 'chart', description: 'Draws the week as a chart', parameters: { week: { type: 'string', description: 'The week' } }, examples: ['Chart this week', 'Draw my week as a graph', 'Show the week in a chart'] };
  }
  async execute() {
    const png = new Uint8Array(Buffer.from('${PNG_BASE64}', 'base64'));
    return { success: true, data: 'The week, as a chart.', content: [{ type: 'text', text: 'The week, as a chart.' }, { type: 'image', data: png, mimeType: 'image/png' }] };
  }
}
`;

/** `diagram()`: an SVG, a type no model API here takes. */
const DIAGRAM_TOOL = `import { BaseTool } from 'riverse';

export class DiagramTool extends BaseTool {
  manifest() {
    return { name: 'diagram', description: 'Draws a diagram', parameters: { topic: { type: 'string', description: 'The topic' } }, examples: ['Draw a diagram', 'Diagram the plan', 'Sketch the flow'] };
  }
  async execute() {
    return { success: true, data: 'The plan.', content: [{ type: 'image', data: btoa('<svg xmlns="http://www.w3.org/2000/svg"/>'), mimeType: 'image/svg+xml' }] };
  }
}
`;

const shared = sharedCleanup();
let tools: ToolRegistry;
before(async () => {
  const dir = await tempDir(shared, 'riverse-image-tools-');
  await writeFiles(dir, { 'chart.ts': CHART_TOOL, 'diagram.ts': DIAGRAM_TOOL });
  // In the tool's own process, as a user's tool runs: the bytes cross the host's frames as they are.
  tools = await ToolRegistry.load({ folders: [dir] });
  assert.deepEqual(tools.diagnostics, []);
});
after(() => shared.run());

const turn = (model: ChatModel, language: 'en' | 'zh' | 'ja' = 'en', toolCalling?: 'text') =>
  runTurn({
    model,
    registry: tools,
    history: [],
    input: 'Chart this week',
    language,
    ...(toolCalling === undefined ? {} : { toolCalling }),
  });

type Part = { type: string; text?: string; image_url?: { url: string } };

describe('a tool result with a picture, to a model that sees', () => {
  it('OpenAI wire: the tool message keeps the text, the picture follows in a user message after it', async (t) => {
    const server = await startOpenAITestServer(
      replies([{ toolCalls: [{ name: 'chart', arguments: {} }] }, { text: 'A rising week.' }]),
    );
    t.after(() => server.close());
    const model = createOpenAICompatibleModel({ model: 'gpt-4.1', baseUrl: server.url, apiKey: 'k', vision: true });
    const result = await turn(model);
    assert.equal(result.text, 'A rising week.', JSON.stringify(result.error));
    const messages = server.requests[1]!.body.messages;
    const call = messages.find((message) => message.role === 'assistant')!.tool_calls![0]!;
    assert.deepEqual(messages.slice(-2), [
      { role: 'tool', tool_call_id: call.id, content: 'The week, as a chart.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: `Images returned by the tool chart (call ${call.id}):` },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
        ] as Part[] as unknown as string,
      },
    ]);
  });

  it('OpenAI wire, text protocol: the picture rides on the user message that tells the results', async (t) => {
    const server = await startOpenAITestServer(
      replies([{ text: '```json\n{"tool": "chart", "arguments": {}}\n```' }, { text: 'A rising week.' }]),
    );
    t.after(() => server.close());
    const model = createOpenAICompatibleModel({ model: 'gpt-4.1', baseUrl: server.url, apiKey: 'k', vision: true });
    const result = await turn(model, 'en', 'text');
    assert.equal(result.text, 'A rising week.', JSON.stringify(result.error));
    const last = server.requests[1]!.body.messages.at(-1)!;
    const parts = last.content as unknown as Part[];
    assert.equal(last.role, 'user');
    assert.match(parts[0]!.text!, /The week, as a chart\./);
    assert.deepEqual(parts.slice(1), [
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
    ]);
  });

  it('Anthropic wire: an image block inside the tool_result, after its text', async (t) => {
    // The test server holds the request to Anthropic's rules (image blocks included): a wrong shape is a 400.
    const server = await startAnthropicTestServer(
      replies([{ toolCalls: [{ name: 'chart', input: {} }] }, { text: 'A rising week.' }]),
    );
    t.after(() => server.close());
    const model = createAnthropicModel({ model: 'claude-sonnet-4-5', baseUrl: server.url, apiKey: 'k', vision: true });
    const result = await turn(model);
    assert.equal(result.text, 'A rising week.', JSON.stringify(result.error));
    const last = server.requests[1]!.body.messages.at(-1)!;
    const use = server.requests[1]!.body.messages.at(-2)!.content as { type: string; id?: string }[];
    assert.deepEqual(last, {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: use.find((block) => block.type === 'tool_use')!.id,
          content: [
            { type: 'text', text: 'The week, as a chart.' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
          ],
        },
      ],
    });
  });

  it("Anthropic wire, the last round (no tools, results told as text): the picture follows the result's text", async (t) => {
    const server = await startAnthropicTestServer(
      replies([{ toolCalls: [{ name: 'chart', input: {} }] }, { text: 'A rising week.' }]),
    );
    t.after(() => server.close());
    const model = createAnthropicModel({ model: 'claude-sonnet-4-5', baseUrl: server.url, apiKey: 'k', vision: true });
    const result = await runTurn({
      model,
      registry: tools,
      history: [],
      input: 'Chart this week',
      language: 'en',
      maxRounds: 1,
    });
    assert.equal(result.text, 'A rising week.', JSON.stringify(result.error));
    const body = server.requests[1]!.body;
    assert.equal(body.tools, undefined);
    assert.deepEqual(body.messages.at(-1)?.content, [
      { type: 'text', text: '[result of tool chart: The week, as a chart.]' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
    ]);
  });

  for (const [name, inResponse] of [
    ['gemini-3-pro-preview', true],
    ['gemini-2.5-flash', false],
    ['gemini-flash-latest', false],
  ] as const) {
    it(`Gemini wire, ${name}: inlineData ${inResponse ? 'inside the functionResponse' : 'after the functionResponse'}`, async (t) => {
      const server = await startGeminiTestServer(
        replies([{ functionCalls: [{ name: 'chart', args: {} }] }, { text: 'A rising week.' }]),
      );
      t.after(() => server.close());
      const model = createGeminiModel({ model: name, baseUrl: server.url, apiKey: 'k', vision: true });
      const result = await turn(model);
      assert.equal(result.text, 'A rising week.', JSON.stringify(result.error));
      const last = server.requests[1]!.body.contents.at(-1)!;
      const inline = { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } };
      const response = { name: 'chart', response: { content: 'The week, as a chart.' } };
      assert.deepEqual(
        last,
        inResponse
          ? { role: 'user', parts: [{ functionResponse: { ...response, parts: [inline] } }] }
          : {
              role: 'user',
              parts: [{ functionResponse: response }, { text: 'Images returned by the tool chart:' }, inline],
            },
      );
    });
  }
});

describe('a tool result with a picture, to a model that cannot see', () => {
  for (const [language, line] of [
    ['en', '[image: image/png, 75 B, not shown: this model does not take images]'],
    ['zh', '[图片：image/png, 75 B，未显示：此模型不接受图片]'],
  ] as const) {
    it(`${language}: the picture is described in the tool's result, with its type and size, and not sent`, async (t) => {
      const server = await startOpenAITestServer(
        replies([{ toolCalls: [{ name: 'chart', arguments: {} }] }, { text: 'A chart was drawn.' }]),
      );
      t.after(() => server.close());
      const model = createOpenAICompatibleModel({ model: 'deepseek-chat', baseUrl: server.url, apiKey: 'k' });
      const result = await turn(model, language);
      assert.equal(result.text, 'A chart was drawn.', JSON.stringify(result.error));
      const messages = server.requests[1]!.body.messages;
      assert.deepEqual(messages.at(-1), {
        role: 'tool',
        tool_call_id: messages.at(-2)!.tool_calls![0]!.id,
        content: `The week, as a chart.\n${line}`,
      });
      assert.ok(!server.requests[1]!.raw.includes(PNG_BASE64), 'no image bytes were sent');
      // The conversation keeps the picture itself, for a model that sees.
      const tool = result.messages.find((message) => message.role === 'tool');
      assert.equal(tool?.role === 'tool' ? tool.images?.length : 0, 1);
    });
  }
});

describe('a tool result with a picture of a type the API does not take', () => {
  it('is described with the types the model takes, and not sent (it would fail the whole request)', async (t) => {
    const server = await startOpenAITestServer(
      replies([{ toolCalls: [{ name: 'diagram', arguments: {} }] }, { text: 'A plan was drawn.' }]),
    );
    t.after(() => server.close());
    const model = createOpenAICompatibleModel({ model: 'gpt-4.1', baseUrl: server.url, apiKey: 'k', vision: true });
    const result = await turn(model);
    assert.equal(result.text, 'A plan was drawn.', JSON.stringify(result.error));
    const messages = server.requests[1]!.body.messages;
    assert.equal(messages.at(-1)?.role, 'tool', 'no user message with pictures follows');
    assert.equal(
      messages.at(-1)?.content,
      'The plan.\n[image: image/svg+xml, 41 B, not shown: this model takes only png, jpeg, webp, gif]',
    );
  });
});
