import { Hono, type Context } from 'hono';
import { loadStaticFiles, type StaticFile } from './static-files.ts';

/**
 * The page may load only its own scripts, styles and images (a tool's, as data: URLs) and talk only
 * to this service: no inline script or style, no other origin, no framing (clickjacking), no form
 * posting elsewhere.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // A tool's pictures and sounds come inside its result, as data: URLs (never from another origin).
  "img-src 'self' data:",
  'media-src data:',
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The dashboard, mounted at `/`: the page at `/` and its files at `/assets/NAME` (what it calls is
 * the API's). Files are sent with their hash as ETag and `no-cache`, so a browser asks each time and
 * gets 304 until the service has other files.
 */
export function dashboardRoutes(): Hono {
  const files = loadStaticFiles();
  const routes = new Hono();
  const page = files.get('index.html');
  if (page === undefined)
    throw new Error("The dashboard's index.html is missing; a package build copies it (npm run build).");
  routes.get('/', (c) => send(c, page));
  routes.get('/index.html', (c) => send(c, page));
  routes.get('/assets/:name', (c, next) => {
    const file = c.req.param('name') === 'index.html' ? undefined : files.get(c.req.param('name'));
    return file === undefined ? next() : send(c, file);
  });
  return routes;
}

function send(c: Context, file: StaticFile): Response {
  c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cache-Control', 'no-cache');
  c.header('ETag', file.etag);
  const match = c.req.header('if-none-match');
  if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag)) return c.body(null, 304);
  c.header('Content-Type', file.type);
  return c.body(file.body as Uint8Array<ArrayBuffer>);
}
