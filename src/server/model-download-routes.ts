import { Hono } from 'hono';
import { createModelDownloader } from './model-download.ts';
import type { ServerContext } from './server-context.ts';

/**
 * `POST /api/model/download`: downloads the embedded default model (202; 409 when one is running
 * or node-llama-cpp is missing). It also makes `context.download()` — `/api/status`'s `download` —
 * this downloader's state.
 */
export function modelDownloadRoutes(context: ServerContext): Hono {
  const downloader = createModelDownloader(context);
  context.download = downloader.state;
  const routes = new Hono();
  routes.post('/download', async (c) => {
    await downloader.start();
    return c.json({ download: downloader.state() }, 202);
  });
  return routes;
}
