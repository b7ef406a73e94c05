import type { ChatModel, ModelEvent, ModelRequest, ToolCallingMode } from './chat-model.ts';
import { ModelError } from './model-error.ts';
import { abortedError, badResponse, networkError, responseError, streamCutError, timeoutError, type ErrorContext } from './openai-errors.ts';
import { requestBody } from './openai-request.ts';
import { callIdSource, completionEvents, type CallIdSource } from './openai-response.ts';
import { OpenAIStreamState } from './openai-stream.ts';
import { backoffMs, retryAfterMs, sleep } from './retry.ts';
import { SseParser } from './sse.ts';

export interface OpenAICompatibleOptions {
  model: string;
  /** The API root, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseUrl: string;
  apiKey?: string;
  /** The first part of the model id (`openai:gpt-4.1-mini`); default `openai`. */
  provider?: string;
  /** The variable named when the key is missing or rejected; default `<PROVIDER>_API_KEY`. */
  apiKeyEnv?: string;
  toolCalling?: ToolCallingMode;
  headers?: Record<string, string>;
  /** Longest wait for the response headers, then between two pieces of the body (default 120 s). */
  timeoutMs?: number;
  /** Retries of a failed request, made only before any event was yielded (default 2). */
  maxRetries?: number;
  /** The first back-off; it doubles per retry, with jitter (default 500 ms). */
  retryDelayMs?: number;
  /** The longest wait before a retry; a server asking for more (`Retry-After`) gets no retry (default 60 s). */
  maxRetryDelayMs?: number;
  /** Told before each retry, e.g. to show "rate limited, retrying in 2 s". */
  onRetry?: (retry: RetryNotice) => void;
  fetch?: typeof fetch;
}

export interface RetryNotice {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  error: ModelError;
}

interface Settings extends ErrorContext {
  modelJson: string;
  headers: Record<string, string>;
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
  maxRetryDelayMs: number;
  onRetry: ((retry: RetryNotice) => void) | undefined;
  fetch: typeof fetch;
  nextCallId: CallIdSource;
}

/** A ChatModel over any server that speaks OpenAI's Chat Completions: OpenAI, DeepSeek, Qwen, Groq, vLLM, LM Studio, llama.cpp, Ollama. */
export function createOpenAICompatibleModel(options: OpenAICompatibleOptions): ChatModel {
  const provider = options.provider ?? 'openai';
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  if (!/^https?:\/\/./.test(baseUrl) || !URL.canParse(baseUrl)) throw new ModelError('not-configured', `${provider}: base URL "${options.baseUrl}" is not a URL (expected e.g. https://api.openai.com/v1)`);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.apiKey !== undefined && options.apiKey !== '') headers.authorization = `Bearer ${options.apiKey}`;
  const settings: Settings = {
    provider,
    model: options.model,
    baseUrl,
    url: `${baseUrl}/chat/completions`,
    hasApiKey: headers.authorization !== undefined,
    apiKeyEnv: options.apiKeyEnv ?? `${provider.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_API_KEY`,
    modelJson: JSON.stringify(options.model),
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
    id: `${provider}:${options.model}`,
    toolCalling: options.toolCalling ?? 'native',
    dialect: 'openai',
    stream: (request) => streamCompletion(settings, request),
  };
}

const STREAM = { stream: true } as const;

async function* streamCompletion(settings: Settings, request: ModelRequest): AsyncGenerator<ModelEvent, void, undefined> {
  const signal = request.signal;
  if (signal?.aborted === true) throw abortedError();
  const body = requestBody(settings.modelJson, request);
  const streaming = request.stream === true;
  const fetchFn = settings.fetch;
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
      if (!waiting) return; // re-armed before the next wait
      timedOut = true;
      controller.abort();
    }, settings.timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort);
    try {
      const response = await fetchFn(settings.url, { method: 'POST', headers: settings.headers, body, signal: controller.signal });
      gotHeaders = true;
      if (!response.ok) {
        retryAfter = retryAfterMs(response.headers);
        timer.refresh();
        const error = await responseError(response, settings);
        settled = true;
        throw error;
      }
      // A server may answer a streaming request with plain JSON (or a proxy with a web page).
      const type = streaming ? response.headers.get('content-type') : null;
      if (!streaming || (type !== null && (type.includes('json') || type.includes('html')))) {
        timer.refresh();
        const text = await response.text();
        settled = true;
        waiting = false;
        for (const event of completionEvents(text, settings, settings.nextCallId)) {
          yielded = true;
          yield event;
        }
        return;
      }
      if (response.body === null) throw badResponse('an empty body', '', settings);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      const parser = new SseParser();
      const state = new OpenAIStreamState(settings, settings.nextCallId);
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
        // Read to the end so the connection goes back to the pool; the answer is whole already.
        waiting = true;
        timer.refresh();
        try {
          while (!(await reader.read()).done);
        } catch {
          // a server closing rudely after [DONE] lost us nothing
        }
        waiting = false;
      } else {
        // The standard drops an event left without its blank line; a server ending that way may still have finished.
        for (const data of parser.end()) {
          try {
            state.handle(data);
          } catch (error) {
            throw streamCutError(settings, error);
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
      const failure =
        isAborted(signal)
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
