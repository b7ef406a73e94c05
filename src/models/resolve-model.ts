import type { ChatModel, ToolCallingMode } from './chat-model.ts';
import { ModelError } from './model-error.ts';
import { ANTHROPIC_BASE_URL, createAnthropicModel } from './providers/anthropic/anthropic.ts';
import { createGeminiModel, GEMINI_BASE_URL } from './providers/gemini/gemini.ts';
import { createLocalModel } from './providers/local/local-llama.ts';
import { installCommand } from './providers/local/local-llama-install.ts';
import { hasNodeLlamaCpp, resolveModelReference } from './providers/local/local-llama-runtime.ts';
import { createOpenAICompatibleModel } from './providers/openai/openai-compatible.ts';

/** `model_options` in riverse.yaml: settings for whichever model `model` names. */
export interface ModelOptions {
  base_url?: string;
  api_key?: string;
  tool_calling?: ToolCallingMode;
  /** OpenAI-compatible providers only: send tools with `strict: true` (decision 009). */
  strict_tools?: boolean;
  timeout_ms?: number;
  max_retries?: number;
  max_reply_chars?: number;
  max_tool_call_chars?: number;
}

/** What of riverse.yaml model resolution reads. */
export interface ModelConfig {
  /** `provider:model`, e.g. `openai:gpt-4.1-mini`; $RIVERSE_MODEL wins over it. */
  model?: string;
  model_options?: ModelOptions | null;
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
  maxReplyChars?: number;
  maxToolCallChars?: number;
  strictTools?: boolean;
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

/** Strict tools are OpenAI's: another provider's adapter would ignore the setting without a word. */
function withoutStrictTools(provider: string, settings: ModelSettings): ModelSettings {
  if (settings.strictTools === true) throw new ModelError('not-configured', `model_options.strict_tools is for OpenAI-compatible providers; ${provider} does not take it (remove it from riverse.yaml).`);
  return settings;
}

/** Providers by the prefix used in `RIVERSE_MODEL=prefix:model`. */
const PROVIDERS: Record<string, Provider> = {
  openai: { baseUrl: (env) => env.OPENAI_BASE_URL || 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY', baseUrlEnv: 'OPENAI_BASE_URL', example: 'gpt-4.1-mini', create: openAICompatible('openai') },
  anthropic: {
    baseUrl: (env) => env.ANTHROPIC_BASE_URL || ANTHROPIC_BASE_URL,
    keyEnv: 'ANTHROPIC_API_KEY',
    baseUrlEnv: 'ANTHROPIC_BASE_URL',
    example: 'claude-sonnet-4-5',
    create: (settings) => createAnthropicModel(withoutStrictTools('anthropic', settings)),
  },
  gemini: {
    baseUrl: (env) => env.GEMINI_BASE_URL || GEMINI_BASE_URL,
    keyEnv: 'GEMINI_API_KEY',
    baseUrlEnv: 'GEMINI_BASE_URL',
    example: 'gemini-2.5-flash',
    create: (settings) => createGeminiModel(withoutStrictTools('gemini', settings)),
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

/** What to set when no model can serve (built when needed: it reads the lock file). */
export const noModelMessage = (): string => [
  'No model is configured. Set RIVERSE_MODEL, for example:',
  '  RIVERSE_MODEL=openai:gpt-4.1-mini  with OPENAI_API_KEY=sk-…  (OPENAI_BASE_URL for any OpenAI-compatible server)',
  '  RIVERSE_MODEL=anthropic:claude-sonnet-4-5  with ANTHROPIC_API_KEY',
  '  RIVERSE_MODEL=gemini:gemini-2.5-flash       with GEMINI_API_KEY',
  '  RIVERSE_MODEL=ollama:qwen3         with Ollama running (OLLAMA_HOST if it is not on 127.0.0.1:11434)',
  '  RIVERSE_MODEL=local:/path/to/model.gguf  (or local:hf:user/repo/file.gguf) with node-llama-cpp installed:',
  `    ${installCommand()}`,
  `  other providers: ${[...Object.keys(PROVIDERS), 'local'].join(', ')}`,
  'or write `model: openai:gpt-4.1-mini` in riverse.yaml. With only an API key set, its provider is used.',
].join('\n');

/**
 * The embedded default: a small instruct model with tool calling (Qwen2.5 1.5B Instruct, Q4_K_M,
 * about 1.1 GB), run by the local provider; downloaded on first use once the user agrees.
 */
export const DEFAULT_LOCAL_MODEL = 'hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/qwen2.5-1.5b-instruct-q4_k_m.gguf';

/** What the user is asked before the embedded default model is downloaded. */
export interface DownloadOffer {
  file: string;
  sizeGb: number;
  directory: string;
}

export interface ChooseModelOptions {
  /** Where local models are downloaded (`local:hf:…`). */
  modelsDirectory?: string;
  /** Asks the user (an interactive chat) whether to download the embedded default model. */
  confirmDownload?: (offer: DownloadOffer) => Promise<boolean>;
}

/** The model named by $RIVERSE_MODEL or `model` in the config, or a ModelError saying exactly what to set. */
export function resolveModel(config: ModelConfig, env: NodeJS.ProcessEnv = process.env, options: ChooseModelOptions = {}): ChatModel {
  const name = env.RIVERSE_MODEL || config.model || '';
  if (name === '') throw new ModelError('not-configured', noModelMessage());
  return createNamedModel(name, config, env, options);
}

/**
 * The model to use: the one named, else the first that is there — an API key in the environment
 * (OpenAI, Anthropic, Gemini), then an Ollama server at OLLAMA_HOST (asked for its models, briefly),
 * then the embedded default local model when it is downloaded, or the user agrees to download it.
 */
export async function chooseModel(config: ModelConfig, env: NodeJS.ProcessEnv = process.env, options: ChooseModelOptions = {}): Promise<ChatModel> {
  if (env.RIVERSE_MODEL || config.model !== undefined) return resolveModel(config, env, options);
  for (const prefix of ['openai', 'anthropic', 'gemini']) {
    const provider = PROVIDERS[prefix];
    if (provider?.keyEnv !== undefined && env[provider.keyEnv]) return createNamedModel(`${prefix}:${provider.example}`, config, env, options);
  }
  const ollama = await firstOllamaModel(env);
  if (ollama !== undefined) return createNamedModel(`ollama:${ollama}`, config, env, options);
  if (options.modelsDirectory !== undefined && (await hasNodeLlamaCpp())) {
    const local = `local:${DEFAULT_LOCAL_MODEL}`;
    const downloaded = await resolveModelReference(DEFAULT_LOCAL_MODEL, options.modelsDirectory, false).then(() => true, () => false);
    const offer: DownloadOffer = { file: DEFAULT_LOCAL_MODEL.split('/').pop()!, sizeGb: 1.1, directory: options.modelsDirectory };
    if (downloaded || (options.confirmDownload !== undefined && (await options.confirmDownload(offer)))) return createNamedModel(local, config, env, options);
  }
  throw new ModelError('not-configured', noModelMessage());
}

function createNamedModel(name: string, config: ModelConfig, env: NodeJS.ProcessEnv, options: ChooseModelOptions): ChatModel {
  const at = name.indexOf(':');
  const prefix = at > 0 ? name.slice(0, at).toLowerCase() : 'openai';
  const model = at > 0 ? name.slice(at + 1) : name;
  if (prefix === 'local') {
    if (model === '') throw new ModelError('not-configured', `"${name}" names no model file; write local:/path/to/model.gguf or local:hf:user/repo/file.gguf.`);
    return createLocalModel({ modelPath: model, ...(options.modelsDirectory === undefined ? {} : { modelsDirectory: options.modelsDirectory }) });
  }
  const provider = PROVIDERS[prefix];
  if (provider === undefined) throw new ModelError('not-configured', `Unknown model provider "${prefix}" in "${name}". Known providers: ${Object.keys(PROVIDERS).join(', ')}.`);
  if (model === '') throw new ModelError('not-configured', `"${name}" names no model; write ${prefix}:<model>, e.g. ${prefix}:${provider.example}.`);

  const settings = config.model_options ?? {};
  const baseUrl = settings.base_url ?? provider.baseUrl(env);
  const apiKey = settings.api_key ?? (provider.keyEnv === undefined ? undefined : env[provider.keyEnv]);
  const localServer = settings.base_url !== undefined || (provider.baseUrlEnv !== undefined && Boolean(env[provider.baseUrlEnv]));
  if (provider.keyEnv !== undefined && !apiKey && !localServer) {
    throw new ModelError('not-configured', `${name} needs an API key: set ${provider.keyEnv} (or model_options.api_key in riverse.yaml).`);
  }
  const toolCalling = (env.RIVERSE_TOOL_CALLING as ToolCallingMode | undefined) || settings.tool_calling;
  return provider.create({
    model,
    baseUrl,
    ...(apiKey ? { apiKey } : {}),
    ...(provider.keyEnv === undefined ? {} : { apiKeyEnv: provider.keyEnv }),
    ...(toolCalling === 'native' || toolCalling === 'text' ? { toolCalling } : {}),
    ...(settings.timeout_ms === undefined ? {} : { timeoutMs: settings.timeout_ms }),
    ...(settings.max_retries === undefined ? {} : { maxRetries: settings.max_retries }),
    ...(settings.max_reply_chars === undefined ? {} : { maxReplyChars: settings.max_reply_chars }),
    ...(settings.max_tool_call_chars === undefined ? {} : { maxToolCallChars: settings.max_tool_call_chars }),
    ...(settings.strict_tools === undefined ? {} : { strictTools: settings.strict_tools }),
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
