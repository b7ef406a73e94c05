import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError, errorResponse } from './api-error.ts';

/**
 * Bodies over `maxBytes` get 413 `body-too-large`: at once when `Content-Length` says so, else
 * (chunked) as soon as the bytes read pass the cap, by Hono's bodyLimit, which counts them as they
 * come. The rest is never read: the connection closes after the answer. A declared length under
 * the cap is checked here from the header alone — Node's parser holds the body to it — because
 * reaching for the body (as bodyLimit does first) builds a whole web Request, which costs a
 * small request about a third of its time.
 */
export function bodySizeRule(maxBytes: number): MiddlewareHandler {
  const tooLarge: MiddlewareHandler = async (c) => {
    c.header('Connection', 'close');
    return errorResponse(
      c,
      new ApiError(
        413,
        'body-too-large',
        `The request body is over ${maxBytes} bytes, the most this service takes (server.max_body_bytes in riverse.yaml).`,
      ),
    );
  };
  const counted = bodyLimit({ maxSize: maxBytes, onError: (c) => tooLarge(c, async () => {}) as Promise<Response> });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined)
      return Number(length) > maxBytes ? tooLarge(c, next) : next();
    return counted(c, next);
  };
}
