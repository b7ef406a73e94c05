import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { apiRoutes } from './api/api-routes.ts';
import { bodySizeRule } from './body-size-rule.ts';
import { ApiError, errorResponse } from './api-error.ts';
import { dashboardRoutes } from './dashboard/dashboard-routes.ts';
import { hostRule } from './host-rule.ts';
import { mcpRoute } from '../mcp/mcp-route.ts';
import { tracedTools } from './mcp-call-trace.ts';
import { openaiRoutes } from './openai/openai-routes.ts';
import { originRule } from './origin-rule.ts';
import type { ServerOptions } from './server-config.ts';
import { SERVER_TEXT } from './server-text.ts';
import { StoreError } from '../store/store-error.ts';
import type { ServerContext } from './server-context.ts';
import { tokenRule } from './token-rule.ts';

/**
 * The service as a Hono app. The rules run in this order: Host (DNS rebinding), CORS (a preflight
 * carries no token, so it is answered before the token is asked for; only for `cors_origins`),
 * the token, Origin on state-changing requests, the body size limit; then the routes. Every
 * refusal is JSON in the shape its path's clients read (OpenAI's under `/v1`).
 */
export function createServerApp(
  context: ServerContext,
  options: Pick<ServerOptions, 'host' | 'token' | 'allowedHosts' | 'corsOrigins' | 'maxBodyBytes'> &
    Partial<Pick<ServerOptions, 'bodyTimeoutMs'>>,
): Hono {
  const app = new Hono();
  app.use(hostRule(options));
  if (options.corsOrigins.length > 0) {
    app.use(
      cors({
        origin: [...options.corsOrigins],
        allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        allowHeaders: ['Authorization', 'Content-Type', 'X-Riverse-Session', 'traceparent', 'tracestate'],
        maxAge: 600,
      }),
    );
  }
  app.use(tokenRule(options.token));
  app.use(originRule(options.corsOrigins));
  app.use(bodySizeRule(options.maxBodyBytes, options.bodyTimeoutMs));
  app.route('/api', apiRoutes(context));
  app.route('/v1', openaiRoutes(context));
  app.all(
    '/mcp',
    mcpRoute(context.telemetry === undefined ? context.tools : tracedTools(context.tools, context.telemetry), {
      tasks: context.tasks,
      stateSecret: () => context.store.sharedSecret('mcp-request-state'),
    }),
  );
  app.route('/', dashboardRoutes());
  app.notFound((c) =>
    errorResponse(
      c,
      new ApiError(
        404,
        'not-found',
        `There is no ${c.req.method} ${c.req.path.slice(0, 200)} here; docs/server-api.md lists the routes.`,
      ),
    ),
  );
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error);
    // The database is down or slow (a restart, a network cut): the request may be tried again, the service goes on.
    if (error instanceof StoreError)
      return errorResponse(
        c,
        new ApiError(
          503,
          'store-failed',
          `The store could not be reached to answer this request (${error.message}); it is retried by the next request. Check the database (RIVERSE_DATABASE_URL or store.url) or the data folder.`,
        ),
      );
    if (error instanceof HTTPException)
      return errorResponse(
        c,
        new ApiError(error.status as ContentfulStatusCode, 'http-error', error.message || 'The request was refused.'),
      );
    // The stack goes to the service's log, never to the client.
    console.error(
      SERVER_TEXT[context.logLanguage].requestFailed(
        `${c.req.method} ${c.req.path}`,
        error instanceof Error ? (error.stack ?? error.message) : String(error),
      ),
    );
    return errorResponse(
      c,
      new ApiError(
        500,
        'internal',
        'Something went wrong in the service while answering this request; its log says what.',
      ),
    );
  });
  return app;
}
