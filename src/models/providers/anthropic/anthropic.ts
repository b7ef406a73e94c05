import { anthropicStatusError } from './anthropic-errors.ts';
import { ANTHROPIC_TOOLS, anthropicRequestBody } from './anthropic-request.ts';
import { anthropicMessageEvents } from './anthropic-response.ts';
import { AnthropicStreamState } from './anthropic-stream.ts';
import type { ChatModel, ToolCallingMode } from '../../chat-model.ts';
import { ModelError } from '../../model-error.ts';
import { modelRequest, requestPolicy, type RequestOptions, type WireFormat } from '../../model-request.ts';
import type { ErrorContext } from '../../request-errors.ts';
import { callIdSource } from '../../call-ids.ts';
import { COMMON_IMAGE_TYPES } from '../../message-images.ts';
import { phrase } from '../../model-phrases.ts';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicOptions extends RequestOptions {
  /** e.g. `claude-sonnet-4-5`. */
  model: string;
  apiKey?: string;
  /** The API root without `/v1` (default https://api.anthropic.com); the caller passes ANTHROPIC_BASE_URL. */
  baseUrl?: string;
  /** `max_tokens`, which Anthropic requires (default 4096). */
  maxTokens?: number;
  toolCalling?: ToolCallingMode;
  /** The model takes pictures (default false: resolveModel says, from the provider's table; decision 029). */
  vision?: boolean;
}

/** A ChatModel over Anthropic's Messages API (`POST /v1/messages`), or a server that speaks it. */
export function createAnthropicModel(options: AnthropicOptions): ChatModel {
  const baseUrl = (options.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/./.test(baseUrl) || !URL.canParse(baseUrl))
    throw new ModelError(
      'not-configured',
      phrase('model.bad-base-url', {
        provider: 'anthropic',
        url: String(options.baseUrl),
        example: ANTHROPIC_BASE_URL,
      }),
    );
  const maxTokens = options.maxTokens ?? 4096;
  if (!Number.isInteger(maxTokens) || maxTokens < 1)
    throw new ModelError('not-configured', phrase('model.anthropic-max-tokens', { value: String(maxTokens) }));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'anthropic-version': ANTHROPIC_VERSION,
    ...options.headers,
  };
  if (options.apiKey !== undefined && options.apiKey !== '') headers['x-api-key'] = options.apiKey;
  const context: ErrorContext = {
    provider: 'anthropic',
    model: options.model,
    baseUrl,
    // A base URL given with the version already on it is a common slip: do not ask for /v1/v1.
    url: baseUrl.endsWith('/v1') ? `${baseUrl}/messages` : `${baseUrl}/v1/messages`,
    hasApiKey: headers['x-api-key'] !== undefined,
    apiKeyEnv: 'ANTHROPIC_API_KEY',
  };
  const nextCallId = callIdSource();
  const wire: WireFormat = {
    context,
    statusError: (status, text) => ({ error: anthropicStatusError(status, text, context) }),
    answerEvents: (text) => anthropicMessageEvents(text, context, nextCallId),
    streamState: () => new AnthropicStreamState(context, nextCallId),
  };
  const policy = requestPolicy(options, headers);
  const modelJson = JSON.stringify(options.model);
  return {
    id: `anthropic:${options.model}`,
    toolCalling: options.toolCalling ?? 'native',
    dialect: ANTHROPIC_TOOLS.dialect,
    vision: options.vision === true,
    // Anthropic fetches an image source of type `url` itself.
    imageUrls: true,
    imageTypes: COMMON_IMAGE_TYPES,
    stream: (request) => modelRequest(policy, wire, anthropicRequestBody(modelJson, maxTokens, request), request),
  };
}
