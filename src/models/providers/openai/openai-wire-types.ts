/**
 * The OpenAI Chat Completions wire format, as far as the adapter and its test server use it. Fields
 * are optional where OpenAI-compatible servers differ (Ollama, llama.cpp, vLLM leave some out).
 */

export interface WireToolCall {
  /** Streaming only: which call a piece belongs to. */
  index?: number;
  id?: string | null;
  type?: 'function';
  function?: { name?: string | null; arguments?: string | Record<string, unknown> | null };
}

export interface WireMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** Text. A user message with pictures has an array of parts here (`text`, `image_url`), which this type leaves out: the tests that look at them cast. */
  content: string | null;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
}

interface WireTool {
  type: 'function';
  function: { name: string; description: string; parameters: unknown; strict?: boolean };
}

export interface WireRequestBody {
  model: string;
  messages: WireMessage[];
  tools?: WireTool[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [field: string]: unknown;
}

export interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

export interface WireError {
  error?: { message?: string; type?: string; code?: string | number | null } | string;
  message?: string;
}

export interface WireCompletion extends WireError {
  id?: string;
  choices?: {
    index?: number;
    message?: { role?: string; content?: string | null; tool_calls?: WireToolCall[] };
    finish_reason?: string | null;
  }[];
  usage?: WireUsage | null;
}

export interface WireChunk extends WireError {
  id?: string;
  choices?: {
    index?: number;
    delta?: { role?: string; content?: string | null; tool_calls?: WireToolCall[] };
    finish_reason?: string | null;
  }[];
  usage?: WireUsage | null;
  /** Groq puts the usage here. */
  x_groq?: { usage?: WireUsage };
}
