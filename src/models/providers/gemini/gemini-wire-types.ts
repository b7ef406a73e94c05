import type { SchemaNode } from '../../../schema/schema-node.ts';
/**
 * Google's Gemini `generateContent` wire format (v1beta), as far as the adapter and its test
 * server use it. Response fields are optional: chunks of a stream carry only part of them.
 */

export interface GeminiFunctionCall {
  name?: string;
  args?: Record<string, unknown> | null;
  /** Set by some models; most send calls without one. */
  id?: string;
}

/** Bytes as base64, with their type. */
export interface GeminiBlob {
  mimeType: string;
  data: string;
}

export interface GeminiFunctionResponse {
  name: string;
  response: { content: string } | { error: string };
  id?: string;
  /** Pictures the function returned (Gemini 3 and later). */
  parts?: { inlineData: GeminiBlob }[];
}

export interface GeminiPart {
  text?: string;
  /** A summary of the model's thinking, not part of the answer. */
  thought?: boolean;
  /** Opaque; Gemini 3 wants it back on the first function call of a step. */
  thoughtSignature?: string;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
  inlineData?: GeminiBlob;
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  /** The gemini dialect of JSON Schema (src/schema/gemini-dialect.ts). */
  parameters?: SchemaNode;
}

export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: { functionDeclarations: GeminiFunctionDeclaration[] }[];
  [field: string]: unknown;
}

export interface GeminiUsage {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  /** Thinking models: billed as output, counted apart from the candidates. */
  thoughtsTokenCount?: number;
  /** Of the prompt, the tokens read from a context cache. */
  cachedContentTokenCount?: number;
  totalTokenCount?: number;
}

export interface GeminiErrorBody {
  error?: { code?: number; message?: string; status?: string; details?: GeminiErrorDetail[] };
}

export interface GeminiErrorDetail {
  '@type'?: string;
  /** ErrorInfo: e.g. `API_KEY_INVALID`. */
  reason?: string;
  /** RetryInfo: e.g. `"26s"`. */
  retryDelay?: string;
  [field: string]: unknown;
}

export interface GeminiResponse extends GeminiErrorBody {
  candidates?: {
    content?: { role?: string; parts?: GeminiPart[] } | null;
    finishReason?: string;
    index?: number;
  }[];
  /** Set instead of candidates when the prompt itself was blocked. */
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsage;
  modelVersion?: string;
}
