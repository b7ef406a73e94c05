import type { ServedTools } from './tool-server.ts';
import type { TaskRunner } from '../tasks/task-types.ts';

/**
 * `/mcp` in `riverse serve`, as a route handler: the endpoint (and the MCP SDK) load on the first
 * request, so a service nobody reaches over MCP does not pay for them.
 */
export function mcpRoute(
  tools: ServedTools,
  options: { tasks?: TaskRunner; stateSecret?: Buffer } = {},
): (c: { req: { raw: Request } }) => Promise<Response> {
  let endpoint: Promise<(request: Request) => Promise<Response>> | undefined;
  return async (c) => {
    endpoint ??= import('./http-endpoint.ts').then(({ mcpHttpEndpoint }) => mcpHttpEndpoint(tools, options).handle);
    return (await endpoint)(c.req.raw);
  };
}
