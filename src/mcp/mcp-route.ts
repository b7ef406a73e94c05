import type { ServedTools } from './tool-server.ts';
import type { TaskRunner } from '../tasks/task-types.ts';

/**
 * `/mcp` in `riverse serve`, as a route handler: the endpoint (and the MCP SDK) load on the first
 * request, so a service nobody reaches over MCP does not pay for them.
 */
export function mcpRoute(
  tools: ServedTools,
  options: { tasks?: TaskRunner; stateSecret?: () => Promise<Buffer> } = {},
): (c: { req: { raw: Request } }) => Promise<Response> {
  let endpoint: Promise<(request: Request) => Promise<Response>> | undefined;
  return async (c) => {
    endpoint ??= Promise.all([import('./http-endpoint.ts'), options.stateSecret?.()]).then(
      ([{ mcpHttpEndpoint }, stateSecret]) =>
        mcpHttpEndpoint(tools, {
          ...(options.tasks === undefined ? {} : { tasks: options.tasks }),
          ...(stateSecret === undefined ? {} : { stateSecret }),
        }).handle,
    );
    // A store that failed to give the key is tried again on the next request.
    endpoint.catch(() => (endpoint = undefined));
    return (await endpoint)(c.req.raw);
  };
}
