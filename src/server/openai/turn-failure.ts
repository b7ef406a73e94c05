import { turnFailed, type TurnResult } from '../../assistant/turn-events.ts';
import type { Context } from 'hono';
import type { TurnFailureCode } from '../api-error-codes.ts';
import { ApiError, errorResponse } from '../api-error.ts';

/** The turn refused what the request sent: its tools. */
const REQUEST_FAULTS = new Set<TurnFailureCode>(['tool-name-clash', 'client-tools-unsupported', 'invalid-client-tool']);
/** Riverse's own faults; anything else that ends a turn is the model's (a ModelError's code). */
const SERVICE_FAULTS = new Set<TurnFailureCode>(['internal', 'store-failed', 'listener-failed']);

/**
 * A turn that ended without an answer, as the error `/v1` answers with: 400 for the request's
 * tools, 504 past the turn's deadline, 500 for Riverse's own faults, 502 when the model failed
 * (after its adapter's retries), 503 when cancelled. Undefined for an answer or client calls.
 */
export function turnFailure(result: TurnResult): ApiError | undefined {
  if (!turnFailed(result)) return undefined;
  const code: TurnFailureCode = result.error?.code ?? 'internal';
  const message = result.error?.message ?? result.text;
  if (code === 'invalid-tool-choice')
    return new ApiError(400, code, `The request's tool_choice cannot be honoured: ${message}.`, 'tool_choice');
  // The request was sound; the model could not write what it asked for (502, like the model's other failures).
  if (code === 'invalid-structured-output')
    return new ApiError(502, code, `${message[0]!.toUpperCase()}${message.slice(1)}.`, 'response_format');
  if (REQUEST_FAULTS.has(code))
    return new ApiError(400, code, `The request's tools cannot be used: ${message}.`, 'tools');
  if (code === 'turn-timeout') return new ApiError(504, code, `The turn was stopped: ${message}.`);
  if (code === 'aborted')
    return new ApiError(503, code, 'The turn was cancelled (the connection closed, or the service is stopping).');
  if (SERVICE_FAULTS.has(code)) return new ApiError(500, code, `The turn failed inside Riverse: ${message}`);
  return new ApiError(502, code, `The model behind riverse failed: ${message}`);
}

/**
 * The error answer to a failed turn. The openai client (and others built like it) sends a request
 * again after a 5xx; a turn runs tools, and its model requests were retried already, so it says not to.
 */
export function refuse(c: Context, failure: ApiError): Response {
  c.header('x-should-retry', 'false');
  return errorResponse(c, failure);
}
