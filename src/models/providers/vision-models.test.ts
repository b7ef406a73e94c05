// Which models take pictures: each provider's table, as its documentation has the model families,
// the setting that overrides it, and what resolveModel gives the adapter.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ModelError } from '../model-error.ts';
import { resolveModel } from '../resolve-model.ts';
import { providerNamed } from './providers.ts';
import { takesImages } from './vision-models.ts';

const sees = (provider: string, model: string) => takesImages(providerNamed(provider)!.vision, model);
const env = { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', GEMINI_API_KEY: 'k', DEEPSEEK_API_KEY: 'k' };

describe('the vision tables', () => {
  const cases: [provider: string, model: string, vision: boolean][] = [
    ['openai', 'gpt-4.1-mini', true],
    ['openai', 'gpt-4o', true],
    ['openai', 'gpt-5-nano', true],
    ['openai', 'o3', true],
    ['openai', 'o3-mini', false],
    ['openai', 'gpt-3.5-turbo', false],
    ['openai', 'gpt-4o-audio-preview', false],
    ['openai', 'gpt-oss-120b', false],
    ['anthropic', 'claude-sonnet-4-5', true],
    ['anthropic', 'claude-3-haiku-20240307', true],
    ['anthropic', 'claude-2.1', false],
    ['gemini', 'gemini-2.5-flash', true],
    ['gemini', 'gemini-3-pro-preview', true],
    ['gemini', 'gemini-1.0-pro', false],
    ['ollama', 'llava:13b', true],
    ['ollama', 'gemma3:4b', true],
    ['ollama', 'gemma3:1b', false],
    ['ollama', 'qwen2.5vl:7b', true],
    ['ollama', 'llama3.2-vision', true],
    ['ollama', 'qwen3', false],
    ['vllm', 'Qwen/Qwen2.5-VL-7B-Instruct', true],
    ['vllm', 'Qwen/Qwen2.5-7B-Instruct', false],
    ['groq', 'meta-llama/llama-4-scout-17b-16e-instruct', true],
    ['groq', 'llama-3.3-70b-versatile', false],
    ['qwen', 'qwen-vl-max', true],
    ['dashscope', 'qvq-max', true],
    ['qwen', 'qwen-plus', false],
    ['deepseek', 'deepseek-chat', false],
    ['local', '/models/llava.gguf', false],
  ];
  for (const [provider, model, vision] of cases)
    test(`${provider}:${model} ${vision ? 'takes' : 'does not take'} images`, () => {
      assert.equal(sees(provider, model), vision);
    });
});

describe('resolveModel and vision', () => {
  test("the provider's table decides, model_options.vision overrides it, and links go where the API takes them", () => {
    const model = (name: string, vision?: boolean) =>
      resolveModel({ model: name, ...(vision === undefined ? {} : { model_options: { vision } }) }, env);
    assert.deepEqual(
      [model('openai:gpt-4.1-mini'), model('anthropic:claude-sonnet-4-5'), model('gemini:gemini-2.5-flash')].map(
        ({ vision, imageUrls }) => [vision, imageUrls],
      ),
      [
        [true, true],
        [true, true],
        [true, false],
      ],
    );
    assert.equal(model('deepseek:deepseek-chat').vision, false);
    assert.equal(model('openai:gpt-4.1-mini', false).vision, false);
    assert.equal(model('ollama:my-finetune', true).vision, true);
    assert.equal(model('ollama:my-finetune', true).imageUrls, false);
  });

  test('a local model set to see is refused: node-llama-cpp takes no images yet', () => {
    assert.throws(
      () => resolveModel({ model: 'local:/models/llava.gguf', model_options: { vision: true } }, {}),
      (error: unknown) =>
        error instanceof ModelError &&
        error.code === 'not-configured' &&
        /model_options\.vision is true, but node-llama-cpp takes no images yet/.test(error.message),
    );
  });
});
