import type { ChatModel, ToolCallingMode } from '../../chat-model.ts';
import { ModelError } from '../../model-error.ts';
import { modelRequest, requestPolicy, type RequestOptions, type WireFormat } from '../../model-request.ts';
import { openaiStatusError } from './openai-errors.ts';
import type { ErrorContext } from '../../request-errors.ts';
import { OPENAI_STRICT_TOOLS, OPENAI_TOOLS, requestBody } from './openai-request.ts';
import { completionEvents } from './openai-response.ts';
import { callIdSource } from '../../call-ids.ts';
import { COMMON_IMAGE_TYPES } from '../../message-images.ts';
import { OpenAIStreamState } from './openai-stream.ts';
import { phrase } from '../../model-phrases.ts';

export type { RetryNotice } from '../../model-request.ts';

export interface OpenAICompatibleOptions extends RequestOptions {
  model: string;
  /** The API root, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseUrl: string;
  apiKey?: string;
  /** The first part of the model id (`openai:gpt-4.1-mini`); default `openai`. */
  provider?: string;
  /** The variable named when the key is missing or rejected; default `<PROVIDER>_API_KEY`. */
  apiKeyEnv?: string;
  toolCalling?: ToolCallingMode;
  /**
   * Send tools with `strict: true`, their parameters in the openai-strict dialect (decision 009).
   * Only OpenAI's own API is known to honour it; default false.
   */
  strictTools?: boolean;
  /** The model takes pictures (default false: resolveModel says, from the provider's table; decision 029). */
  vision?: boolean;
  /** The server fetches pictures given by web link itself (OpenAI does; Ollama does not). */
  imageUrls?: boolean;
}

/** A ChatModel over any server that speaks OpenAI's Chat Completions: OpenAI, DeepSeek, Qwen, Groq, vLLM, LM Studio, llama.cpp, Ollama. */
export function createOpenAICompatibleModel(options: OpenAICompatibleOptions): ChatModel {
  const provider = options.provider ?? 'openai';
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  if (!/^https?:\/\/./.test(baseUrl) || !URL.canParse(baseUrl))
    throw new ModelError(
      'not-configured',
      phrase('model.bad-base-url', { provider, url: options.baseUrl, example: 'https://api.openai.com/v1' }),
    );
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.apiKey !== undefined && options.apiKey !== '') headers.authorization = `Bearer ${options.apiKey}`;
  const context: ErrorContext = {
    provider,
    model: options.model,
    baseUrl,
    url: `${baseUrl}/chat/completions`,
    hasApiKey: headers.authorization !== undefined,
    apiKeyEnv: options.apiKeyEnv ?? `${provider.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_API_KEY`,
  };
  const nextCallId = callIdSource();
  const wire: WireFormat = {
    context,
    statusError: (status, text) => ({ error: openaiStatusError(status, text, context) }),
    answerEvents: (text) => completionEvents(text, context, nextCallId),
    streamState: () => new OpenAIStreamState(context, nextCallId),
  };
  const policy = requestPolicy(options, headers);
  const modelJson = JSON.stringify(options.model);
  const tools = options.strictTools === true ? OPENAI_STRICT_TOOLS : OPENAI_TOOLS;
  const maxTokensField = new URL(baseUrl).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';
  return {
    id: `${provider}:${options.model}`,
    vision: options.vision === true,
    imageUrls: options.imageUrls === true,
    imageTypes: COMMON_IMAGE_TYPES,
    toolCalling: options.toolCalling ?? 'native',
    dialect: tools.dialect,
    stream: (request) => modelRequest(policy, wire, requestBody(modelJson, request, tools, maxTokensField), request),
  };
}
