import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiErrorCode, TurnFailureCode } from './api-error-codes.ts';

/**
 * A request the service refuses, with a stable `code` a client can branch on (API_ERROR_CODES, or
 * on `/v1` a failed turn's own) and a message that says what to do. Thrown anywhere in a route;
 * the app's error handler answers with it.
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ApiErrorCode | TurnFailureCode;
  /** The request field at fault, when there is one (OpenAI's `param`). */
  readonly param: string | undefined;

  constructor(status: ContentfulStatusCode, code: ApiErrorCode | TurnFailureCode, message: string, param?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.param = param;
  }
}

/** OpenAI's error `type` for a status. */
function openAIType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

/** True for the OpenAI-compatible endpoint, which answers errors in OpenAI's shape. */
export function isOpenAIPath(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/');
}

/**
 * The error body: `{ error: { code, message } }`, or on `/v1` OpenAI's
 * `{ error: { message, type, param, code } }`, which its clients read.
 */
export function errorBody(path: string, error: Pick<ApiError, 'status' | 'code' | 'message' | 'param'>): object {
  if (isOpenAIPath(path))
    return {
      error: { message: error.message, type: openAIType(error.status), param: error.param ?? null, code: error.code },
    };
  return {
    error: { code: error.code, message: error.message, ...(error.param === undefined ? {} : { param: error.param }) },
  };
}

/** Answers with an error in the shape the path's clients read. */
export function errorResponse(c: Context, error: ApiError): Response {
  return c.json(errorBody(c.req.path, error), error.status);
}
