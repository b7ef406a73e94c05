import type { MiddlewareHandler } from 'hono';
import { ApiError, errorResponse } from './api-error.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A page the user visits can send POSTs to 127.0.0.1 (a form, fetch without CORS), and the
 * browser adds its `Origin`. A state-changing request with an `Origin` must come from the
 * service's own origin (the one its `Host` names) or one of `cors_origins`. No `Origin` at all is
 * no browser (curl, the openai library): this rule lets it through, the token still applies.
 */
export function originRule(corsOrigins: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (
      origin === undefined ||
      !STATE_CHANGING.has(c.req.method) ||
      corsOrigins.includes(origin) ||
      isOwnOrigin(origin, c.req.header('host'))
    )
      return next();
    return errorResponse(
      c,
      new ApiError(
        403,
        'origin-not-allowed',
        `Requests from the page at ${origin.slice(0, 200)} may not change anything here; allow it in riverse.yaml under server.cors_origins if it is yours.`,
      ),
    );
  };
}

function isOwnOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.host === new URL(`${url.protocol}//${host}`).host
    );
  } catch {
    return false; // "null" (a sandboxed frame, a file) and anything else unreadable is foreign
  }
}
