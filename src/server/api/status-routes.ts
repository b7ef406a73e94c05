import { Hono } from 'hono';
import { connectHint } from '../connect-hint.ts';
import { requestLanguage } from '../request-language.ts';
import type { ServerContext } from '../server-context.ts';

/**
 * `GET /api/status`: what the service has — the version, the model or (in the request's
 * language) how to connect one, the default model's download, the tools.
 */
export function statusRoutes(context: ServerContext): Hono {
  const routes = new Hono();
  routes.get('/status', (c) => {
    const registry = context.tools.current;
    const model = context.assistant()?.model;
    return c.json({
      version: context.version,
      model: model === undefined ? null : { id: model.id },
      connectHint: model === undefined ? connectHint(requestLanguage(c), context.modelProblem, true) : null,
      download: context.download.state(),
      language: context.language,
      tools: { total: registry.list().length, available: registry.tools().length },
      // Which of several `riverse serve` sharing the store answered (docs/replicas.md).
      replica: { id: context.turns.id },
    });
  });
  return routes;
}
