import assert from 'node:assert/strict';
import { realpath } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { startAnthropicTestServer } from '../../models/testing/anthropic-wire.ts';
import { startGeminiTestServer } from '../../models/testing/gemini-wire.ts';
import { startOpenAITestServer } from '../../models/testing/openai-wire.ts';
import {
  ADD_ONE_TOOL,
  createProject,
  ECHO_TOOL,
  GREET_TOOL,
  parseJson,
  show,
  type TempProject,
} from '../cli-test-support.ts';

describe('riverse tools show', { concurrency: 4 }, () => {
  let project: TempProject;
  let root: string;
  before(async () => {
    project = await createProject({
      'agent/tools/echo.ts': ECHO_TOOL,
      'agent/tools/add.ts': ADD_ONE_TOOL,
      'agent/tools/greet.ts': GREET_TOOL,
      'riverse.yaml': 'tools:\n  greet:\n    enabled: false\n',
    });
    root = await realpath(project.dir);
  });
  after(() => project?.remove());

  test('prints the manifest, the signature and the JSON Schema models are given', async () => {
    const result = await project.run(['tools', 'show', 'echo']);
    assert.equal(result.code, 0, show(result));
    const [text, schemaText] = result.stdout.split('JSON Schema given to models:\n');
    assert.equal(
      text,
      [
        'echo — Echoes the text back',
        'source:    agent/tools/echo.ts',
        'status:    available',
        'signature: echo(text: string, times?: integer = 1)',
        'parameters:',
        '  text: string — The text to echo',
        '  times?: integer — How many times',
        'examples:',
        '  - Echo hello',
        '  - Say "hi" back to me',
        '',
        '',
      ].join('\n'),
      show(result),
    );
    assert.deepEqual(JSON.parse(schemaText!), {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'The text to echo' },
        times: { type: 'integer', description: 'How many times', default: 1 },
      },
      required: ['text'],
      additionalProperties: false,
    });
  });

  test('--json prints name, file, status, manifest and schema', async () => {
    const result = await project.run(['tools', 'show', 'add_one', '--json']);
    assert.equal(result.code, 0, show(result));
    const output = parseJson(result);
    assert.equal(output.name, 'add_one');
    assert.equal(output.file, `${root}/agent/tools/add.ts`);
    assert.equal(output.available, true);
    assert.equal(output.manifest.description, 'Adds one to a whole number');
    assert.deepEqual(output.manifest.examples, ['What is 3 plus one?', 'Increment 41']);
    assert.deepEqual(output.schema, {
      type: 'object',
      properties: { n: { type: 'integer', description: 'The number' } },
      required: ['n'],
      additionalProperties: false,
    });
  });

  test('--lang zh picks the Chinese descriptions and examples', async () => {
    const result = await project.run(['tools', 'show', 'echo', '--lang', 'zh']);
    assert.equal(result.code, 0, show(result));
    assert.match(result.stdout, /^echo — 原样返回文本$/m);
    assert.match(result.stdout, /^ {2}text: string — 要返回的文本$/m);
    // No Chinese text for this one: English is the fallback.
    assert.match(result.stdout, /^ {2}times\?: integer — How many times$/m);
    assert.match(result.stdout, /^ {2}- 回显 你好$/m);
    assert.doesNotMatch(result.stdout, /Echoes the text back|Echo hello/);
    // The labels are Chinese too: the command speaks the language it was asked for.
    assert.match(result.stdout, /^源文件：agent\/tools\/echo\.ts$/m);
    assert.match(result.stdout, /^状态： {2}可用$/m);
    const schema = JSON.parse(result.stdout.split('提供给模型的 JSON Schema：\n')[1]!);
    assert.equal(schema.properties.text.description, '要返回的文本');
  });

  test('--dialect prints the tool as that adapter sends it, examples in the description', async () => {
    const strict = await project.run(['tools', 'show', 'echo', '--dialect', 'openai-strict']);
    assert.equal(strict.code, 0, show(strict));
    assert.deepEqual(parseJson(strict), {
      type: 'function',
      function: {
        name: 'echo',
        description: 'Echoes the text back\nExamples: "Echo hello"; "Say \\"hi\\" back to me"',
        parameters: {
          type: 'object',
          properties: {
            text: { type: 'string', description: 'The text to echo' },
            times: { type: ['integer', 'null'], description: 'How many times (default: 1)' },
          },
          required: ['text', 'times'],
          additionalProperties: false,
        },
        strict: true,
      },
    });
    const gemini = await project.run(['tools', 'show', 'echo', '--dialect', 'gemini', '--lang', 'ja']);
    assert.equal(gemini.code, 0, show(gemini));
    assert.deepEqual(parseJson(gemini), {
      name: 'echo',
      description: 'テキストをそのまま返す\n例: "Echo hello"; "Say \\"hi\\" back to me"',
      parameters: {
        type: 'object',
        properties: {
          text: { type: 'string', description: '返すテキスト' },
          times: { type: 'integer', description: 'How many times (default: 1)' },
        },
        required: ['text'],
      },
    });
    const wrong = await project.run(['tools', 'show', 'echo', '--dialect', 'cohere']);
    assert.equal(wrong.code, 2, show(wrong));
    assert.match(wrong.stderr, /Allowed choices are openai, openai-strict, anthropic, gemini, local/);
    const local = await project.run(['tools', 'show', 'echo', '--dialect', 'local']);
    assert.equal(local.code, 0, show(local));
    assert.match(
      local.stdout,
      /^- echo: Echoes the text back\nExamples: .* Parameters \(JSON Schema\): \{"type":"object",/,
    );
  });

  // What is printed is what is sent: `ask` with each provider against its local wire server, and the
  // bytes of the tool in the request body it received.
  const providers = [
    [
      'openai',
      async () => startOpenAITestServer({ text: 'ok' }),
      (url: string) => ({ RIVERSE_MODEL: 'openai:test', OPENAI_BASE_URL: url, OPENAI_API_KEY: 'k' }),
    ],
    [
      'openai-strict',
      async () => startOpenAITestServer({ text: 'ok' }),
      (url: string) => ({
        RIVERSE_MODEL: 'openai:test',
        OPENAI_BASE_URL: url,
        OPENAI_API_KEY: 'k',
        RIVERSE_CONFIG: 'strict.yaml',
      }),
    ],
    [
      'anthropic',
      async () => startAnthropicTestServer({ text: 'ok' }),
      (url: string) => ({ RIVERSE_MODEL: 'anthropic:test', ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'k' }),
    ],
    [
      'gemini',
      async () => startGeminiTestServer({ text: 'ok' }),
      (url: string) => ({ RIVERSE_MODEL: 'gemini:test', GEMINI_BASE_URL: url, GEMINI_API_KEY: 'k' }),
    ],
  ] as const;
  for (const [dialect, start, env] of providers) {
    test(`--dialect ${dialect} --json prints the very bytes the adapter sends`, async () => {
      await project.write(
        'strict.yaml',
        'model_options:\n  strict_tools: true\ntools:\n  greet:\n    enabled: false\n',
      );
      const server = await start();
      try {
        const asked = await project.run(['ask', 'hello'], { env: env(server.url) });
        assert.equal(asked.code, 0, show(asked));
        const printed = await project.run(['tools', 'show', 'echo', '--dialect', dialect, '--json']);
        assert.equal(printed.code, 0, show(printed));
        const sent = server.requests[0]!.raw;
        assert.ok(
          printed.stdout.endsWith('\n') && sent.includes(printed.stdout.slice(0, -1)),
          `printed:\n${printed.stdout}\nsent:\n${sent}`,
        );
        assert.deepEqual(
          JSON.parse((await project.run(['tools', 'show', 'echo', '--dialect', dialect])).stdout),
          JSON.parse(printed.stdout),
          'indented, the same value',
        );
      } finally {
        await server.close();
      }
    });
  }

  test('an unavailable tool is shown with the reason', async () => {
    const result = await project.run(['tools', 'show', 'greet']);
    assert.equal(result.code, 0, show(result));
    assert.match(result.stdout, /^status: {4}unavailable: turned off in the config \(tools\.greet\.enabled: false\)$/m);
  });

  test('an unknown name: exit 2 and the tools that do exist', async () => {
    const result = await project.run(['tools', 'show', 'ecko']);
    assert.equal(result.code, 2, show(result));
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /Unknown tool "ecko" \(did you mean "echo"\?\)\. Available tools: add_one, echo\./);
  });
});
