// HAProxy (Debian's package) in front of several `riverse serve` replicas on 127.0.0.1, round-robin,
// as the replicas' tests and bench/serve-replicas.ts run them. It runs in the foreground (-db) as a
// child of the test, and dies with it. For tests and benchmarks only.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const HAPROXY = process.env.RIVERSE_HAPROXY ?? '/usr/sbin/haproxy';

export interface LoadBalancer {
  /** Where to send requests, e.g. `http://127.0.0.1:40123/`. */
  url: string;
  port: number;
  /** What HAProxy printed (its warnings, a backend going down or up). */
  log(): string;
  stop(): Promise<void>;
}

/** Thrown when HAProxy is not installed: the tests say how to get it rather than fail obscurely. */
export class HaproxyMissingError extends Error {
  constructor(path: string) {
    super(
      `HAProxy is not installed at ${path}: the replicas' tests put it in front of the replicas. Run .ci/run (it installs Debian's haproxy and postgresql when absent), or apt-get install haproxy, or set RIVERSE_HAPROXY to its path.`,
    );
    this.name = 'HaproxyMissingError';
  }
}

export function haproxyInstalled(): boolean {
  return existsSync(HAPROXY);
}

/** A port free on 127.0.0.1 now (the kernel's pick; HAProxy binds it a moment later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The configuration: one frontend, round-robin over `backends`, a connection check that takes a
 * killed replica out within a second, and a request sent again elsewhere when its replica refused the
 * connection (redispatch); a 2025-revision MCP session kept on its replica. `timeout tunnel` keeps an event stream (SSE) open past `timeout server`;
 * `http-server-close` is not set, so a stream's connection is not closed after its first answer.
 */
export function haproxyConfig(port: number, backends: readonly number[]): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  option redispatch',
    '  retries 3',
    // A replica killed with the request in hand answers nothing: sent again elsewhere (claims and first answers keep it from running twice).
    '  retry-on conn-failure empty-response',
    '  timeout connect 2s',
    '  timeout client 5m',
    '  timeout server 5m',
    '  timeout tunnel 1h',
    '  timeout http-keep-alive 10s',
    'frontend riverse',
    `  bind 127.0.0.1:${port}`,
    '  default_backend replicas',
    'backend replicas',
    '  balance roundrobin',
    // A 2025-revision MCP session lives in the replica that began it: its requests go back there (the 2026 revision needs none of this).
    '  stick-table type string len 128 size 10k expire 30m',
    '  stick match req.hdr(mcp-session-id)',
    '  stick store-response res.hdr(mcp-session-id)',
    ...backends.map((backend, index) => `  server r${index + 1} 127.0.0.1:${backend} check inter 500ms fall 2 rise 1`),
    '',
  ].join('\n');
}

/** Starts HAProxy over `backends` (ports on 127.0.0.1); resolves once it accepts connections. */
export async function startLoadBalancer(backends: readonly number[]): Promise<LoadBalancer> {
  if (!haproxyInstalled()) throw new HaproxyMissingError(HAPROXY);
  const folder = mkdtempSync(join(tmpdir(), 'riverse-haproxy-'));
  const port = await freePort();
  const file = join(folder, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(port, backends));
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}/`;
  // Up when it answers anything: HAProxy's own 503 counts (no backend up yet).
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) {
      rmSync(folder, { recursive: true, force: true });
      throw new Error(`HAProxy stopped at start (exit ${child.exitCode}):\n${output}`);
    }
    try {
      await fetch(url);
      break;
    } catch {
      if (attempt > 200) {
        child.kill('SIGKILL');
        throw new Error(`HAProxy did not accept connections on ${url} within 10 s:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    port,
    log: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
