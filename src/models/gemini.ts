import type { ChatModel, ModelEvent, ModelRequest, ToolCallingMode } from './chat-model.ts';
import { GeminiCallMemory } from './gemini-call-memory.ts';
import { geminiResponseError } from './gemini-errors.ts';
import { requestBody } from './gemini-request.ts';
import { GeminiStreamState } from './gemini-stream.ts';
import { ModelError } from './model-error.ts';
import type { RetryNotice } from './openai-compatible.ts';
import { abortedError, badResponse, networkError, streamCutError, timeoutError, type ErrorContext } from './openai-errors.ts';
import { callIdSource, type CallIdSource } from './openai-response.ts';
import { backoffMs, retryAfterMs, sleep } from './retry.ts';
import { SseParser } from './sse.ts';

export interface GeminiOptions {
  /** e.g. `gemini-2.5-flash`; `models/…` and `tunedModels/…` are taken as they are. */
  model: string;
  apiKey?: string;
  /** Default `https://generativelanguage.googleapis.com/v1beta`. */
  baseUrl?: string;
  /** The variable named when the key is missing or rejected (default GEMINI_API_KEY). */
  apiKeyEnv?: string;
  toolCalling?: ToolCallingMode;
  headers?: Record<string, string>;
  /** Longest wait for the response headers, then between two pieces of the body (default 120 s). */
  timeoutMs?: number;
  /** Retries of a failed request, made only before any event was yielded (default 2). */
  maxRetries?: number;
  /** The first back-off; it doubles per retry, with jitter (default 500 ms). */
  retryDelayMs?: number;
  /** The longest wait before a retry; a server asking for more gets no retry (default 60 s). */
  maxRetryDelayMs?: number;
  onRetry?: (retry: RetryNotice) => void;
  fetch?: typeof fetch;
}

interface Settings {
  plain: ErrorContext;
  streaming: ErrorContext;
  headers: Record<string, string>;
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
  maxRetryDelayMs: number;
  onRetry: ((retry: RetryNotice) => void) | undefined;
  fetch: typeof fetch;
  nextCallId: CallIdSource;
  memory: GeminiCallMemory;
}

export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

/** A ChatModel over Google's Gemini API (`generateContent`, and `streamGenerateContent?alt=sse` when streaming). */
export function createGeminiModel(options: GeminiOptions): ChatModel {
  const baseUrl = (options.baseUrl ?? GEMINI_BASE_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/./.test(baseUrl) || !URL.canParse(baseUrl)) throw new ModelError('not-configured', `gemini: base URL "${options.baseUrl}" is not a URL (expected e.g. ${GEMINI_BASE_URL})`);
  const name = options.model.replace(/^\/+/, '');
  if (name === '') throw new ModelError('not-configured', 'gemini: no model named (e.g. gemini-2.5-flash)');
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
  const settings: Settings = {
    plain,
    streaming: { ...plain, url: `${baseUrl}/${path}:streamGenerateContent?alt=sse` },
    headers,
    timeoutMs: options.timeoutMs ?? 120_000,
    maxRetries: options.maxRetries ?? 2,
    retryDelayMs: options.retryDelayMs ?? 500,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
    onRetry: options.onRetry,
    fetch: options.fetch ?? globalThis.fetch,
    nextCallId: callIdSource(),
    memory: new GeminiCallMemory(),
  };
  return {
    id: `gemini:${options.model}`,
    toolCalling: options.toolCalling ?? 'native',
    dialect: 'gemini',
    stream: (request) => streamGemini(settings, request),
  };
}

const STREAM = { stream: true } as const;

async function* streamGemini(settings: Settings, request: ModelRequest): AsyncGenerator<ModelEvent, void, undefined> {
  const signal = request.signal;
  if (signal?.aborted === true) throw abortedError();
  const body = requestBody(request, settings.memory);
  const streaming = request.stream === true;
  const context = streaming ? settings.streaming : settings.plain;
  for (let attempt = 0; ; attempt++) {
    const controller = new AbortController();
    // The timer runs the whole attempt but only fires while we wait on the server, not on our consumer.
    let waiting = true;
    let timedOut = false;
    let gotHeaders = false;
    let settled = false;
    let yielded = false;
    let retryAfter: number | undefined;
    let delayMs = 0;
    const timer = setTimeout(() => {
      if (!waiting) return;
      timedOut = true;
      controller.abort();
    }, settings.timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort);
    const state = new GeminiStreamState(context, settings.nextCallId, settings.memory, streaming);
    const events = state.events;
    try {
      const response = await settings.fetch(context.url, { method: 'POST', headers: settings.headers, body, signal: controller.signal });
      gotHeaders = true;
      if (!response.ok) {
        timer.refresh();
        const failed = await geminiResponseError(response, context);
        retryAfter = retryAfterMs(response.headers) ?? failed.retryDelayMs;
        settled = true;
        throw failed.error;
      }
      // A plain response, or a stream answered as JSON (an array of chunks without alt=sse).
      const type = streaming ? response.headers.get('content-type') : null;
      if (!streaming || (type !== null && (type.includes('json') || type.includes('html')))) {
        timer.refresh();
        const text = await response.text();
        settled = true;
        waiting = false;
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (error) {
          throw badResponse('a response that is not JSON', text, context, error);
        }
        for (const chunk of Array.isArray(parsed) ? parsed : [parsed]) state.handleChunk(chunk, text);
        if (!state.complete && events.length === 0) throw badResponse('a response without candidates', text, context);
        state.finish();
        yielded = true;
        yield* events;
        return;
      }
      if (response.body === null) throw badResponse('an empty body', '', context);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      const parser = new SseParser();
      for (;;) {
        waiting = true;
        timer.refresh();
        const { done, value } = await reader.read();
        waiting = false;
        if (done) break;
        const payloads = parser.push(decoder.decode(value, STREAM));
        let broken: unknown;
        try {
          for (let i = 0; i < payloads.length; i++) state.handle(payloads[i]!);
        } catch (error) {
          broken = error; // after the events before it are given
        }
        if (events.length > 0) {
          yielded = true;
          for (let i = 0; i < events.length; i++) yield events[i]!;
          events.length = 0;
        }
        if (broken !== undefined) throw broken;
      }
      // The standard drops an event left without its blank line; a server ending that way may still have finished.
      for (const data of parser.end()) {
        try {
          state.handle(data);
        } catch (error) {
          throw streamCutError(context, error);
        }
      }
      if (!state.complete) throw streamCutError(context);
      settled = true;
      state.finish();
      yielded = true;
      yield* events;
      return;
    } catch (error) {
      const failure = isAborted(signal)
        ? abortedError()
        : error instanceof ModelError
          ? error
          : timedOut
            ? timeoutError(context, settings.timeoutMs, gotHeaders)
            : gotHeaders
              ? streamCutError(context, error)
              : networkError(error, context);
      if (yielded || !failure.retryable || attempt >= settings.maxRetries) throw failure;
      if (retryAfter !== undefined && retryAfter > settings.maxRetryDelayMs) {
        throw new ModelError(failure.code, `${failure.message}; the server asks to wait ${Math.ceil(retryAfter / 1000)} s before retrying`, { status: failure.status, retryable: true });
      }
      delayMs = retryAfter ?? backoffMs(attempt, settings.retryDelayMs, settings.maxRetryDelayMs);
      settings.onRetry?.({ attempt: attempt + 1, delayMs, error: failure });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Stopped early (error, or the consumer left): drop the connection rather than read on.
      if (!settled) controller.abort();
    }
    if (!(await sleep(delayMs, signal))) throw abortedError();
  }
}

/** Read through a call so that TypeScript does not keep the narrowing from before the awaits. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
