import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ToolChange } from '../../tool-runtime/live-registry.ts';
import { ApiError } from '../api-error.ts';
import { requestLanguage } from '../request-language.ts';
import type { ServerContext } from '../server-context.ts';
import { sseQueue } from '../sse-queue.ts';
import { diagnosticView, projectPath } from './tool-view.ts';

/** Open `/api/events` streams at most: each holds a connection (a tab left open); past this, 503. */
export const MAX_EVENT_STREAMS = 64;
/** A comment this often keeps proxies and browsers from closing an idle stream. */
const KEEP_ALIVE_MS = 15_000;

/**
 * `GET /api/events`: everything published on `context.events` for as long as the page is open —
 * `tools-changed` on every reload (files relative to the project, diagnostics in the page's
 * language), `model`, `model-download` — and a comment line every KEEP_ALIVE_MS.
 */
export function eventRoutes(context: ServerContext): Hono {
  const routes = new Hono();
  let open = 0;
  routes.get('/events', (c) => {
    if (open >= MAX_EVENT_STREAMS)
      throw new ApiError(
        503,
        'too-many-streams',
        `${MAX_EVENT_STREAMS} event streams are open already; close some of the dashboard's tabs and try again.`,
      );
    const language = requestLanguage(c);
    const { baseDir } = context.config;
    open++;
    return streamSSE(c, async (stream) => {
      const queue = sseQueue(stream);
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      const unsubscribe = context.events.subscribe(
        (type, data) => {
          const shown =
            type === 'tools-changed'
              ? {
                  changes: (data as { changes: ToolChange[] }).changes.map((change) => ({
                    ...change,
                    file: projectPath(change.file, baseDir),
                    diagnostics: change.diagnostics.map((diagnostic) =>
                      diagnosticView(diagnostic, { baseDir, language }),
                    ),
                  })),
                }
              : data;
          if (!queue.send(type, shown)) end();
        },
        () => end(),
      );
      stream.onAbort(() => end());
      c.req.raw.signal.addEventListener('abort', () => end(), { once: true });
      const keepAlive = setInterval(() => queue.comment('keep-alive'), KEEP_ALIVE_MS);
      // The headers go out with the first bytes: the page knows at once that it is connected.
      queue.comment('connected');
      try {
        await ended;
      } finally {
        clearInterval(keepAlive);
        unsubscribe();
        open--;
      }
    });
  });
  return routes;
}
