import { Hono } from 'hono';
import type { ServerContext } from '../server-context.ts';

/**
 * `POST /api/model/download`: starts downloading the embedded default model (202 with its state;
 * 409 when one is running or node-llama-cpp is missing). The download itself is the context's, made
 * with it, so that `/api/status` reports it whether or not this route is mounted.
 */
export function modelDownloadRoutes(context: ServerContext): Hono {
  const routes = new Hono();
  routes.post('/model/download', async (c) => {
    await context.download.start();
    return c.json({ download: context.download.state() }, 202);
  });
  return routes;
}
