import { Hono } from 'hono';
import type { ServerContext } from '../server-context.ts';
import { statusRoutes } from './status-routes.ts';

/** The REST API the dashboard uses, mounted at `/api` (docs/server-api.md). */
export function apiRoutes(context: ServerContext): Hono {
  const api = new Hono();
  api.route('/', statusRoutes(context));
  return api;
}
