import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { ModelError } from './model-error.ts';
import { hasNodeLlamaCpp } from './providers/local/local-llama-runtime.ts';
import { chooseModel, resolveModel, type DownloadOffer } from './resolve-model.ts';

const HAS_LLAMA = await hasNodeLlamaCpp();

const notConfigured = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(fn, (error: unknown) => error instanceof ModelError && error.code === 'not-configured' && pattern.test(error.message));

describe('resolveModel', () => {
  test('a provider prefix picks the adapter; the model id keeps both parts', () => {
    const env = { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', GEMINI_API_KEY: 'k' };
    for (const name of ['openai:gpt-4.1-mini', 'anthropic:claude-sonnet-4-5', 'gemini:gemini-2.5-flash', 'ollama:qwen3', 'local:/models/tiny.gguf']) {
      assert.equal(resolveModel({}, { ...env, RIVERSE_MODEL: name }).id, name.replace('/models/', ''));
    }
    assert.equal(resolveModel({ model: 'gpt-4.1-mini' }, env).id, 'openai:gpt-4.1-mini', 'no prefix means OpenAI');
  });

  test('model_options.strict_tools: the openai-strict dialect for an OpenAI-compatible provider, an error for another', () => {
    const options = { model_options: { base_url: 'http://127.0.0.1:9/v1', strict_tools: true } };
    assert.equal(resolveModel({ model: 'openai:x', ...options }, {}).dialect, 'openai-strict');
    assert.equal(resolveModel({ model: 'ollama:qwen3', ...options }, {}).dialect, 'openai-strict');
    assert.equal(resolveModel({ model: 'openai:x', model_options: { base_url: 'http://127.0.0.1:9/v1' } }, {}).dialect, 'openai');
    notConfigured(() => resolveModel({ model: 'anthropic:claude-sonnet-4-5', ...options }, {}), /strict_tools is for OpenAI-compatible providers; anthropic does not take it/);
    notConfigured(() => resolveModel({ model: 'gemini:gemini-2.5-flash', ...options }, {}), /gemini does not take it/);
  });

  test('RIVERSE_MODEL wins over the config', () => {
    assert.equal(resolveModel({ model: 'openai:a' }, { RIVERSE_MODEL: 'ollama:b' }).id, 'ollama:b');
  });

  test('each mistake says exactly what to set', () => {
    notConfigured(() => resolveModel({}, {}), /Set RIVERSE_MODEL/);
    notConfigured(() => resolveModel({}, { RIVERSE_MODEL: 'anthropic:claude-sonnet-4-5' }), /needs an API key: set ANTHROPIC_API_KEY/);
    notConfigured(() => resolveModel({}, { RIVERSE_MODEL: 'qwen:qwen-plus' }), /set DASHSCOPE_API_KEY/);
    notConfigured(() => resolveModel({}, { RIVERSE_MODEL: 'mistral:large' }), /Unknown model provider "mistral".*Known providers: openai, anthropic, gemini/);
    notConfigured(() => resolveModel({}, { RIVERSE_MODEL: 'ollama:' }), /names no model; write ollama:<model>/);
  });

  test('a changed base URL (a local OpenAI-compatible server) needs no key', () => {
    assert.equal(resolveModel({}, { RIVERSE_MODEL: 'openai:local', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).id, 'openai:local');
    assert.equal(resolveModel({ model: 'openai:x', model_options: { base_url: 'http://127.0.0.1:9/v1' } }, {}).id, 'openai:x');
  });
});

describe('chooseModel', () => {
  test('with nothing named, the first API key in the environment decides: OpenAI, Anthropic, Gemini', async () => {
    assert.equal((await chooseModel({}, { GEMINI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k' })).id, 'openai:gpt-4.1-mini');
    assert.equal((await chooseModel({}, { GEMINI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' })).id, 'anthropic:claude-sonnet-4-5');
    assert.equal((await chooseModel({}, { GEMINI_API_KEY: 'k' })).id, 'gemini:gemini-2.5-flash');
  });

  test('then an Ollama server at OLLAMA_HOST, with its first model; without one, what to set', async (t) => {
    const server = createServer((request, response) => {
      if (request.url === '/api/tags') response.end(JSON.stringify({ models: [{ name: 'qwen3:4b' }, { name: 'llama3.2' }] }));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise((resolve) => server.close(resolve)));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    assert.equal((await chooseModel({}, { OLLAMA_HOST: host })).id, 'ollama:qwen3:4b');

    // Port 9 (discard) has no Ollama: the message lists what to set.
    await assert.rejects(chooseModel({}, { OLLAMA_HOST: '127.0.0.1:9' }), (error: unknown) => error instanceof ModelError && error.code === 'not-configured' && /RIVERSE_MODEL=local:/.test(error.message));
  });

  test('then the embedded default local model, when the user agrees to download it', { skip: !HAS_LLAMA && 'node-llama-cpp is not installed' }, async (t) => {
    const directory = await mkdtemp(join(tmpdir(), 'riverse-models-'));
    t.after(() => rm(directory, { recursive: true, force: true }));
    const offers: DownloadOffer[] = [];
    const env = { OLLAMA_HOST: '127.0.0.1:9' };
    const model = await chooseModel({}, env, { modelsDirectory: directory, confirmDownload: async (offer) => (offers.push(offer), true) });
    assert.equal(model.id, 'local:qwen2.5-1.5b-instruct-q4_k_m.gguf');
    assert.deepEqual(offers, [{ file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf', sizeGb: 1.1, directory }]);
    await assert.rejects(chooseModel({}, env, { modelsDirectory: directory, confirmDownload: async () => false }), /No model is configured/);
  });
});

