import { ModelError } from '../../model-error.ts';
import { serverMessage, statusError, type ErrorContext } from '../../request-errors.ts';

/** A non-2xx answer from an OpenAI-compatible server as a ModelError, with the server's own message. */
export function openaiStatusError(status: number, bodyText: string, context: ErrorContext): ModelError {
  const { message, code } = serverMessage(bodyText);
  // An exhausted quota does not come back by waiting.
  if (status === 429 && code === 'insufficient_quota') {
    return new ModelError(
      'rate-limited',
      `${context.provider} quota exhausted (HTTP 429${message === '' ? '' : `: ${message}`})`,
      { status, retryable: false },
    );
  }
  return statusError(status, bodyText, context);
}
