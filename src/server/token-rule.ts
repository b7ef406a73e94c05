import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ApiError, errorResponse, isOpenAIPath } from './api-error.ts';

/** The routes behind the token: the API, the OpenAI-compatible endpoint, and anything but a read. */
function needsToken(method: string, path: string): boolean {
  if (path === '/api' || path.startsWith('/api/') || path === '/mcp' || isOpenAIPath(path)) return true;
  return method !== 'GET' && method !== 'HEAD'; // the dashboard's static files are open: the page reads the token from its address
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * With a token set, every route but the dashboard's static files needs `Authorization: Bearer
 * TOKEN`. Compared as SHA-256 digests with timingSafeEqual: equal lengths, and no early exit
 * that would tell a guesser how much of the token was right.
 */
export function tokenRule(token: string | undefined): MiddlewareHandler {
  if (token === undefined) return async (_c, next) => next();
  const expected = digest(token);
  return async (c, next) => {
    if (!needsToken(c.req.method, c.req.path)) return next();
    const header = c.req.header('authorization') ?? '';
    const given = /^Bearer\s+(.+)$/i.exec(header.trim())?.[1];
    if (given === undefined) {
      c.header('WWW-Authenticate', 'Bearer realm="riverse"');
      return errorResponse(
        c,
        new ApiError(
          401,
          'token-required',
          'This service needs its access token: send "Authorization: Bearer <token>", the token riverse serve was started with (--token, RIVERSE_TOKEN or server.token).',
        ),
      );
    }
    if (!timingSafeEqual(digest(given), expected)) {
      c.header('WWW-Authenticate', 'Bearer realm="riverse", error="invalid_token"');
      return errorResponse(
        c,
        new ApiError(
          401,
          'token-invalid',
          'The access token is not the one this service was started with; check --token, RIVERSE_TOKEN or server.token.',
        ),
      );
    }
    await next();
  };
}
