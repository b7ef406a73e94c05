import { Hono } from 'hono';
import type { ServerContext } from '../server-context.ts';
import { approvalRoutes } from './approval-routes.ts';
import { chatRoutes } from './chat-routes.ts';
import { eventRoutes } from './event-routes.ts';
import { mcpSignInRoutes } from './mcp-sign-in-routes.ts';
import { modelDownloadRoutes } from './model-download-routes.ts';
import { sessionRoutes } from './session-routes.ts';
import { statusRoutes } from './status-routes.ts';
import { toolRoutes } from './tool-routes.ts';
import { traceRoutes } from './trace-routes.ts';
import { taskRoutes } from './task-routes.ts';

/** The REST API the dashboard uses, mounted at `/api` (docs/server-api.md). */
export function apiRoutes(context: ServerContext): Hono {
  const api = new Hono();
  api.route('/', statusRoutes(context));
  api.route('/', chatRoutes(context));
  api.route('/', approvalRoutes(context));
  api.route('/', sessionRoutes(context));
  api.route('/', toolRoutes(context));
  api.route('/', traceRoutes(context));
  api.route('/', taskRoutes(context));
  api.route('/', eventRoutes(context));
  api.route('/', modelDownloadRoutes(context));
  api.route('/', mcpSignInRoutes());
  return api;
}
