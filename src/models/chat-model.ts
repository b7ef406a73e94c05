import type { Dialect } from '../schema/dialect.ts';
import type { JsonSchema } from '../tool-runtime/parameter-schema.ts';
import type { ChatMessage, ToolCallRequest } from './chat-message.ts';
import type { ModelError } from './model-error.ts';

/** A tool as a model is given it. */
export interface ToolDefinition {
  name: string;
  description: string;
  /**
   * The parameters in the model's dialect (`compileSchema(schema, model.dialect)`; plain JSON Schema
   * for a model without one). Adapters send it as it is: compiled once by the caller, the schema
   * shown is the schema the arguments are checked against.
   */
  parameters: JsonSchema;
}

export interface ModelRequest {
  /** The system prompt. */
  system?: string;
  messages: readonly ChatMessage[];
  /**
   * Native tool definitions. Pass the same array object for every request of a catalog: adapters
   * may cache its serialized form by identity.
   */
  tools?: readonly ToolDefinition[];
  /** Stream on the wire (server-sent events). Events are yielded either way. */
  stream?: boolean;
  signal?: AbortSignal;
  /** Told before the adapter sends the request again (a 429, a 5xx, a network failure, a timeout). */
  onRetry?: (retry: RetryNotice) => void;
  /**
   * When the caller gives up (`Date.now()` time; the turn's deadline): a retry that could not start
   * before it is not made, and the error is thrown at once. The `signal` still ends what runs.
   */
  deadline?: number;
  /** The caller's sampling settings (a /v1 client's), sent in the provider's own names; unset: the provider's defaults. */
  sampling?: SamplingSettings;
  /** The answer must be JSON (of this schema): passed on where the provider's API takes it. */
  responseFormat?: ResponseFormat;
  /** Which of `tools` the model may or must call (default `auto`); without tools it is not sent. */
  toolChoice?: ToolChoice;
  /** The W3C `traceparent` header of each attempt, asked as it is sent (the turn's trace: 034); undefined sends none. */
  traceparent?: () => string | undefined;
}

/** What a client may tune of how the model writes (OpenAI's fields, in our names). */
export interface SamplingSettings {
  temperature?: number;
  topP?: number;
  /** The most tokens one reply may have. */
  maxTokens?: number;
  /** Sequences that end the reply where they would appear (not included). */
  stop?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
}

/** The answer as JSON: any object, or one that matches `schema` (held to it by the API when `strict`). */
export type ResponseFormat =
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean; description?: string };

/** `auto`: the model decides; `none`: no call; `required`: some call; `{ name }`: that tool. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** A failed model request about to be sent again. */
export interface RetryNotice {
  /** 1 for the first retry. */
  attempt: number;
  /** The wait before it: the back-off, or what the server asked for (`Retry-After`). */
  delayMs: number;
  error: ModelError;
}

export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'other';

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  /** Of the output, the tokens spent thinking, where the provider says (OpenAI's reasoning tokens, Gemini's thoughts). */
  reasoningTokens?: number;
  /** Of the input, the tokens read from the provider's prompt cache, where it says. */
  cachedInputTokens?: number;
}

export type ModelEvent =
  | { type: 'text-delta'; text: string }
  /** A piece of a tool call's arguments as it streams in (for display); `tool-call` follows with the whole call. */
  | { type: 'tool-call-delta'; index: number; id?: string; name?: string; argumentsDelta: string }
  | { type: 'tool-call'; call: ToolCallRequest }
  | { type: 'finish'; reason: FinishReason; usage?: Usage };

/** How a model is asked for tool calls: its API's function calling, or a JSON block in its text. */
export type ToolCallingMode = 'native' | 'text';

/** One model behind one provider's API. */
export interface ChatModel {
  /** `provider:model`, e.g. `openai:gpt-4.1-mini`. */
  readonly id: string;
  /** The mode this model uses unless configured otherwise. */
  readonly toolCalling: ToolCallingMode;
  /**
   * The schema dialect its API takes for native tools; definitions are compiled to it and the
   * arguments checked against exactly that. Undefined: plain JSON Schema.
   */
  readonly dialect?: Dialect;
  /**
   * It takes pictures (`images` of a message): `model_options.vision`, else what its provider
   * documents for the model's family. Without it, a turn gives it a description of each picture.
   */
  readonly vision?: boolean;
  /** Its API fetches pictures given by web link itself; without it, a link is fetched and sent as bytes. */
  readonly imageUrls?: boolean;
  /** The picture types its API takes (`image/png`, …); a picture of another type is described, not sent. Undefined: any. */
  readonly imageTypes?: readonly string[];
  /**
   * Sends one request and yields its events; ends after `finish`. Throws a ModelError when the
   * request fails (after the adapter's own retries) or the stream breaks.
   */
  stream(request: ModelRequest): AsyncIterable<ModelEvent>;
}
