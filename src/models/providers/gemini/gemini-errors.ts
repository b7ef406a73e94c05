import type { GeminiErrorBody } from './gemini-wire-types.ts';
import { ModelError } from '../../model-error.ts';
import type { ErrorContext } from '../../request-errors.ts';

/** What Google's error body says: `{error: {code, message, status, details}}`. */
interface GoogleError {
  message: string;
  /** `INVALID_ARGUMENT`, `RESOURCE_EXHAUSTED`, … */
  status?: string;
  /** From an ErrorInfo detail, e.g. `API_KEY_INVALID`. */
  reason?: string;
  /** From a RetryInfo detail: how long Google asks us to wait. */
  retryDelayMs?: number;
}

/** A non-2xx answer as a ModelError, with the wait the body asks for (Retry-After is read by the caller). */
export function geminiResponseError(
  status: number,
  text: string,
  context: ErrorContext,
): { error: ModelError; retryDelayMs?: number } {
  const said = googleError(text);
  return { error: geminiStatusError(status, said, context), retryDelayMs: said.retryDelayMs };
}

/** An error object sent inside a 200 (mid-stream), by its `code`. */
export function geminiBodyError(body: GeminiErrorBody, context: ErrorContext): ModelError {
  const code = body.error?.code;
  return geminiStatusError(
    typeof code === 'number' && code >= 400 ? code : 500,
    googleError(JSON.stringify(body)),
    context,
  );
}

function geminiStatusError(status: number, said: GoogleError, context: ErrorContext): ModelError {
  const detail = said.message === '' ? '' : `: ${said.message}`;
  const { provider, model, baseUrl, url, apiKeyEnv } = context;
  // Gemini answers a wrong key with 400 INVALID_ARGUMENT, reason API_KEY_INVALID.
  const badKey = said.reason === 'API_KEY_INVALID' || /API key (?:not valid|expired)/i.test(said.message);
  if (status === 401 || status === 403 || (status === 400 && badKey)) {
    const text = !context.hasApiKey
      ? `${baseUrl} asks for an API key (HTTP ${status}${detail}); set ${apiKeyEnv}`
      : status === 403 && !badKey
        ? `${provider} refused access (HTTP 403 from ${baseUrl}${detail}); check ${apiKeyEnv} and that it may use model "${model}"`
        : `${provider} rejected the API key (HTTP ${status} from ${baseUrl}${detail}); check ${apiKeyEnv}`;
    return new ModelError('auth', text, { status });
  }
  if (status === 404) {
    return new ModelError(
      'not-found',
      `model "${model}" or URL ${url} not found (HTTP 404${detail}); check the model name (e.g. gemini-2.5-flash) and the base URL`,
      { status },
    );
  }
  if (status === 429)
    return new ModelError('rate-limited', `${provider} rate limit or quota reached (HTTP 429${detail})`, {
      status,
      retryable: true,
    });
  if (status === 408)
    return new ModelError('timeout', `${provider} timed out the request (HTTP 408${detail})`, {
      status,
      retryable: true,
    });
  if (status >= 500)
    return new ModelError('server-error', `${provider} server error (HTTP ${status} from ${baseUrl}${detail})`, {
      status,
      retryable: true,
    });
  return new ModelError(
    'bad-request',
    `${provider} rejected the request for model "${model}" (HTTP ${status}${detail})`,
    { status },
  );
}

/** Reads Google's error body (array-wrapped by the stream endpoint without `alt=sse`); other text is quoted. */
function googleError(bodyText: string): GoogleError {
  const text = bodyText.trim();
  if (text === '') return { message: '' };
  if (text.startsWith('{') || text.startsWith('[')) {
    try {
      const parsed = JSON.parse(text) as GeminiErrorBody | GeminiErrorBody[];
      const error = (Array.isArray(parsed) ? parsed[0] : parsed)?.error;
      if (error !== undefined && error !== null && typeof error === 'object') {
        const out: GoogleError = { message: typeof error.message === 'string' ? error.message.trim() : '' };
        if (typeof error.status === 'string') out.status = error.status;
        for (const detail of Array.isArray(error.details) ? error.details : []) {
          if (typeof detail?.reason === 'string') out.reason ??= detail.reason;
          const delay = typeof detail?.retryDelay === 'string' ? durationMs(detail.retryDelay) : undefined;
          if (delay !== undefined) out.retryDelayMs = delay;
        }
        if (out.message === '' && out.status !== undefined) out.message = out.status;
        return out;
      }
    } catch {
      // not JSON after all: quote it
    }
  }
  const flat = text.replace(/\s+/g, ' ');
  return { message: flat.length <= 300 ? flat : `${flat.slice(0, 300)}…` };
}

/** A protobuf Duration in JSON: `"26s"`, `"0.5s"`. */
function durationMs(value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return match === null ? undefined : Math.round(Number(match[1]) * 1000);
}
