import { ModelError } from '../../model-error.ts';
import { serverMessage, statusError, type ErrorContext } from '../../request-errors.ts';

/*
 * Anthropic's errors are `{type: 'error', error: {type, message}}`, which the shared status mapping
 * already reads (it looks for `error.message`); what differs is 529 "overloaded" and the error
 * event that can come in the middle of a stream.
 */

/** A non-2xx answer as a ModelError, with Anthropic's own message from the body. */
export function anthropicStatusError(status: number, text: string, context: ErrorContext): ModelError {
  if (status === 529) {
    const { message } = serverMessage(text);
    const said = message === '' ? '' : `: ${message}`;
    return new ModelError(
      'server-error',
      `${context.provider} is overloaded (HTTP 529 from ${context.baseUrl}${said}); try again shortly`,
      { status: 529, retryable: true },
    );
  }
  return statusError(status, text, context);
}

/** An `error` event in a stream, or an error body sent with status 200, by Anthropic's error type. */
export function anthropicBodyError(
  error: { type?: string; message?: string } | undefined,
  context: ErrorContext,
): ModelError {
  const type = error?.type ?? 'api_error';
  const said = `${context.provider} reported ${type}${error?.message ? `: ${error.message}` : ''}`;
  switch (type) {
    case 'overloaded_error':
    case 'api_error':
      return new ModelError('server-error', said, { retryable: true });
    case 'rate_limit_error':
      return new ModelError('rate-limited', said, { retryable: true });
    case 'timeout_error':
      return new ModelError('timeout', said, { retryable: true });
    case 'authentication_error':
    case 'permission_error':
      return new ModelError('auth', `${said}; check ${context.apiKeyEnv}`);
    case 'not_found_error':
      return new ModelError('not-found', `${said}; check the model name "${context.model}"`);
    case 'invalid_request_error':
    case 'request_too_large':
    case 'billing_error':
      return new ModelError('bad-request', said);
    default:
      return new ModelError('server-error', said, { retryable: true });
  }
}

/** A body that is not the expected JSON; a web page usually means a wrong base URL. */
export function anthropicBadResponse(
  what: string,
  bodyText: string,
  context: ErrorContext,
  cause?: unknown,
): ModelError {
  const flat = bodyText.replace(/\s+/g, ' ').trim();
  const shown = flat.length <= 120 ? flat : `${flat.slice(0, 120)}…`;
  const hint = /^\s*</.test(bodyText)
    ? '; it looks like a web page: check the base URL (e.g. https://api.anthropic.com)'
    : '';
  return new ModelError(
    'bad-response',
    `${context.provider} sent ${what} from ${context.url}: ${JSON.stringify(shown)}${hint}`,
    { cause },
  );
}
