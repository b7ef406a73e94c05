import { Hono } from 'hono';
import { signIns } from '../../mcp/oauth/sign-ins.ts';

/**
 * `GET /api/mcp/sign-ins`: the MCP servers waiting for a person to sign in, each with the link to
 * open (in a browser on the machine Riverse runs on: the link comes back to its loopback page).
 * Each new link is also an `mcp-sign-in` event on `/api/events`.
 */
export function mcpSignInRoutes(): Hono {
  const routes = new Hono();
  routes.get('/mcp/sign-ins', (c) => c.json({ signIns: signIns.pending() }));
  return routes;
}
