import { Hono } from 'hono';
import type { ServerContext } from '../server-context.ts';

/**
 * The dashboard's static files, mounted at `/`. Owned by the dashboard work, which fills it in;
 * until then every path is the app's 404.
 */
export function dashboardRoutes(_context: ServerContext): Hono {
  return new Hono();
}
