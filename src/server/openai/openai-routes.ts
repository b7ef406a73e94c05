import { Hono } from 'hono';
import type { ServerContext } from '../server-context.ts';

/**
 * The OpenAI-compatible endpoint, mounted at `/v1`. Owned by the openai work, which fills it in
 * (`/v1/models`, `/v1/chat/completions`); until then every path is the app's 404.
 */
export function openaiRoutes(_context: ServerContext): Hono {
  return new Hono();
}
