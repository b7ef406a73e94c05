import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startOpenAITestServer, type OpenAITestServer } from '../../models/testing/openai-wire.ts';
import { createProject, ECHO_TOOL, parseJson, show, type TempProject } from '../cli-test-support.ts';

const tool = (
  className: string,
  name: string,
  description: string,
  examples: string[],
) => `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';

export class ${className} extends BaseTool {
  manifest(): ToolManifest {
    return { name: '${name}', description: ${JSON.stringify(description)}, parameters: { city: 'The city' }, examples: ${JSON.stringify(examples)} };
  }

  async execute() {
    return ToolResult.ok('done');
  }
}
`;

const WEATHER = tool('Weather', 'get_weather', 'Weather forecast for a city: rain, sun, temperature', [
  'What is the forecast for Paris tomorrow?',
  'What temperature is it in Rome?',
]);
// Its second example shares no word with the rest of the tool, and speaks of rain: it reaches the weather tool.
const TRANSLATE = tool('Translate', 'translate', 'Translate text into another language', [
  'Translate this into French',
  'What is thank you in another language?',
]);
const NOTES = tool('Notes', 'take_note', 'Write a note down for later', [
  'Note down my shopping list',
  'Remember that it will rain on the picnic',
]);

describe('riverse tools eval', () => {
  let project: TempProject;
  let clean: TempProject;
  before(async () => {
    project = await createProject({ 'agent/tools/weather.ts': WEATHER, 'agent/tools/notes.ts': NOTES });
    clean = await createProject({
      'agent/tools/weather.ts': WEATHER,
      'agent/tools/translate.ts': TRANSLATE,
      'agent/tools/echo.ts': ECHO_TOOL,
    });
  });
  after(async () => {
    await project?.remove();
    await clean?.remove();
  });

  test('lists each example that does not reach its tool, with what it reached instead, and exits 1', async () => {
    const result = await project.run(['tools', 'eval', '--k', '1']);
    assert.equal(result.code, 1, show(result));
    assert.match(result.stdout, /✗ take_note: "Remember that it will rain on the picnic" reached get_weather/);
    assert.match(result.stdout, /1 of 4 examples do not reach their tool in the top 1\./);
  });

  test('--json gives the misses as data', async () => {
    const result = await project.run(['tools', 'eval', '--k', '1', '--json']);
    assert.equal(result.code, 1, show(result));
    const report = parseJson(result);
    assert.equal(report.k, 1);
    assert.equal(report.examples, 4);
    assert.deepEqual(report.misses, [
      { tool: 'take_note', example: 'Remember that it will rain on the picnic', reached: ['get_weather'] },
    ]);
  });

  test('replays the examples of every language; one that shares no word with any tool reached none', async () => {
    const result = await clean.run(['tools', 'eval', '--json']);
    assert.equal(result.code, 1, show(result));
    const report = parseJson(result);
    // echo: two English and two Chinese examples; the others two each.
    assert.equal(report.examples, 8);
    assert.ok(
      report.misses.some(
        (miss: { tool: string; example: string; reached: string[] }) =>
          miss.tool === 'echo' && miss.example === '回显 你好' && miss.reached.length === 0,
      ),
      result.stdout,
    );
  });

  test('exits 0 when every example reaches its tool, and says so in the language asked for', async () => {
    await clean.write('riverse.yaml', 'tools:\n  echo:\n    enabled: false\n');
    const result = await clean.run(['tools', 'eval', '--lang', 'ja']);
    assert.equal(result.code, 0, show(result));
    assert.match(result.stdout, /2 個のツールの例 4 件すべてが上位 3 以内で自分のツールに届きます。/);
  });
});

describe('riverse tools eval --model', () => {
  let project: TempProject;
  let server: OpenAITestServer;
  before(async () => {
    // A model that calls the weather tool for what sounds like weather, and answers anything else itself.
    server = await startOpenAITestServer((request) => {
      const said = String(request.body.messages.at(-1)?.content ?? '');
      return /forecast|temperature/i.test(said)
        ? { toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] }
        : { text: 'I can do that myself.' };
    });
    project = await createProject({
      'agent/tools/weather.ts': WEATHER,
      'agent/tools/translate.ts': TRANSLATE,
      'riverse.yaml': `model: openai:test-model\nmodel_options:\n  base_url: ${server.url}\n  api_key: k\n  max_retries: 0\n`,
    });
  });
  after(async () => {
    await project?.remove();
    await server?.close();
  });

  test("sends each example to the model with the tools a turn offers, and lists those it does not answer with the example's tool", async () => {
    const result = await project.run(['tools', 'eval', '--model', '--json']);
    assert.equal(result.code, 1, show(result));
    const report = parseJson(result);
    assert.deepEqual(report.misses, [], 'the router reaches every tool');
    assert.equal(report.model.model, 'openai:test-model');
    assert.equal(report.model.examples, 4);
    assert.deepEqual(
      report.model.misses.map((miss: { tool: string; reached: string[] }) => [miss.tool, miss.reached]),
      [
        ['translate', []],
        ['translate', []],
      ],
    );
    // One request per example, each with the tools and the example as the user's message, not streamed.
    assert.equal(server.requests.length, 4);
    for (const request of server.requests) {
      assert.deepEqual((request.body.tools ?? []).map((tool) => tool.function.name).sort(), [
        'get_weather',
        'translate',
      ]);
      assert.equal(request.body.messages.at(-1)?.role, 'user');
    }
    const text = await project.run(['tools', 'eval', '--model']);
    assert.equal(text.code, 1, show(text));
    assert.match(text.stdout, /✗ translate: "Translate this into French" — the model called no tool/);
    assert.match(text.stdout, /openai:test-model does not call the example's tool for 2 of 4 examples\./);
  });
});
