import type { ChatModel, ToolCallingMode } from './chat-model.ts';
import { closestWord } from '../core/closest-word.ts';
import type { Phrase } from '../core/phrase.ts';
import { ModelError } from './model-error.ts';
import { phrase } from './model-phrases.ts';
import type { ChooseModelOptions, ProviderDescriptor } from './providers/provider-descriptor.ts';
import { PROVIDERS, providerNamed } from './providers/providers.ts';
import { takesImages } from './providers/vision-models.ts';

export type { ChooseModelOptions, DownloadOffer } from './providers/provider-descriptor.ts';
export { DEFAULT_LOCAL_MODEL } from './providers/local/local-default-model.ts';

/** `model_options` in riverse.yaml: settings for whichever model `model` names. */
export interface ModelOptions {
  base_url?: string;
  api_key?: string;
  tool_calling?: ToolCallingMode;
  /** OpenAI-compatible providers only: send tools with `strict: true` (decision 009). */
  strict_tools?: boolean;
  /** The model takes pictures (default: what its provider documents for its family; decision 029). */
  vision?: boolean;
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

/** The prefix a name without one means (`gpt-4.1-mini` is `openai:gpt-4.1-mini`). */
const DEFAULT_PREFIX = 'openai';

/** What to set when no model can serve (built when needed: the local provider's hint reads the lock file). */
const noModelPhrase = (): Phrase => {
  const shown = PROVIDERS.filter((provider) => provider.setupHint !== undefined);
  const example = (provider: ProviderDescriptor): string => `${provider.name}:${provider.example}`;
  const width = Math.max(...shown.map((provider) => example(provider).length));
  const rows = shown.map((provider) =>
    phrase('model.none.row', { example: example(provider).padEnd(width), hint: provider.setupHint!() }),
  );
  const lines = [
    phrase('model.none'),
    ...rows,
    phrase('model.none.others', { names: providerNames() }),
    phrase('model.none.tail'),
  ];
  return phrase('model.lines', Object.fromEntries(lines.map((line, index) => [`line${index}`, line])));
};

/** The no-model message in English. */
export const noModelMessage = (): string => new ModelError('not-configured', noModelPhrase()).message;

const providerNames = (): string => PROVIDERS.map((provider) => provider.name).join(', ');

/** The model named by $RIVERSE_MODEL or `model` in the config, or a ModelError saying exactly what to set. */
export function resolveModel(
  config: ModelConfig,
  env: NodeJS.ProcessEnv = process.env,
  options: ChooseModelOptions = {},
): ChatModel {
  const name = env.RIVERSE_MODEL || config.model || '';
  if (name === '') throw new ModelError('not-configured', noModelPhrase());
  return createNamedModel(name, config, env, options);
}

/**
 * The model to use: the one named, else the first provider that offers one, in the list's order
 * (providers/providers.ts): an API key in the environment (OpenAI, Anthropic, Gemini), then an
 * Ollama server at OLLAMA_HOST (asked for its models, briefly), then the embedded default local
 * model when it is downloaded, or the user agrees to download it.
 */
export async function chooseModel(
  config: ModelConfig,
  env: NodeJS.ProcessEnv = process.env,
  options: ChooseModelOptions = {},
): Promise<ChatModel> {
  if (env.RIVERSE_MODEL || config.model !== undefined) return resolveModel(config, env, options);
  for (const provider of PROVIDERS) {
    const model = await offeredModel(provider, env, options);
    if (model !== undefined) return createNamedModel(`${provider.name}:${model}`, config, env, options);
  }
  throw new ModelError('not-configured', noModelPhrase());
}

/** The model part a provider offers when nothing names one (its `discover`), if any. */
async function offeredModel(
  { discover, keyEnv, example }: ProviderDescriptor,
  env: NodeJS.ProcessEnv,
  options: ChooseModelOptions,
): Promise<string | undefined> {
  if (discover === 'key') return keyEnv !== undefined && env[keyEnv] ? example : undefined;
  return discover?.(env, options);
}

function createNamedModel(
  name: string,
  config: ModelConfig,
  env: NodeJS.ProcessEnv,
  options: ChooseModelOptions,
): ChatModel {
  const at = name.indexOf(':');
  const prefix = at > 0 ? name.slice(0, at).toLowerCase() : DEFAULT_PREFIX;
  const model = at > 0 ? name.slice(at + 1) : name;
  const provider = providerNamed(prefix);
  if (provider === undefined) {
    const near = closestWord(
      prefix,
      PROVIDERS.map((known) => known.name),
    );
    throw new ModelError(
      'not-configured',
      phrase('model.unknown-provider', { prefix, name, near: near ?? '', names: providerNames() }),
    );
  }
  if (model === '') {
    const said = provider.noModelNamed?.(name) ?? phrase('model.no-model', { name, prefix, example: provider.example });
    throw new ModelError('not-configured', said);
  }

  const settings = config.model_options ?? {};
  const baseUrl = settings.base_url ?? environmentBaseUrl(provider, env);
  const apiKey = settings.api_key ?? (provider.keyEnv === undefined ? undefined : env[provider.keyEnv]);
  const localServer =
    settings.base_url !== undefined || (provider.baseUrlEnv !== undefined && Boolean(env[provider.baseUrlEnv]));
  if (provider.keyEnv !== undefined && !apiKey && !localServer) {
    throw new ModelError('not-configured', phrase('model.needs-key', { name, env: provider.keyEnv }));
  }
  const toolCalling = chosenToolCalling(config, env);
  return provider.create({
    model,
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(apiKey ? { apiKey } : {}),
    ...(provider.keyEnv === undefined ? {} : { apiKeyEnv: provider.keyEnv }),
    ...(toolCalling === undefined ? {} : { toolCalling }),
    ...(settings.timeout_ms === undefined ? {} : { timeoutMs: settings.timeout_ms }),
    ...(settings.max_retries === undefined ? {} : { maxRetries: settings.max_retries }),
    ...(settings.max_reply_chars === undefined ? {} : { maxReplyChars: settings.max_reply_chars }),
    ...(settings.max_tool_call_chars === undefined ? {} : { maxToolCallChars: settings.max_tool_call_chars }),
    ...(settings.strict_tools === undefined ? {} : { strictTools: settings.strict_tools }),
    vision: settings.vision ?? takesImages(provider.vision, model),
    ...(provider.imageUrls === true ? { imageUrls: true } : {}),
    ...(options.modelsDirectory === undefined ? {} : { modelsDirectory: options.modelsDirectory }),
  });
}

/**
 * How tools are offered when a person chose it ($RIVERSE_TOOL_CALLING, else
 * `model_options.tool_calling`); undefined leaves it to the model (and to what the assistant learned
 * of it: a model that refused native tools is then asked in text).
 */
export function chosenToolCalling(
  config: ModelConfig,
  env: NodeJS.ProcessEnv = process.env,
): ToolCallingMode | undefined {
  const chosen = env.RIVERSE_TOOL_CALLING || config.model_options?.tool_calling;
  return chosen === 'native' || chosen === 'text' ? chosen : undefined;
}

/** The API root the environment gives a provider: its variable, else what it reads itself, else its default. */
function environmentBaseUrl(provider: ProviderDescriptor, env: NodeJS.ProcessEnv): string | undefined {
  const own = provider.baseUrlEnv === undefined ? undefined : env[provider.baseUrlEnv];
  return own || provider.baseUrlFromEnv?.(env) || provider.defaultBaseUrl;
}
