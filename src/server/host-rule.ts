import type { MiddlewareHandler } from 'hono';
import { ApiError, errorResponse } from './api-error.ts';
import { isLoopbackHost } from './server-config.ts';

/** `example.com:8400` → `example.com`; `[::1]:8400` → `[::1]`; lower case, a trailing dot dropped. */
function hostName(host: string): string {
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
  return name.toLowerCase().replace(/\.$/, '');
}

/** An IP literal: a page can only reach one by that address, so it cannot be a rebound DNS name. */
function isIpLiteral(name: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || /^\[[0-9a-f:.]+\]$/.test(name);
}

/**
 * DNS rebinding: a page on `evil.example` can point its name at 127.0.0.1 and then call this
 * service as if it were its own origin; its requests still carry `Host: evil.example`. Only
 * loopback names, IP addresses, the bound host and `allowed_hosts` (a name, or `name:port`) pass.
 */
export function hostRule(options: { host: string; allowedHosts: readonly string[] }): MiddlewareHandler {
  const bound = hostName(
    options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host,
  );
  const allowed = options.allowedHosts.map((entry) => entry.toLowerCase());
  return async (c, next) => {
    const host = (c.req.header('host') ?? '').toLowerCase();
    const name = hostName(host);
    const ok =
      name !== '' &&
      (isLoopbackHost(name) || isIpLiteral(name) || name === bound || allowed.includes(host) || allowed.includes(name));
    if (!ok) {
      const shown = host === '' ? 'no Host header' : `Host "${host.slice(0, 200)}"`;
      return errorResponse(
        c,
        new ApiError(
          403,
          'host-not-allowed',
          `This service does not answer for ${shown}: only loopback names, IP addresses and server.allowed_hosts in riverse.yaml are accepted (add a reverse proxy's name there).`,
        ),
      );
    }
    await next();
  };
}
