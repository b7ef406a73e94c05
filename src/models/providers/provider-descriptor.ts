import type { Phrase } from '../../core/phrase.ts';
import type { ChatModel, ToolCallingMode } from '../chat-model.ts';
import type { ToolsWire } from '../tools-wire.ts';
import type { ProviderWireName } from './provider-wire-names.ts';
import type { VisionTable } from './vision-models.ts';

/**
 * What one provider is, all in one place: resolve-model.ts reads these to turn `prefix:model` into
 * a ChatModel, to choose a model when none is named and to say what to set; the wires, the help's
 * list and the error messages are derived from them too. Adding a provider is a folder with its
 * descriptor and one line in providers.ts (and its name in provider-names.ts, which a test checks).
 */
export interface ProviderDescriptor {
  /**
   * The prefix in `RIVERSE_MODEL=prefix:model` (lower case), which is also the first part of the
   * model id; two prefixes for one service (qwen, dashscope) are two descriptors.
   */
  readonly name: string;
  /** A model to show in messages (`prefix:example`), and the one used when only the key is set. */
  readonly example: string;
  /**
   * The environment variable holding the API key. When it is set, the key is required unless the
   * base URL was changed (a local server, a proxy); without it, no key is asked for.
   */
  readonly keyEnv?: string;
  /** The environment variable with another API root; when it is set, the key is not required. */
  readonly baseUrlEnv?: string;
  /** The API root when neither model_options.base_url nor a variable gives one; none for local. */
  readonly defaultBaseUrl?: string;
  /**
   * The API root from a variable that is not a base URL (Ollama's OLLAMA_HOST names a host): it
   * takes the place of defaultBaseUrl, and unlike baseUrlEnv it does not waive the key.
   */
  readonly baseUrlFromEnv?: (env: NodeJS.ProcessEnv) => string;
  /**
   * The ways its adapter sends tools, by the name `riverse tools show --dialect` takes; providers
   * on one adapter (the OpenAI-compatible ones) give the same wire objects.
   */
  readonly wires: Readonly<Partial<Record<ProviderWireName, ToolsWire>>>;
  /**
   * How it offers a model when nothing names one: `key` for its example when keyEnv is set, or a
   * search that yields the model part (undefined when there is none). Tried in the list's order;
   * a provider without it is used only when named.
   */
  readonly discover?: 'key' | ((env: NodeJS.ProcessEnv, options: ChooseModelOptions) => Promise<string | undefined>);
  /**
   * What to set up beside `RIVERSE_MODEL=prefix:example`, for the message shown when no model is
   * configured (built when that message is, so it may read files). Without it, the provider is
   * only named in that message's list.
   */
  readonly setupHint?: () => Phrase;
  /**
   * What the error says when the name has this prefix and no model; default
   * `"name" names no model; write prefix:<model>, e.g. prefix:example.`
   */
  readonly noModelNamed?: (name: string) => Phrase;
  /** Which of its models take pictures, as it documents them (`model_options.vision` overrides it); none: no model does. */
  readonly vision?: VisionTable;
  /** Its API fetches pictures given by web link (an image part with an https URL) itself. */
  readonly imageUrls?: boolean;
  /** Its adapter, given what resolution found; it may throw a ModelError for a setting it does not take. */
  readonly create: (settings: ModelSettings) => ChatModel;
}

/** What an adapter is created from: the model part of the name, and what riverse.yaml and the environment say. */
export interface ModelSettings {
  model: string;
  /** model_options.base_url, else the descriptor's variable, else its default; absent for local. */
  baseUrl?: string;
  apiKey?: string;
  /** The descriptor's keyEnv, for the adapter to name when the key is missing or rejected. */
  apiKeyEnv?: string;
  toolCalling?: ToolCallingMode;
  timeoutMs?: number;
  maxRetries?: number;
  maxReplyChars?: number;
  maxToolCallChars?: number;
  strictTools?: boolean;
  /** The model takes pictures: `model_options.vision`, else the descriptor's table. */
  vision?: boolean;
  /** The descriptor's `imageUrls`. */
  imageUrls?: boolean;
  /** Where local models are downloaded (`local:hf:…`). */
  modelsDirectory?: string;
}

/** What the user is asked before the embedded default model is downloaded. */
export interface DownloadOffer {
  file: string;
  sizeGb: number;
  directory: string;
}

/** What choosing a model takes beside the config and the environment. */
export interface ChooseModelOptions {
  /** Where local models are downloaded (`local:hf:…`). */
  modelsDirectory?: string;
  /** Asks the user (an interactive chat) whether to download the embedded default model. */
  confirmDownload?: (offer: DownloadOffer) => Promise<boolean>;
}
