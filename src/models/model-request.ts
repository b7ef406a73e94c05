import type { ModelEvent, ModelRequest, RetryNotice } from './chat-model.ts';
import {
  defaultPost,
  fetchPost,
  readText,
  type HttpPost,
  type HttpResponse,
  type RequestBody,
} from './http-transport.ts';
import { ModelError } from './model-error.ts';
import {
  abortedError,
  networkError,
  redirectError,
  replyTooLargeError,
  streamCutError,
  timeoutError,
  type ErrorContext,
} from './request-errors.ts';
import {
  DEFAULT_MAX_REPLY_CHARS,
  DEFAULT_MAX_TOOL_CALL_CHARS,
  REPLY_SETTING,
  ReplyMeter,
  wireLimit,
  type ReplyCaps,
} from './reply-limits.ts';
import { backoffMs, retryAfterMs, sleep } from './retry.ts';
import { SseEventTooLarge, SseParser } from './sse.ts';

/** The options every HTTP model adapter takes about how it sends. */
export interface RequestOptions {
  /** More headers for every request. */
  headers?: Record<string, string>;
  /** Longest silence: the wait for the response headers, then between two pieces of the body (default 60 s). */
  timeoutMs?: number;
  /** Retries of a failed request, made only before any event was yielded (default 2). */
  maxRetries?: number;
  /** The first back-off; it doubles per retry, with jitter (default 500 ms). */
  retryDelayMs?: number;
  /** The longest wait before a retry; a server asking for more (`Retry-After`) gets no retry (default 60 s). */
  maxRetryDelayMs?: number;
  /** Told before each retry of every request, e.g. to log it (a request's own `onRetry` is told too). */
  onRetry?: (retry: RetryNotice) => void;
  /** Send through this `fetch` instead of Riverse's own pooled client (e.g. to go through a proxy). */
  fetch?: typeof fetch;
  /** The longest reply — text and tool-call arguments together — in characters (default 500,000); past it the request fails with `reply-too-large`. */
  maxReplyChars?: number;
  /** The longest arguments of one tool call, in characters (default 200,000). */
  maxToolCallChars?: number;
}

/**
 * A silent server is given up on after this (and once more on the retry: some 40 s in all), while a
 * model that streams, however slowly, is never cut: every piece re-arms the wait. The turn's own
 * deadline bounds the whole.
 */
// 60 s: a reasoning model (OpenAI o-series through chat completions) or a local model on a CPU can
// be silent for tens of seconds before its first token; a server that is merely gone still costs
// two of these (one retry), well inside the turn deadline.
export const DEFAULT_TIMEOUT_MS = 60_000;

/** The policy from the options; `headers` are the adapter's, the caller's `options.headers` merged in. */
export function requestPolicy(options: RequestOptions, headers: Record<string, string>): RequestPolicy {
  return {
    post: options.fetch === undefined ? defaultPost : fetchPost(options.fetch),
    headers,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? 2,
    retryDelayMs: options.retryDelayMs ?? 500,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
    onRetry: options.onRetry,
    caps: {
      maxReplyChars: options.maxReplyChars ?? DEFAULT_MAX_REPLY_CHARS,
      maxToolCallChars: options.maxToolCallChars ?? DEFAULT_MAX_TOOL_CALL_CHARS,
    },
  };
}

/** How the adapters send: the transport, the fixed headers, and the timeout and retry policy. */
export interface RequestPolicy {
  post: HttpPost;
  headers: Record<string, string>;
  /** Longest wait for the response headers, then between two pieces of the body. */
  timeoutMs: number;
  /** Retries of a failed request, made only before any event was yielded. */
  maxRetries: number;
  retryDelayMs: number;
  /** A server asking for a longer wait gets no retry. */
  maxRetryDelayMs: number;
  onRetry: ((retry: RetryNotice) => void) | undefined;
  /** The size caps of one reply. */
  caps: ReplyCaps;
}

/** Enough of an error body for the server's message; the rest is not read. */
const ERROR_BODY_BYTES = 65_536;

export type { RetryNotice } from './chat-model.ts';

/** What one provider's wire format contributes to a request; the attempt loop around it is shared. */
export interface WireFormat {
  /** Names the provider, model and URL in errors; `url` is where the request goes. */
  context: ErrorContext;
  /** A non-2xx answer as an error, with a wait the body asks for (Gemini's RetryInfo). */
  statusError(status: number, bodyText: string): { error: ModelError; retryDelayMs?: number };
  /** The events of a whole (non-streamed) answer; throws a ModelError for a malformed one. */
  answerEvents(text: string): readonly ModelEvent[];
  /** A fresh reader for the server-sent events of a streamed answer. */
  streamState(): StreamState;
}

interface StreamState {
  /** Events made by `handle` and `finish`, taken (and emptied) by the loop. */
  readonly events: ModelEvent[];
  /** The end marker came (`[DONE]`, `message_stop`); the rest of the body is drained unread. */
  readonly done?: boolean;
  /** What came is a whole answer, end marker or not. */
  readonly complete: boolean;
  handle(data: string): void;
  finish(): void;
}

const STREAM = { stream: true } as const;

/**
 * One model request as events, with the faults handled the same way for every provider: one timer
 * re-armed before every wait on the server (so a slow consumer never times out the model), retries
 * with back-off or `Retry-After` only while nothing has been yielded, the abort signal passed to
 * the connection, and the connection dropped whenever we stop early.
 */
export async function* modelRequest(
  policy: RequestPolicy,
  wire: WireFormat,
  body: RequestBody,
  request: ModelRequest,
): AsyncGenerator<ModelEvent, void, undefined> {
  const { signal, onRetry, deadline } = request;
  const streaming = request.stream === true;
  if (signal?.aborted === true) throw abortedError();
  const context = wire.context;
  const wireMax = wireLimit(policy.caps);
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
      if (!waiting) return; // re-armed before the next wait
      timedOut = true;
      controller.abort();
    }, policy.timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort);
    let open: HttpResponse | undefined; // cancelled when we stop before the answer is read
    try {
      const traceparent = request.traceparent?.();
      const headers = traceparent === undefined ? policy.headers : { ...policy.headers, traceparent };
      const response = await policy.post(context.url, headers, body, controller.signal);
      open = response;
      gotHeaders = true;
      if (response.status < 200 || response.status > 299) {
        timer.refresh();
        const bodyText = await readText(response, ERROR_BODY_BYTES, () => timer.refresh()).then(
          (read) => {
            settled = read.complete;
            return read.text;
          },
          () => '',
        );
        if (response.status < 400) throw redirectError(response.status, response.header('location'), context);
        const failed = wire.statusError(response.status, bodyText);
        retryAfter = retryAfterMs((name) => response.header(name)) ?? failed.retryDelayMs;
        throw failed.error;
      }
      // A server may answer a streaming request with plain JSON (or a proxy with a web page).
      const type = streaming ? response.header('content-type') : undefined;
      if (!streaming || (type !== undefined && (type.includes('json') || type.includes('html')))) {
        timer.refresh();
        const read = await readText(response, wireMax, () => timer.refresh());
        if (!read.complete) throw replyTooLargeError(context, { kind: 'body' }, wireMax, REPLY_SETTING);
        settled = true;
        waiting = false;
        const events = wire.answerEvents(read.text);
        const meter = new ReplyMeter(policy.caps, context);
        for (let i = 0; i < events.length; i++) meter.check(events[i]!);
        yielded = true;
        for (let i = 0; i < events.length; i++) yield events[i]!;
        return;
      }
      const decoder = new TextDecoder();
      const parser = new SseParser(wireMax);
      const meter = new ReplyMeter(policy.caps, context);
      const state = wire.streamState();
      const events = state.events;
      for (;;) {
        waiting = true;
        timer.refresh();
        const piece = await response.read();
        waiting = false;
        if (piece === undefined) break;
        const payloads = parser.push(decoder.decode(piece, STREAM));
        let broken: unknown;
        try {
          for (let i = 0; i < payloads.length; i++) state.handle(payloads[i]!);
        } catch (error) {
          broken = error; // after the events before it are given
        }
        if (events.length > 0) {
          for (let i = 0; i < events.length; i++) {
            meter.check(events[i]!); // past a cap: the connection is dropped here, before more is read
            yielded = true;
            yield events[i]!;
          }
          events.length = 0;
        }
        if (broken !== undefined) throw broken;
        if (state.done === true) break;
      }
      if (state.done === true) {
        // Read to the end so the connection goes back to the pool; the answer is whole already.
        waiting = true;
        timer.refresh();
        try {
          await response.drain();
        } catch {
          // a server closing rudely after the end marker lost us nothing
        }
        waiting = false;
      } else {
        // The standard drops an event left without its blank line; a server ending that way may still have finished.
        for (const data of parser.end()) {
          try {
            state.handle(data);
          } catch (error) {
            // An error the server reported stands; a half-written event means the stream was cut.
            throw error instanceof ModelError && error.code !== 'bad-response' ? error : streamCutError(context, error);
          }
        }
        if (!state.complete) throw streamCutError(context);
      }
      settled = true;
      state.finish();
      for (let i = 0; i < events.length; i++) {
        meter.check(events[i]!);
        yielded = true;
        yield events[i]!;
      }
      return;
    } catch (error) {
      const failure = isAborted(signal)
        ? abortedError()
        : error instanceof ModelError
          ? error
          : error instanceof SseEventTooLarge
            ? replyTooLargeError(context, { kind: 'event' }, error.limit, REPLY_SETTING)
            : timedOut
              ? timeoutError(context, policy.timeoutMs, gotHeaders)
              : gotHeaders
                ? streamCutError(context, error)
                : networkError(error, context);
      // A server silent for our whole limit is asked once more, not every retry: it rarely wakes.
      const retries = timedOut ? Math.min(1, policy.maxRetries) : policy.maxRetries;
      if (yielded || !failure.retryable || attempt >= retries) throw failure;
      if (retryAfter !== undefined && retryAfter > policy.maxRetryDelayMs) {
        throw new ModelError(
          failure.code,
          `${failure.message}; the server asks to wait ${Math.ceil(retryAfter / 1000)} s before retrying`,
          {
            status: failure.status,
            retryable: true,
          },
        );
      }
      delayMs = retryAfter ?? backoffMs(attempt, policy.retryDelayMs, policy.maxRetryDelayMs);
      // A retry that cannot start before the turn's deadline is no retry: the user gets the real error now.
      if (deadline !== undefined && Date.now() + delayMs >= deadline) throw failure;
      const notice: RetryNotice = { attempt: attempt + 1, delayMs, error: failure };
      policy.onRetry?.(notice);
      onRetry?.(notice);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Stopped early (error, or the consumer left): drop the connection rather than read on.
      if (!settled) {
        controller.abort();
        open?.cancel();
      }
    }
    if (!(await sleep(delayMs, signal))) throw abortedError();
  }
}

/** Read through a call so that TypeScript does not keep the narrowing from before the awaits. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
