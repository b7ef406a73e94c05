import type { ServedTools } from './tool-server.ts';

/**
 * `/mcp` in `riverse serve`, as a route handler: the endpoint (and the MCP SDK) load on the first
 * request, so a service nobody reaches over MCP does not pay for them.
 */
export function mcpRoute(tools: ServedTools): (c: { req: { raw: Request } }) => Promise<Response> {
  let endpoint: Promise<(request: Request) => Promise<Response>> | undefined;
  return async (c) => {
    endpoint ??= import('./http-endpoint.ts').then(({ mcpHttpEndpoint }) => mcpHttpEndpoint(tools).handle);
    return (await endpoint)(c.req.raw);
  };
}
