import type { AppConfig } from '../tools/app-config.ts';
import type { ChatModel, ToolCallingMode } from './chat-model.ts';
import { ModelError } from './model-error.ts';
import { createOpenAICompatibleModel } from './openai-compatible.ts';

/** `model_options` in riverse.yaml: settings for whichever model `model` names. */
export interface ModelOptions {
  base_url?: string;
  api_key?: string;
  tool_calling?: ToolCallingMode;
  timeout_ms?: number;
  max_retries?: number;
}

interface Provider {
  baseUrl: (env: NodeJS.ProcessEnv) => string;
  /** The environment variable holding the key; required unless the base URL was changed (a local server). */
  keyEnv?: string;
  baseUrlEnv?: string;
}

/** OpenAI-compatible providers by the prefix used in `RIVERSE_MODEL=prefix:model`. */
const PROVIDERS: Record<string, Provider> = {
  openai: { baseUrl: (env) => env.OPENAI_BASE_URL || 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY', baseUrlEnv: 'OPENAI_BASE_URL' },
  ollama: { baseUrl: (env) => `${ollamaHost(env.OLLAMA_HOST)}/v1` },
  deepseek: { baseUrl: () => 'https://api.deepseek.com/v1', keyEnv: 'DEEPSEEK_API_KEY' },
  qwen: { baseUrl: () => 'https://dashscope.aliyuncs.com/compatible-mode/v1', keyEnv: 'DASHSCOPE_API_KEY' },
  dashscope: { baseUrl: () => 'https://dashscope.aliyuncs.com/compatible-mode/v1', keyEnv: 'DASHSCOPE_API_KEY' },
  groq: { baseUrl: () => 'https://api.groq.com/openai/v1', keyEnv: 'GROQ_API_KEY' },
  vllm: { baseUrl: (env) => env.VLLM_BASE_URL || 'http://127.0.0.1:8000/v1', baseUrlEnv: 'VLLM_BASE_URL' },
  lmstudio: { baseUrl: (env) => env.LMSTUDIO_BASE_URL || 'http://127.0.0.1:1234/v1', baseUrlEnv: 'LMSTUDIO_BASE_URL' },
  llamacpp: { baseUrl: (env) => env.LLAMACPP_BASE_URL || 'http://127.0.0.1:8080/v1', baseUrlEnv: 'LLAMACPP_BASE_URL' },
};

export const NO_MODEL_MESSAGE = [
  'No model is configured. Set RIVERSE_MODEL, for example:',
  '  RIVERSE_MODEL=openai:gpt-4.1-mini  with OPENAI_API_KEY=sk-…  (OPENAI_BASE_URL for any OpenAI-compatible server)',
  '  RIVERSE_MODEL=ollama:qwen3         with Ollama running (OLLAMA_HOST if it is not on 127.0.0.1:11434)',
  `  other providers: ${Object.keys(PROVIDERS).join(', ')}`,
  'or write `model: openai:gpt-4.1-mini` in riverse.yaml.',
].join('\n');

/** The model named by $RIVERSE_MODEL or `model` in the config, or a ModelError saying exactly what to set. */
export function resolveModel(config: AppConfig, env: NodeJS.ProcessEnv = process.env): ChatModel {
  const name = env.RIVERSE_MODEL || (typeof config.model === 'string' ? config.model : '');
  if (name === '') throw new ModelError('not-configured', NO_MODEL_MESSAGE);
  const at = name.indexOf(':');
  const prefix = at > 0 ? name.slice(0, at).toLowerCase() : 'openai';
  const model = at > 0 ? name.slice(at + 1) : name;
  const provider = PROVIDERS[prefix];
  if (provider === undefined) throw new ModelError('not-configured', `Unknown model provider "${prefix}" in "${name}". Known providers: ${Object.keys(PROVIDERS).join(', ')}.`);
  if (model === '') throw new ModelError('not-configured', `"${name}" names no model; write ${prefix}:<model>, e.g. ${prefix}:${prefix === 'ollama' ? 'qwen3' : 'gpt-4.1-mini'}.`);

  const options = (config.model_options ?? {}) as ModelOptions;
  const baseUrl = options.base_url ?? provider.baseUrl(env);
  const apiKey = options.api_key ?? (provider.keyEnv === undefined ? undefined : env[provider.keyEnv]);
  const localServer = options.base_url !== undefined || (provider.baseUrlEnv !== undefined && Boolean(env[provider.baseUrlEnv]));
  if (provider.keyEnv !== undefined && !apiKey && !localServer) {
    throw new ModelError('not-configured', `${name} needs an API key: set ${provider.keyEnv} (or model_options.api_key in riverse.yaml).`);
  }
  const toolCalling = (env.RIVERSE_TOOL_CALLING as ToolCallingMode | undefined) || options.tool_calling;
  return createOpenAICompatibleModel({
    model,
    baseUrl,
    provider: prefix,
    ...(apiKey ? { apiKey } : {}),
    ...(provider.keyEnv === undefined ? {} : { apiKeyEnv: provider.keyEnv }),
    ...(toolCalling === 'native' || toolCalling === 'text' ? { toolCalling } : {}),
    ...(options.timeout_ms === undefined ? {} : { timeoutMs: options.timeout_ms }),
    ...(options.max_retries === undefined ? {} : { maxRetries: options.max_retries }),
  });
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
