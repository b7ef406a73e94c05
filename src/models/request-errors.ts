import type { Phrase } from '../core/phrase.ts';
import { ModelError } from './model-error.ts';
import { phrase } from './model-phrases.ts';

/*
 * The errors of a model request that every HTTP adapter meets, in the words the user reads: an HTTP
 * status, a redirect, a network failure, a cut stream, a body that is not what was asked for, a
 * timeout, a reply past its cap. A provider's own error bodies and codes are in its *-errors.ts.
 */

/** The error bodies servers send: `{error: {message, code}}`, `{error: "…"}` (Ollama, llama.cpp) or `{message}`. */
interface ErrorBody {
  error?: { message?: string; code?: string | number | null } | string | null;
  message?: string;
}

/** What an error message names: who was called, for which model, where, and where the key comes from. */
export interface ErrorContext {
  provider: string;
  model: string;
  baseUrl: string;
  url: string;
  hasApiKey: boolean;
  apiKeyEnv: string;
}

/** A non-2xx answer as a ModelError, with the server's own message from the body. */
export function statusError(status: number, bodyText: string, context: ErrorContext): ModelError {
  const { message } = serverMessage(bodyText);
  const said = message === '' ? '' : `: ${message}`;
  const { provider, model, baseUrl, url, apiKeyEnv } = context;
  if (status === 401 || status === 403) {
    const text = !context.hasApiKey
      ? `${baseUrl} asks for an API key (HTTP ${status}${said}); set ${apiKeyEnv}`
      : status === 401
        ? `${provider} rejected the API key (HTTP 401 from ${baseUrl}${said}); check ${apiKeyEnv}`
        : `${provider} refused access (HTTP 403 from ${baseUrl}${said}); check ${apiKeyEnv} and that it may use model "${model}"`;
    return new ModelError('auth', text, { status });
  }
  if (status === 404) {
    return new ModelError(
      'not-found',
      `model "${model}" or URL ${url} not found (HTTP 404${said}); check the model name and the base URL`,
      { status },
    );
  }
  if (status === 429)
    return new ModelError('rate-limited', `${provider} rate limit reached (HTTP 429${said})`, {
      status,
      retryable: true,
    });
  if (status === 408)
    return new ModelError('timeout', `${provider} timed out the request (HTTP 408${said})`, {
      status,
      retryable: true,
    });
  if (status >= 500)
    return new ModelError('server-error', `${provider} server error (HTTP ${status} from ${baseUrl}${said})`, {
      status,
      retryable: true,
    });
  return new ModelError(
    'bad-request',
    `${provider} rejected the request for model "${model}" (HTTP ${status}${said})`,
    { status },
  );
}

/** A 3xx: the request (with its body) is not sent on; the user fixes the base URL instead. */
export function redirectError(status: number, location: string | undefined, context: ErrorContext): ModelError {
  const where = location === undefined || location === '' ? 'elsewhere' : `to ${location}`;
  return new ModelError(
    'bad-request',
    `${context.url} redirects ${where} (HTTP ${status}); set the base URL to the address it points to`,
    { status },
  );
}

/** The server's own words from its error body (see ErrorBody), or the text itself. */
export function serverMessage(bodyText: string): { message: string; code?: string } {
  const text = bodyText.trim();
  if (text === '') return { message: '' };
  if (text.startsWith('{')) {
    try {
      const body = JSON.parse(text) as ErrorBody;
      const error = body.error;
      if (typeof error === 'string') return { message: error };
      if (error !== undefined && error !== null && typeof error.message === 'string') {
        return typeof error.code === 'string'
          ? { message: error.message, code: error.code }
          : { message: error.message };
      }
      if (typeof body.message === 'string') return { message: body.message };
    } catch {
      // not JSON after all: quote it
    }
  }
  return { message: shorten(text) };
}

/** fetch failed before any answer: name the URL and, from the cause's code, the likely fix. */
export function networkError(error: unknown, context: ErrorContext): ModelError {
  const code = errorCode(error);
  const url = context.baseUrl;
  // A phrase where Riverse has the words (a person reads them in their language); the system's own words stay as they are.
  let text: string | Phrase;
  if (code === 'ECONNREFUSED') text = phrase('model.network.refused', { url });
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    text = phrase('model.network.not-found', { url, host: new URL(url).hostname, code });
  else if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    text = phrase('model.network.timed-out', { url, code });
  else text = `cannot reach ${url}: ${innermostMessage(error)}${code === undefined ? '' : ` (${code})`}`;
  return new ModelError('network', text, { retryable: true, cause: error });
}

/** The connection broke after the answer began. */
export function streamCutError(context: ErrorContext, cause?: unknown): ModelError {
  const why = cause === undefined ? '' : ` (${innermostMessage(cause)})`;
  return new ModelError('stream-cut', `the response from ${context.baseUrl} broke off before it was complete${why}`, {
    retryable: true,
    cause,
  });
}

export function badResponse(what: string, bodyText: string, context: ErrorContext, cause?: unknown): ModelError {
  const looksHtml = /^\s*</.test(bodyText);
  const hint = looksHtml ? '; it looks like a web page: check that the base URL ends in the API path (often /v1)' : '';
  return new ModelError(
    'bad-response',
    `${context.provider} sent ${what} from ${context.url}: ${JSON.stringify(shorten(bodyText, 120))}${hint}`,
    { cause },
  );
}

export function abortedError(): ModelError {
  return new ModelError('aborted', 'the model request was cancelled');
}

export function timeoutError(context: ErrorContext, timeoutMs: number, midResponse: boolean): ModelError {
  const seconds = `${timeoutMs / 1000} s`;
  const text = midResponse
    ? `${context.provider} stopped sending for ${seconds} in the middle of a response from ${context.baseUrl}`
    : `no response from ${context.url} within ${seconds}`;
  return new ModelError('timeout', `${text} (model_options.timeout_ms in riverse.yaml sets this limit)`, {
    retryable: true,
    limit: { setting: 'model_options.timeout_ms', value: timeoutMs },
  });
}

/** What a reply ran past: its text, one tool call's arguments, or one stream event or body holding them. */
export type ReplyPart = { kind: 'text' } | { kind: 'tool-call'; name: string } | { kind: 'event' } | { kind: 'body' };

/** A reply past its cap: the connection is dropped there, and the message names the setting to raise. */
export function replyTooLargeError(context: ErrorContext, part: ReplyPart, limit: number, setting: string): ModelError {
  const what =
    part.kind === 'text'
      ? `a reply of more than ${limit} characters (text and tool-call arguments together)`
      : part.kind === 'tool-call'
        ? `arguments of more than ${limit} characters for the tool call ${JSON.stringify(part.name)}`
        : part.kind === 'event'
          ? `a stream event of more than ${limit} characters`
          : `a response body of more than ${limit} bytes`;
  return new ModelError(
    'reply-too-large',
    `${context.provider} sent ${what} from ${context.url}; Riverse stopped reading there. Raise ${setting} in riverse.yaml if replies this large are expected`,
    {
      limit: { setting, value: limit },
    },
  );
}

function errorCode(error: unknown): string | undefined {
  let current = error as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  // undici wraps the socket error in `cause`, and several addresses' errors in an AggregateError.
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth++) {
    if (typeof current.code === 'string') return current.code;
    current = (Array.isArray(current.errors) ? current.errors[0] : current.cause) as typeof current;
  }
  return undefined;
}

function innermostMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}

function shorten(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max)}…`;
}
