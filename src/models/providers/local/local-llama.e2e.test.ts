// The local provider end to end on a real llama.cpp: a tiny random-weight model written in
// milliseconds, loaded, sampled under a grammar, and driven by the real turn loop. Skipped when the
// optional node-llama-cpp is not installed.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { runTurn } from '../../../assistant/run-turn.ts';
import { ToolRegistry } from '../../../tool-runtime/tool-registry.ts';
import type { ChatModel, ModelEvent, ModelRequest, ToolDefinition } from '../../chat-model.ts';
import { writeTinyGguf } from './gguf/write-tiny-gguf.ts';
import { installCommand } from './local-llama-install.ts';
import { hasNodeLlamaCpp, loadModelFile } from './local-llama-runtime.ts';
import { createLocalModel, type LocalModelOptions } from './local-llama.ts';
import { ModelError } from '../../model-error.ts';

const skip = (await hasNodeLlamaCpp())
  ? false
  : `node-llama-cpp is not installed (optional); to run these tests: ${installCommand()}`;

// Untrained, the tiny model mostly repeats its last token; under the grammar that closes every
// string as soon as it opens, so replies are short, valid JSON. Which branch it takes (call or
// answer) is up to its weights: seed 2's call the tool, seed 1's answer (greedy sampling).
const CALLER = 2;
const ANSWERER = 1;

const WEATHER: ToolDefinition = {
  name: 'weather',
  description: 'Get the current weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'City name' } },
    required: ['city'],
    additionalProperties: false,
  },
};
const TOOLS = [WEATHER];

const ECHO_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class EchoTool extends BaseTool {
  manifest() {
    return {
      name: 'echo',
      description: 'Repeats the text it is given',
      parameters: { text: { type: 'string', required: true, description: 'Any text' } },
      examples: ['Echo hello', 'Say it back'],
    };
  }

  async execute(params) {
    return ToolResult.ok('echo: [' + params.text + ']');
  }
}
`;

describe('local model (node-llama-cpp)', { skip }, () => {
  let dir: string;
  const path = (seed: number) => join(dir, `tiny-${seed}.gguf`);
  // Threads: 1, not the default of every core. On a busy 2-core machine llama.cpp's threads wait
  // on each other: 40 tokens took 75 ms on one thread and 7–17 s on two.
  const model = (seed: number, options: Partial<LocalModelOptions> = {}): ChatModel =>
    createLocalModel({ modelPath: path(seed), threads: 1, temperature: 0, seed: 1, maxTokens: 48, ...options });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'riverse-local-llama-'));
    await Promise.all([
      writeTinyGguf(path(CALLER), { seed: CALLER }),
      writeTinyGguf(path(ANSWERER), { seed: ANSWERER }),
    ]);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('a plain completion streams text, then finishes', async () => {
    const local = model(ANSWERER, { maxTokens: 16 });
    assert.equal(local.id, `local:tiny-${ANSWERER}.gguf`);
    assert.equal(local.toolCalling, 'native');
    const events = await collect(local, {
      system: 'You are helpful.',
      messages: [{ role: 'user', content: 'Hello!' }],
    });
    const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
    assert.ok(text.length > 0, 'some text');
    const finish = events.at(-1);
    assert.equal(finish?.type, 'finish');
    assert.ok(finish.reason === 'length' || finish.reason === 'stop');
    assert.ok((finish.usage?.outputTokens ?? 0) > 0);
    assert.ok(!events.some((event) => event.type === 'tool-call'));
  });

  test('with tools, the grammar makes the reply a valid call of one of them', async () => {
    const events = await collect(model(CALLER), {
      system: 'You are helpful.',
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: TOOLS,
    });
    const calls = events.flatMap((event) => (event.type === 'tool-call' ? [event.call] : []));
    assert.equal(calls.length, 1, `one call in ${JSON.stringify(events)}`);
    const call = calls[0]!;
    assert.equal(call.name, 'weather');
    assert.match(call.id, /\S/);
    const args: unknown = JSON.parse(call.arguments);
    const validate = new Ajv({ strict: false }).compile(WEATHER.parameters);
    assert.ok(validate(args), `${call.arguments} fits the schema: ${JSON.stringify(validate.errors)}`);
    assert.deepEqual(finishOf(events), { reason: 'tool-calls' });
    assert.ok(!events.some((event) => event.type === 'text-delta'), 'the JSON is not shown as text');
  });

  test('a model that takes the answer branch answers, without a call', async () => {
    const events = await collect(model(ANSWERER), { messages: [{ role: 'user', content: 'Hello!' }], tools: TOOLS });
    assert.ok(!events.some((event) => event.type === 'tool-call'));
    assert.deepEqual(finishOf(events), { reason: 'stop' });
  });

  test('runTurn: a grammar-constrained call, the tool runs, its result goes back, then the reply', async () => {
    const tools = join(dir, 'tools');
    await mkdir(tools);
    await writeFile(join(tools, 'echo.ts'), ECHO_TOOL);
    const registry = await ToolRegistry.load({ folders: [tools], isolation: 'none' });
    assert.deepEqual(
      registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
      [],
    );
    const seen: string[] = [];
    const result = await runTurn({
      model: model(CALLER),
      registry,
      history: [],
      input: 'Please echo hello',
      language: 'en',
      maxRounds: 1, // random weights could call tools forever
      onEvent: (event) => seen.push(event.type),
    });
    assert.equal(result.error, undefined);
    assert.equal(result.toolCalls.length, 1);
    const [record] = result.toolCalls;
    assert.equal(record?.tool, 'echo');
    assert.equal(record?.result.success, true, JSON.stringify(record?.result));
    assert.match(String(record?.result.data), /^echo: \[/);
    assert.deepEqual(
      result.messages.map((message) => message.role),
      ['user', 'assistant', 'tool', 'assistant'],
    );
    assert.equal(result.requests, 2);
    assert.equal(result.stopReason, 'round-limit');
    assert.ok(seen.includes('tool-call') && seen.includes('tool-result'));
  });

  test('cancelling stops the generation with an aborted ModelError', async () => {
    const controller = new AbortController();
    const local = model(ANSWERER, { maxTokens: 2000 });
    await assert.rejects(
      collect(local, { messages: [{ role: 'user', content: 'Hi' }], signal: controller.signal }, () =>
        controller.abort(),
      ),
      (error) => error instanceof ModelError && error.code === 'aborted',
    );
    await assert.rejects(collect(local, { messages: [{ role: 'user', content: 'Hi' }], signal: AbortSignal.abort() }), {
      code: 'aborted',
    });
    // The model is free again afterwards.
    const events = await collect(model(ANSWERER, { maxTokens: 4 }), { messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(events.at(-1)?.type, 'finish');
  });

  test('a model loads once per path', async () => {
    assert.equal(loadModelFile(path(CALLER)), loadModelFile(join(dir, '.', `tiny-${CALLER}.gguf`)));
  });

  test('a missing or broken file is a not-configured error naming the path', async () => {
    const missing = join(dir, 'missing.gguf');
    await assert.rejects(
      collect(createLocalModel({ modelPath: missing }), { messages: [{ role: 'user', content: 'Hi' }] }),
      (error) => {
        assert.ok(error instanceof ModelError && error.code === 'not-configured');
        assert.ok(error.message.includes(missing) && /RIVERSE_MODEL=local:/.test(error.message), error.message);
        return true;
      },
    );
    const broken = join(dir, 'broken.gguf');
    await writeFile(broken, 'not a model at all');
    await assert.rejects(
      collect(createLocalModel({ modelPath: broken }), { messages: [{ role: 'user', content: 'Hi' }] }),
      (error) => {
        assert.ok(error instanceof ModelError && error.code === 'not-configured');
        assert.ok(error.message.includes(broken) && /GGUF/.test(error.message), error.message);
        return true;
      },
    );
  });
});

/** The last event's reason, when it is the finish. */
function finishOf(events: readonly ModelEvent[]): { reason: string } | undefined {
  const last = events.at(-1);
  return last?.type === 'finish' ? { reason: last.reason } : undefined;
}

/** Every event of one request; `onText` runs at the first text. */
async function collect(model: ChatModel, request: ModelRequest, onText?: () => void): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of model.stream(request)) {
    events.push(event);
    if (event.type === 'text-delta') onText?.();
  }
  return events;
}
