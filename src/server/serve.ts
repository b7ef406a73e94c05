import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createServerApp } from './create-server-app.ts';
import { answerClientError, requestTimeouts } from './request-time-rule.ts';
import { isLoopbackHost, type ServerOptions } from './server-config.ts';
import type { ServerContext } from './server-context.ts';

export interface RunningServer {
  /** The address to open, e.g. `http://127.0.0.1:8400/`. */
  url: string;
  port: number;
  /** Stops listening, ends the event streams, and closes every connection; bounded by `graceMs`. */
  close(): Promise<void>;
}

/** How long requests still running get to finish when the service closes, before their connections are cut. */
const CLOSE_GRACE_MS = 1_000;

/** Refused to start: binding a non-loopback address without a token. */
export class ServeRefusedError extends Error {
  readonly code = 'token-required';
  constructor(host: string) {
    super(
      `Refusing to listen on ${host} without an access token: anyone who can reach that address could use the assistant and run its tools. Set one (--token, RIVERSE_TOKEN or server.token), or listen on 127.0.0.1.`,
    );
    this.name = 'ServeRefusedError';
  }
}

/** Listens; resolves once the port is open (rejects when it cannot be: in use, not allowed). */
export async function startServer(
  context: ServerContext,
  options: ServerOptions,
  closeGraceMs = CLOSE_GRACE_MS,
): Promise<RunningServer> {
  if (!isLoopbackHost(options.host) && options.token === undefined) throw new ServeRefusedError(options.host);
  const app = createServerApp(context, options);
  const server = await new Promise<Server>((resolve, reject) => {
    const started = serve({
      fetch: app.fetch,
      hostname: options.host,
      port: options.port,
      serverOptions: requestTimeouts(options),
      // Its clean-up cuts a connection whose unread body takes over 500 ms to arrive, which is the
      // broken pipe a refused body must not get; the body size rule reads the rest itself, and
      // Node throws away the body of any other early answer (within body_timeout_ms).
      autoCleanupIncoming: false,
    }) as Server;
    // A slow sender gets the service's 408, not Node's bare one.
    started.on('clientError', answerClientError);
    started.once('error', reject);
    started.once('listening', () => {
      started.off('error', reject);
      resolve(started);
    });
  });
  // Errors after start-up (a socket reset mid-request) belong to that request, not to the process.
  server.on('error', (error) => console.error(`error: ${error.message}`));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(options.host)}:${port}/`,
    port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        // The service's tasks end with it (interrupted: a restart does not run them again), written before the store closes.
        const tasksEnded = context.tasks.close().catch(() => {});
        server.close(() => void tasksEnded.then(resolve));
        context.events.close();
        // Its heartbeat stops and its claims go: its turns are cut below, and no other replica need wait for them.
        void context.close();
        server.closeIdleConnections();
        // A chat still streaming is cut after the grace: its request's signal then cancels the turn.
        setTimeout(() => server.closeAllConnections(), closeGraceMs).unref();
      })),
  };
}

/** The host as a URL writes it; the wildcard addresses as this machine reaches them. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
