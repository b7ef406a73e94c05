import type { AppConfig } from '../tools/app-config.ts';
import type { ChatModel, ToolCallingMode } from './chat-model.ts';
import { ModelError } from './model-error.ts';
import { ANTHROPIC_BASE_URL, createAnthropicModel } from './anthropic.ts';
import { createGeminiModel, GEMINI_BASE_URL } from './gemini.ts';
import { createOpenAICompatibleModel } from './openai-compatible.ts';

/** `model_options` in riverse.yaml: settings for whichever model `model` names. */
export interface ModelOptions {
  base_url?: string;
  api_key?: string;
  tool_calling?: ToolCallingMode;
  timeout_ms?: number;
  max_retries?: number;
}

/** What every adapter is created from. */
interface ModelSettings {
  model: string;
  baseUrl: string;
  apiKey?: string;
  apiKeyEnv?: string;
  toolCalling?: ToolCallingMode;
  timeoutMs?: number;
  maxRetries?: number;
}

interface Provider {
  baseUrl: (env: NodeJS.ProcessEnv) => string;
  /** The environment variable holding the key; required unless the base URL was changed (a local server). */
  keyEnv?: string;
  baseUrlEnv?: string;
  /** A model to show in messages and to use when only the key is set. */
  example: string;
  create: (settings: ModelSettings) => ChatModel;
}

const openAICompatible =
  (provider: string) =>
  (settings: ModelSettings): ChatModel =>
    createOpenAICompatibleModel({ ...settings, provider });

/** Providers by the prefix used in `RIVERSE_MODEL=prefix:model`. */
const PROVIDERS: Record<string, Provider> = {
  openai: { baseUrl: (env) => env.OPENAI_BASE_URL || 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY', baseUrlEnv: 'OPENAI_BASE_URL', example: 'gpt-4.1-mini', create: openAICompatible('openai') },
  anthropic: {
    baseUrl: (env) => env.ANTHROPIC_BASE_URL || ANTHROPIC_BASE_URL,
    keyEnv: 'ANTHROPIC_API_KEY',
    baseUrlEnv: 'ANTHROPIC_BASE_URL',
    example: 'claude-sonnet-4-5',
    create: (settings) => createAnthropicModel(settings),
  },
  gemini: {
    baseUrl: (env) => env.GEMINI_BASE_URL || GEMINI_BASE_URL,
    keyEnv: 'GEMINI_API_KEY',
    baseUrlEnv: 'GEMINI_BASE_URL',
    example: 'gemini-2.5-flash',
    create: (settings) => createGeminiModel(settings),
  },
  ollama: { baseUrl: (env) => `${ollamaHost(env.OLLAMA_HOST)}/v1`, example: 'qwen3', create: openAICompatible('ollama') },
  deepseek: { baseUrl: () => 'https://api.deepseek.com/v1', keyEnv: 'DEEPSEEK_API_KEY', example: 'deepseek-chat', create: openAICompatible('deepseek') },
  qwen: { baseUrl: () => 'https://dashscope.aliyuncs.com/compatible-mode/v1', keyEnv: 'DASHSCOPE_API_KEY', example: 'qwen-plus', create: openAICompatible('qwen') },
  dashscope: { baseUrl: () => 'https://dashscope.aliyuncs.com/compatible-mode/v1', keyEnv: 'DASHSCOPE_API_KEY', example: 'qwen-plus', create: openAICompatible('dashscope') },
  groq: { baseUrl: () => 'https://api.groq.com/openai/v1', keyEnv: 'GROQ_API_KEY', example: 'llama-3.3-70b-versatile', create: openAICompatible('groq') },
  vllm: { baseUrl: (env) => env.VLLM_BASE_URL || 'http://127.0.0.1:8000/v1', baseUrlEnv: 'VLLM_BASE_URL', example: 'Qwen/Qwen2.5-7B-Instruct', create: openAICompatible('vllm') },
  lmstudio: { baseUrl: (env) => env.LMSTUDIO_BASE_URL || 'http://127.0.0.1:1234/v1', baseUrlEnv: 'LMSTUDIO_BASE_URL', example: 'qwen2.5-7b-instruct', create: openAICompatible('lmstudio') },
  llamacpp: { baseUrl: (env) => env.LLAMACPP_BASE_URL || 'http://127.0.0.1:8080/v1', baseUrlEnv: 'LLAMACPP_BASE_URL', example: 'default', create: openAICompatible('llamacpp') },
};

export const NO_MODEL_MESSAGE = [
  'No model is configured. Set RIVERSE_MODEL, for example:',
  '  RIVERSE_MODEL=openai:gpt-4.1-mini  with OPENAI_API_KEY=sk-…  (OPENAI_BASE_URL for any OpenAI-compatible server)',
  '  RIVERSE_MODEL=anthropic:claude-sonnet-4-5  with ANTHROPIC_API_KEY',
  '  RIVERSE_MODEL=gemini:gemini-2.5-flash       with GEMINI_API_KEY',
  '  RIVERSE_MODEL=ollama:qwen3         with Ollama running (OLLAMA_HOST if it is not on 127.0.0.1:11434)',
  `  other providers: ${Object.keys(PROVIDERS).join(', ')}`,
  'or write `model: openai:gpt-4.1-mini` in riverse.yaml. With only an API key set, its provider is used.',
].join('\n');

/** The model named by $RIVERSE_MODEL or `model` in the config, or a ModelError saying exactly what to set. */
export function resolveModel(config: AppConfig, env: NodeJS.ProcessEnv = process.env): ChatModel {
  const name = env.RIVERSE_MODEL || (typeof config.model === 'string' ? config.model : '');
  if (name === '') throw new ModelError('not-configured', NO_MODEL_MESSAGE);
  return createNamedModel(name, config, env);
}

/**
 * The model to use: the one named, else the first that is there — an API key in the environment
 * (OpenAI, Anthropic, Gemini), then an Ollama server at OLLAMA_HOST (asked for its models, briefly).
 */
export async function chooseModel(config: AppConfig, env: NodeJS.ProcessEnv = process.env): Promise<ChatModel> {
  if (env.RIVERSE_MODEL || typeof config.model === 'string') return resolveModel(config, env);
  for (const prefix of ['openai', 'anthropic', 'gemini']) {
    const provider = PROVIDERS[prefix];
    if (provider?.keyEnv !== undefined && env[provider.keyEnv]) return createNamedModel(`${prefix}:${provider.example}`, config, env);
  }
  const ollama = await firstOllamaModel(env);
  if (ollama !== undefined) return createNamedModel(`ollama:${ollama}`, config, env);
  throw new ModelError('not-configured', NO_MODEL_MESSAGE);
}

function createNamedModel(name: string, config: AppConfig, env: NodeJS.ProcessEnv): ChatModel {
  const at = name.indexOf(':');
  const prefix = at > 0 ? name.slice(0, at).toLowerCase() : 'openai';
  const model = at > 0 ? name.slice(at + 1) : name;
  const provider = PROVIDERS[prefix];
  if (provider === undefined) throw new ModelError('not-configured', `Unknown model provider "${prefix}" in "${name}". Known providers: ${Object.keys(PROVIDERS).join(', ')}.`);
  if (model === '') throw new ModelError('not-configured', `"${name}" names no model; write ${prefix}:<model>, e.g. ${prefix}:${provider.example}.`);

  const options = (config.model_options ?? {}) as ModelOptions;
  const baseUrl = options.base_url ?? provider.baseUrl(env);
  const apiKey = options.api_key ?? (provider.keyEnv === undefined ? undefined : env[provider.keyEnv]);
  const localServer = options.base_url !== undefined || (provider.baseUrlEnv !== undefined && Boolean(env[provider.baseUrlEnv]));
  if (provider.keyEnv !== undefined && !apiKey && !localServer) {
    throw new ModelError('not-configured', `${name} needs an API key: set ${provider.keyEnv} (or model_options.api_key in riverse.yaml).`);
  }
  const toolCalling = (env.RIVERSE_TOOL_CALLING as ToolCallingMode | undefined) || options.tool_calling;
  return provider.create({
    model,
    baseUrl,
    ...(apiKey ? { apiKey } : {}),
    ...(provider.keyEnv === undefined ? {} : { apiKeyEnv: provider.keyEnv }),
    ...(toolCalling === 'native' || toolCalling === 'text' ? { toolCalling } : {}),
    ...(options.timeout_ms === undefined ? {} : { timeoutMs: options.timeout_ms }),
    ...(options.max_retries === undefined ? {} : { maxRetries: options.max_retries }),
  });
}

/** The first model an Ollama server at OLLAMA_HOST has pulled, or undefined when none answers quickly. */
async function firstOllamaModel(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    const response = await fetch(`${ollamaHost(env.OLLAMA_HOST)}/api/tags`, { signal: AbortSignal.timeout(500) });
    if (!response.ok) return undefined;
    const { models } = (await response.json()) as { models?: Array<{ name?: string }> };
    return models?.find((model) => typeof model.name === 'string')?.name;
  } catch {
    return undefined;
  }
}

/**
 * OLLAMA_HOST as Ollama reads it: `host` or `host:port` (port 11434 by default), or a URL (its
 * scheme's default port); 0.0.0.0, the address it listens on, means this machine.
 */
export function ollamaHost(value: string | undefined): string {
  const text = (value ?? '').trim() || '127.0.0.1';
  const hasScheme = /^https?:\/\//.test(text);
  const url = new URL(hasScheme ? text : `http://${text}`);
  if (!hasScheme && url.port === '') url.port = '11434';
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  return url.origin;
}
