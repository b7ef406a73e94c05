import type { ChatModel, ModelEvent, ModelRequest, ToolCallingMode } from './chat-model.ts';
import { anthropicResponseError } from './anthropic-errors.ts';
import { anthropicRequestBody } from './anthropic-request.ts';
import { anthropicMessageEvents } from './anthropic-response.ts';
import { AnthropicStreamState } from './anthropic-stream.ts';
import { ModelError } from './model-error.ts';
import type { RetryNotice } from './openai-compatible.ts';
import { abortedError, networkError, streamCutError, timeoutError, type ErrorContext } from './openai-errors.ts';
import { callIdSource, type CallIdSource } from './openai-response.ts';
import { backoffMs, retryAfterMs, sleep } from './retry.ts';
import { SseParser } from './sse.ts';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicOptions {
  /** e.g. `claude-sonnet-4-5`. */
  model: string;
  apiKey?: string;
  /** The API root without `/v1` (default https://api.anthropic.com); the caller passes ANTHROPIC_BASE_URL. */
  baseUrl?: string;
  /** `max_tokens`, which Anthropic requires (default 4096). */
  maxTokens?: number;
  toolCalling?: ToolCallingMode;
  /** More headers, e.g. `anthropic-beta`. */
  headers?: Record<string, string>;
  /** Longest wait for the response headers, then between two pieces of the body (default 120 s). */
  timeoutMs?: number;
  /** Retries of a failed request, made only before any event was yielded (default 2). */
  maxRetries?: number;
  /** The first back-off; it doubles per retry, with jitter (default 500 ms). */
  retryDelayMs?: number;
  /** The longest wait before a retry; a server asking for more (`retry-after`) gets no retry (default 60 s). */
  maxRetryDelayMs?: number;
  /** Told before each retry, e.g. to show "overloaded, retrying in 2 s". */
  onRetry?: (retry: RetryNotice) => void;
  fetch?: typeof fetch;
}

interface Settings extends ErrorContext {
  modelJson: string;
  maxTokens: number;
  headers: Record<string, string>;
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
  maxRetryDelayMs: number;
  onRetry: ((retry: RetryNotice) => void) | undefined;
  fetch: typeof fetch;
  nextCallId: CallIdSource;
}

/** A ChatModel over Anthropic's Messages API (`POST /v1/messages`), or a server that speaks it. */
export function createAnthropicModel(options: AnthropicOptions): ChatModel {
  const baseUrl = (options.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/./.test(baseUrl) || !URL.canParse(baseUrl)) throw new ModelError('not-configured', `anthropic: base URL "${options.baseUrl}" is not a URL (expected e.g. ${ANTHROPIC_BASE_URL})`);
  const maxTokens = options.maxTokens ?? 4096;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new ModelError('not-configured', `anthropic: maxTokens must be a whole number above 0, not ${maxTokens}`);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': ANTHROPIC_VERSION, ...options.headers };
  if (options.apiKey !== undefined && options.apiKey !== '') headers['x-api-key'] = options.apiKey;
  const settings: Settings = {
    provider: 'anthropic',
    model: options.model,
    baseUrl,
    // A base URL given with the version already on it is a common slip: do not ask for /v1/v1.
    url: baseUrl.endsWith('/v1') ? `${baseUrl}/messages` : `${baseUrl}/v1/messages`,
    hasApiKey: headers['x-api-key'] !== undefined,
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    modelJson: JSON.stringify(options.model),
    maxTokens,
    headers,
    timeoutMs: options.timeoutMs ?? 120_000,
    maxRetries: options.maxRetries ?? 2,
    retryDelayMs: options.retryDelayMs ?? 500,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
    onRetry: options.onRetry,
    fetch: options.fetch ?? globalThis.fetch,
    nextCallId: callIdSource(),
  };
  return {
    id: `anthropic:${options.model}`,
    toolCalling: options.toolCalling ?? 'native',
    dialect: 'anthropic',
    stream: (request) => streamMessage(settings, request),
  };
}

const STREAM = { stream: true } as const;

// The same attempt loop as the OpenAI adapter: one timer re-armed before every wait on the server,
// retries only while nothing has been yielded, the connection dropped whenever we stop early.
async function* streamMessage(settings: Settings, request: ModelRequest): AsyncGenerator<ModelEvent, void, undefined> {
  const signal = request.signal;
  if (signal?.aborted === true) throw abortedError();
  const body = anthropicRequestBody(settings.modelJson, settings.maxTokens, request);
  const streaming = request.stream === true;
  for (let attempt = 0; ; attempt++) {
    const controller = new AbortController();
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
    try {
      const response = await settings.fetch(settings.url, { method: 'POST', headers: settings.headers, body, signal: controller.signal });
      gotHeaders = true;
      if (!response.ok) {
        retryAfter = retryAfterMs(response.headers);
        timer.refresh();
        const error = await anthropicResponseError(response, settings);
        settled = true;
        throw error;
      }
      // A gateway may answer a streaming request with plain JSON (or a web page).
      const type = streaming ? response.headers.get('content-type') : null;
      if (!streaming || (type !== null && (type.includes('json') || type.includes('html')))) {
        timer.refresh();
        const text = await response.text();
        settled = true;
        waiting = false;
        for (const event of anthropicMessageEvents(text, settings, settings.nextCallId)) {
          yielded = true;
          yield event;
        }
        return;
      }
      if (response.body === null) throw streamCutError(settings);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      const parser = new SseParser();
      const state = new AnthropicStreamState(settings, settings.nextCallId);
      const events = state.events;
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
        if (state.done) break;
      }
      if (state.done) {
        // Read to the end so the connection goes back to the pool; the reply is whole already.
        waiting = true;
        timer.refresh();
        try {
          while (!(await reader.read()).done);
        } catch {
          // a server closing rudely after message_stop lost us nothing
        }
        waiting = false;
      } else {
        for (const data of parser.end()) {
          try {
            state.handle(data);
          } catch (error) {
            throw error instanceof ModelError && error.code !== 'bad-response' ? error : streamCutError(settings, error);
          }
        }
        if (!state.complete) throw streamCutError(settings);
      }
      settled = true;
      state.finish();
      for (let i = 0; i < events.length; i++) {
        yielded = true;
        yield events[i]!;
      }
      return;
    } catch (error) {
      const failure = isAborted(signal)
        ? abortedError()
        : error instanceof ModelError
          ? error
          : timedOut
            ? timeoutError(settings, settings.timeoutMs, gotHeaders)
            : gotHeaders
              ? streamCutError(settings, error)
              : networkError(error, settings);
      if (yielded || !failure.retryable || attempt >= settings.maxRetries) throw failure;
      if (retryAfter !== undefined && retryAfter > settings.maxRetryDelayMs) {
        throw new ModelError(failure.code, `${failure.message}; the server asks to wait ${Math.ceil(retryAfter / 1000)} s before retrying`, {
          status: failure.status,
          retryable: true,
        });
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
