/**
 * Anthropic's Messages API wire format, as far as the adapter and its test server use it. Fields
 * are optional where compatible servers (proxies, gateways) may leave them out.
 */

interface AnthropicTextBlock {
  type: 'text';
  text: string;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** A picture: its bytes as base64, or a URL Anthropic fetches. */
export interface AnthropicImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };
}

interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  /** Text. A result with pictures has an array of text and image blocks here, which this type leaves out: the check and the tests that look at them cast. */
  content?: string;
  is_error?: boolean;
}

/** Blocks this adapter neither sends nor reads (thinking, server tools) pass through as this. */
interface AnthropicOtherBlock {
  type: string;
  [field: string]: unknown;
}

export type AnthropicBlock =
  | AnthropicTextBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock
  | AnthropicImageBlock;

interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicBlock[];
}

interface AnthropicTool {
  name: string;
  description: string;
  input_schema: unknown;
}

export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  system?: string;
  messages: AnthropicMessage[];
  tools?: AnthropicTool[];
  stream?: boolean;
  [field: string]: unknown;
}

export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** A non-streamed reply (`type: 'message'`), or an error body. */
export interface AnthropicResponse {
  type?: 'message' | 'error';
  error?: { type?: string; message?: string };
  id?: string;
  role?: 'assistant';
  model?: string;
  content?: (AnthropicBlock | AnthropicOtherBlock)[];
  stop_reason?: string | null;
  stop_sequence?: string | null;
  usage?: AnthropicUsage;
}

/** The `data` of one server-sent event; its `type` repeats the SSE `event` name. */
export type AnthropicStreamEvent =
  | { type: 'message_start'; message: AnthropicResponse }
  | { type: 'content_block_start'; index: number; content_block: AnthropicBlock | AnthropicOtherBlock }
  | {
      type: 'content_block_delta';
      index: number;
      delta:
        | { type: 'text_delta'; text: string }
        | { type: 'input_json_delta'; partial_json: string }
        | { type: string; [field: string]: unknown };
    }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason?: string | null; stop_sequence?: string | null };
      usage?: AnthropicUsage;
    }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error: { type?: string; message?: string } };
