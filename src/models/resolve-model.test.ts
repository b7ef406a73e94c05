import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { ModelError } from './model-error.ts';
import { hasNodeLlamaCpp } from './providers/local/local-llama-runtime.ts';
import { PROVIDER_NAMES } from './providers/provider-names.ts';
import { installCommand } from './providers/local/local-llama-install.ts';
import { chooseModel, noModelMessage, resolveModel, type DownloadOffer } from './resolve-model.ts';
import { startAnthropicTestServer } from './testing/anthropic-wire.ts';
import { startGeminiTestServer } from './testing/gemini-wire.ts';
import { collect, textOf } from './testing/model-events.ts';
import { startOpenAITestServer } from './testing/openai-wire.ts';

const HAS_LLAMA = await hasNodeLlamaCpp();

const notConfigured = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(
    fn,
    (error: unknown) => error instanceof ModelError && error.code === 'not-configured' && pattern.test(error.message),
  );

describe('resolveModel', () => {
  test('a provider prefix picks the adapter; the model id keeps both parts', () => {
    const env = { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', GEMINI_API_KEY: 'k' };
    for (const name of [
      'openai:gpt-4.1-mini',
      'anthropic:claude-sonnet-4-5',
      'gemini:gemini-2.5-flash',
      'ollama:qwen3',
      'local:/models/tiny.gguf',
    ]) {
      assert.equal(resolveModel({}, { ...env, RIVERSE_MODEL: name }).id, name.replace('/models/', ''));
    }
    assert.equal(resolveModel({ model: 'gpt-4.1-mini' }, env).id, 'openai:gpt-4.1-mini', 'no prefix means OpenAI');
  });

  test('model_options.strict_tools: the openai-strict dialect for an OpenAI-compatible provider, an error for another', () => {
    const options = { model_options: { base_url: 'http://127.0.0.1:9/v1', strict_tools: true } };
    assert.equal(resolveModel({ model: 'openai:x', ...options }, {}).dialect, 'openai-strict');
    assert.equal(resolveModel({ model: 'ollama:qwen3', ...options }, {}).dialect, 'openai-strict');
    assert.equal(
      resolveModel({ model: 'openai:x', model_options: { base_url: 'http://127.0.0.1:9/v1' } }, {}).dialect,
      'openai',
    );
    notConfigured(
      () => resolveModel({ model: 'anthropic:claude-sonnet-4-5', ...options }, {}),
      /strict_tools is for OpenAI-compatible providers; anthropic does not take it/,
    );
    notConfigured(() => resolveModel({ model: 'gemini:gemini-2.5-flash', ...options }, {}), /gemini does not take it/);
  });

  test('RIVERSE_MODEL wins over the config', () => {
    assert.equal(resolveModel({ model: 'openai:a' }, { RIVERSE_MODEL: 'ollama:b' }).id, 'ollama:b');
  });

  test('each mistake says exactly what to set', () => {
    notConfigured(() => resolveModel({}, {}), /Set RIVERSE_MODEL/);
    notConfigured(
      () => resolveModel({}, { RIVERSE_MODEL: 'anthropic:claude-sonnet-4-5' }),
      /needs an API key: set ANTHROPIC_API_KEY/,
    );
    notConfigured(() => resolveModel({}, { RIVERSE_MODEL: 'qwen:qwen-plus' }), /set DASHSCOPE_API_KEY/);
    notConfigured(
      () => resolveModel({}, { RIVERSE_MODEL: 'mistral:large' }),
      /Unknown model provider "mistral" in "mistral:large"\. Known providers: openai, anthropic, gemini/,
    );
    // A typo of a provider is named, as a typo of a command is; the list ends with the embedded one.
    notConfigured(
      () => resolveModel({}, { RIVERSE_MODEL: 'opeani:gpt-4.1-mini' }),
      /Unknown model provider "opeani" in "opeani:gpt-4\.1-mini" \(did you mean "openai"\?\)\. Known providers: openai, .*, local\.$/,
    );
    notConfigured(() => resolveModel({}, { RIVERSE_MODEL: 'ollama:' }), /names no model; write ollama:<model>/);
  });

  test('a changed base URL (a local OpenAI-compatible server) needs no key', () => {
    assert.equal(
      resolveModel({}, { RIVERSE_MODEL: 'openai:local', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).id,
      'openai:local',
    );
    assert.equal(
      resolveModel({ model: 'openai:x', model_options: { base_url: 'http://127.0.0.1:9/v1' } }, {}).id,
      'openai:x',
    );
  });
});

/** Each provider's adapter, and the variables it reads; written out here, apart from the descriptors. */
const EXPECTED: Record<
  (typeof PROVIDER_NAMES)[number],
  { adapter: 'openai' | 'anthropic' | 'gemini' | 'local'; keyEnv?: string; baseUrlEnv?: string }
> = {
  openai: { adapter: 'openai', keyEnv: 'OPENAI_API_KEY', baseUrlEnv: 'OPENAI_BASE_URL' },
  anthropic: { adapter: 'anthropic', keyEnv: 'ANTHROPIC_API_KEY', baseUrlEnv: 'ANTHROPIC_BASE_URL' },
  gemini: { adapter: 'gemini', keyEnv: 'GEMINI_API_KEY', baseUrlEnv: 'GEMINI_BASE_URL' },
  ollama: { adapter: 'openai' },
  deepseek: { adapter: 'openai', keyEnv: 'DEEPSEEK_API_KEY' },
  qwen: { adapter: 'openai', keyEnv: 'DASHSCOPE_API_KEY' },
  dashscope: { adapter: 'openai', keyEnv: 'DASHSCOPE_API_KEY' },
  groq: { adapter: 'openai', keyEnv: 'GROQ_API_KEY' },
  vllm: { adapter: 'openai', baseUrlEnv: 'VLLM_BASE_URL' },
  lmstudio: { adapter: 'openai', baseUrlEnv: 'LMSTUDIO_BASE_URL' },
  llamacpp: { adapter: 'openai', baseUrlEnv: 'LLAMACPP_BASE_URL' },
  local: { adapter: 'local' },
};

const START_SERVER = {
  openai: startOpenAITestServer,
  anthropic: startAnthropicTestServer,
  gemini: startGeminiTestServer,
} as const;
/** The header each adapter carries the key in. */
const KEY_HEADER = { openai: 'authorization', anthropic: 'x-api-key', gemini: 'x-goog-api-key' } as const;

describe('every provider resolves to its adapter, with its key and base URL variables', () => {
  test('the expectations cover the list', () => assert.deepEqual(Object.keys(EXPECTED), [...PROVIDER_NAMES]));

  for (const [name, { adapter, keyEnv, baseUrlEnv }] of Object.entries(EXPECTED)) {
    if (adapter === 'local') {
      test(`${name}: a GGUF file, run in this process; no key, no server`, () => {
        const model = resolveModel({}, { RIVERSE_MODEL: `${name}:/models/tiny.gguf` });
        assert.equal(model.id, 'local:tiny.gguf');
        assert.equal(model.dialect, 'json');
      });
      continue;
    }
    test(`${name}: the ${adapter} adapter${keyEnv === undefined ? ', no key' : `, ${keyEnv}`}${baseUrlEnv === undefined ? '' : `, ${baseUrlEnv}`}`, async (t) => {
      const server = await START_SERVER[adapter]({ text: 'ok' });
      t.after(() => server.close());
      if (keyEnv !== undefined)
        notConfigured(
          () => resolveModel({}, { RIVERSE_MODEL: `${name}:m` }),
          new RegExp(`needs an API key: set ${keyEnv} `),
        );
      else assert.equal(resolveModel({}, { RIVERSE_MODEL: `${name}:m` }).id, `${name}:m`, 'no key asked for');
      // Where the base URL comes from: its variable, OLLAMA_HOST for Ollama, else model_options.base_url.
      const env: NodeJS.ProcessEnv = { RIVERSE_MODEL: `${name}:m`, ...(keyEnv === undefined ? {} : { [keyEnv]: 'k' }) };
      const config = baseUrlEnv === undefined && name !== 'ollama' ? { model_options: { base_url: server.url } } : {};
      if (baseUrlEnv !== undefined) env[baseUrlEnv] = server.url;
      if (name === 'ollama') env.OLLAMA_HOST = new URL(server.url).host;
      const model = resolveModel(config, env);
      assert.equal(model.id, `${name}:m`);
      assert.equal(model.dialect, adapter);
      assert.equal(textOf(await collect(model.stream({ messages: [{ role: 'user', content: 'hi' }] }))), 'ok');
      const header = server.requests[0]!.headers[KEY_HEADER[adapter]];
      assert.equal(
        header === undefined ? undefined : String(header).replace(/^Bearer /, ''),
        keyEnv === undefined ? undefined : 'k',
      );
      if (baseUrlEnv !== undefined && keyEnv !== undefined) {
        assert.equal(
          resolveModel({}, { RIVERSE_MODEL: `${name}:m`, [baseUrlEnv]: server.url }).id,
          `${name}:m`,
          `with ${baseUrlEnv} set, no key is needed`,
        );
      }
    });
  }

  test('the no-model message shows how to set up the main ones and names every provider', () => {
    const message = noModelMessage();
    for (const shown of [
      'openai:gpt-4.1-mini',
      'anthropic:claude-sonnet-4-5',
      'gemini:gemini-2.5-flash',
      'ollama:qwen3',
      'local:/path/to/model.gguf',
    ]) {
      assert.match(message, new RegExp(`^  RIVERSE_MODEL=${shown} `, 'm'));
    }
    assert.match(message, new RegExp(`^  other providers: ${PROVIDER_NAMES.join(', ')}$`, 'm'));
    // The embedded default a chat offers needs node-llama-cpp: the local line says what to install, in one line.
    assert.ok(
      message
        .split('\n')
        .some(
          (line) =>
            line.startsWith('  RIVERSE_MODEL=local:') &&
            line.includes('default model') &&
            line.endsWith(installCommand()),
        ),
      message,
    );
    notConfigured(
      () => resolveModel({}, { RIVERSE_MODEL: 'local:' }),
      /"local:" names no model file; write local:\/path\/to\/model\.gguf or local:hf:/,
    );
  });
});

describe('chooseModel', () => {
  test('with nothing named, the first API key in the environment decides: OpenAI, Anthropic, Gemini', async () => {
    assert.equal(
      (await chooseModel({}, { GEMINI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k' })).id,
      'openai:gpt-4.1-mini',
    );
    assert.equal(
      (await chooseModel({}, { GEMINI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' })).id,
      'anthropic:claude-sonnet-4-5',
    );
    assert.equal((await chooseModel({}, { GEMINI_API_KEY: 'k' })).id, 'gemini:gemini-2.5-flash');
  });

  test('then an Ollama server at OLLAMA_HOST, with its first model; without one, what to set', async (t) => {
    const server = createServer((request, response) => {
      if (request.url === '/api/tags')
        response.end(JSON.stringify({ models: [{ name: 'qwen3:4b' }, { name: 'llama3.2' }] }));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise((resolve) => server.close(resolve)));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    assert.equal((await chooseModel({}, { OLLAMA_HOST: host })).id, 'ollama:qwen3:4b');

    // Port 9 (discard) has no Ollama: the message lists what to set.
    await assert.rejects(
      chooseModel({}, { OLLAMA_HOST: '127.0.0.1:9' }),
      (error: unknown) =>
        error instanceof ModelError && error.code === 'not-configured' && /RIVERSE_MODEL=local:/.test(error.message),
    );
  });

  test('then the embedded default local model, when the user agrees to download it', {
    skip: !HAS_LLAMA && 'node-llama-cpp is not installed',
  }, async (t) => {
    const directory = await mkdtemp(join(tmpdir(), 'riverse-models-'));
    t.after(() => rm(directory, { recursive: true, force: true }));
    const offers: DownloadOffer[] = [];
    const env = { OLLAMA_HOST: '127.0.0.1:9' };
    const model = await chooseModel({}, env, {
      modelsDirectory: directory,
      confirmDownload: async (offer) => (offers.push(offer), true),
    });
    assert.equal(model.id, 'local:qwen2.5-1.5b-instruct-q4_k_m.gguf');
    assert.deepEqual(offers, [{ file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf', sizeGb: 1.1, directory }]);
    await assert.rejects(
      chooseModel({}, env, { modelsDirectory: directory, confirmDownload: async () => false }),
      /No model is configured/,
    );
  });
});
