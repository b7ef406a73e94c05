import type { ChatModel, ModelEvent, ToolCallingMode } from '../../chat-model.ts';
import { GeminiCallMemory } from './gemini-call-memory.ts';
import { geminiResponseError } from './gemini-errors.ts';
import { GEMINI_TOOLS, requestBody, resultImagesFor } from './gemini-request.ts';
import { GeminiStreamState } from './gemini-stream.ts';
import { ModelError } from '../../model-error.ts';
import { modelRequest, requestPolicy, type RequestOptions, type WireFormat } from '../../model-request.ts';
import { badResponse, type ErrorContext } from '../../request-errors.ts';
import { callIdSource, type CallIdSource } from '../../call-ids.ts';
import { phrase } from '../../model-phrases.ts';

export interface GeminiOptions extends RequestOptions {
  /** e.g. `gemini-2.5-flash`; `models/…` and `tunedModels/…` are taken as they are. */
  model: string;
  apiKey?: string;
  /** Default `https://generativelanguage.googleapis.com/v1beta`. */
  baseUrl?: string;
  /** The variable named when the key is missing or rejected (default GEMINI_API_KEY). */
  apiKeyEnv?: string;
  toolCalling?: ToolCallingMode;
  /** The model takes pictures (default false: resolveModel says, from the provider's table; decision 029). */
  vision?: boolean;
}

const GEMINI_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'];

export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

/** A ChatModel over Google's Gemini API (`generateContent`, and `streamGenerateContent?alt=sse` when streaming). */
export function createGeminiModel(options: GeminiOptions): ChatModel {
  const baseUrl = (options.baseUrl ?? GEMINI_BASE_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/./.test(baseUrl) || !URL.canParse(baseUrl))
    throw new ModelError(
      'not-configured',
      phrase('model.bad-base-url', { provider: 'gemini', url: String(options.baseUrl), example: GEMINI_BASE_URL }),
    );
  const name = options.model.replace(/^\/+/, '');
  if (name === '') throw new ModelError('not-configured', phrase('model.gemini-no-model'));
  const path = (name.includes('/') ? name : `models/${name}`).split('/').map(encodeURIComponent).join('/');
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.apiKey !== undefined && options.apiKey !== '') headers['x-goog-api-key'] = options.apiKey;
  const plain: ErrorContext = {
    provider: 'gemini',
    model: options.model,
    baseUrl,
    url: `${baseUrl}/${path}:generateContent`,
    hasApiKey: headers['x-goog-api-key'] !== undefined,
    apiKeyEnv: options.apiKeyEnv ?? 'GEMINI_API_KEY',
  };
  const nextCallId = callIdSource();
  const memory = new GeminiCallMemory();
  const plainWire = geminiWire(plain, nextCallId, memory, false);
  const streamWire = geminiWire(
    { ...plain, url: `${baseUrl}/${path}:streamGenerateContent?alt=sse` },
    nextCallId,
    memory,
    true,
  );
  const policy = requestPolicy(options, headers);
  const resultImages = resultImagesFor(name);
  return {
    id: `gemini:${options.model}`,
    toolCalling: options.toolCalling ?? 'native',
    dialect: GEMINI_TOOLS.dialect,
    vision: options.vision === true,
    // A request takes inline bytes, or files of Google's own Files API: not web links.
    imageUrls: false,
    // Gemini's image guide: PNG, JPEG, WEBP, HEIC, HEIF (no GIF).
    imageTypes: GEMINI_IMAGE_TYPES,
    stream: (request) =>
      modelRequest(
        policy,
        request.stream === true ? streamWire : plainWire,
        requestBody(request, memory, resultImages),
        request,
      ),
  };
}

/** Gemini's wire format at one endpoint: plain `generateContent`, or the SSE stream. */
function geminiWire(
  context: ErrorContext,
  nextCallId: CallIdSource,
  memory: GeminiCallMemory,
  streaming: boolean,
): WireFormat {
  const streamState = () => new GeminiStreamState(context, nextCallId, memory, streaming);
  return {
    context,
    statusError: (status, text) => geminiResponseError(status, text, context),
    // A plain response, or a stream answered as JSON (an array of chunks without alt=sse).
    answerEvents(text): readonly ModelEvent[] {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw badResponse('a response that is not JSON', text, context, error);
      }
      const state = streamState();
      for (const chunk of Array.isArray(parsed) ? parsed : [parsed]) state.handleChunk(chunk, text);
      if (!state.complete && state.events.length === 0)
        throw badResponse('a response without candidates', text, context);
      state.finish();
      return state.events;
    },
    streamState,
  };
}
