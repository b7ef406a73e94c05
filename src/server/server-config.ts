/** `server:` in riverse.yaml: how `riverse serve` listens and whom it answers. */
export interface ServerSettings {
  /** Address to bind (127.0.0.1); anything but loopback requires a token. */
  host?: string;
  /** Port to listen on (8400; 0 picks a free one). */
  port?: number;
  /** Access token every route but the dashboard's static files requires (`Authorization: Bearer …`). */
  token?: string;
  /** Extra `Host` names accepted (a reverse proxy's name, with or without a port); loopback names and IP addresses always are. */
  allowed_hosts?: string[];
  /** Origins (`https://app.example`) allowed to call the API from another page; CORS is off when empty. */
  cors_origins?: string[];
  /** Request bodies over this many bytes are refused with 413 (1 MiB). */
  max_body_bytes?: number;
  /** A request's headers must all arrive within this many ms of its first byte, else 408 (10 s). */
  header_timeout_ms?: number;
  /** The whole request, headers and body, must arrive within this many ms, else 408 (60 s). */
  body_timeout_ms?: number;
  /**
   * Calls of Riverse's own tools that need approval, made in a `/v1` turn: `deny` (default: refused
   * with `approval-unavailable`, which the model reads), `allow` (they run: the client vouches for
   * them), or `ask` (they wait for an answer through `/api/approvals`, from the dashboard, say).
   */
  v1_approvals?: 'deny' | 'allow' | 'ask';
  /** What `/v1` does with each sampling field a client sends (default: `allow`, within OpenAI's bounds). */
  v1?: V1Settings | null;
}

/**
 * One sampling field of a /v1 request: `allow` it (default), `ignore` it (the model's own setting
 * holds), hold it within `{ min, max }`, or `{ pin: value }` whatever the client sends.
 */
export type SamplingRule = 'allow' | 'ignore' | { min?: number; max?: number } | { pin: number };
/** `stop` has no bounds: allowed, ignored, or pinned to a list. */
export type StopRule = 'allow' | 'ignore' | { pin: string[] };

/** `server.v1`: a rule per sampling field (`max_tokens` also stands for `max_completion_tokens`). */
export interface V1Settings {
  temperature?: SamplingRule;
  top_p?: SamplingRule;
  max_tokens?: SamplingRule;
  stop?: StopRule;
  seed?: SamplingRule;
  presence_penalty?: SamplingRule;
  frequency_penalty?: SamplingRule;
}

/** What of riverse.yaml the server reads. */
export interface ServerConfig {
  server?: ServerSettings | null;
}

const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_PORT = 8400;
const DEFAULT_MAX_BODY_BYTES = 1_048_576;
/** Headers are a few hundred bytes: 10 s is a slow network many times over, and a stalled sender gives up its socket soon. */
const DEFAULT_HEADER_TIMEOUT_MS = 10_000;
/** 1 MiB (the default cap) in 60 s is 17 KiB/s: a poor mobile link still makes it; a trickle does not hold a socket for Node's 300 s. */
const DEFAULT_BODY_TIMEOUT_MS = 60_000;

/** The settings the app enforces, every one decided. */
export interface ServerOptions {
  host: string;
  port: number;
  token: string | undefined;
  allowedHosts: string[];
  corsOrigins: string[];
  maxBodyBytes: number;
  headerTimeoutMs: number;
  bodyTimeoutMs: number;
}

/**
 * The command line first, then riverse.yaml, then the environment (`RIVERSE_TOKEN`); an empty
 * token is no token.
 */
export function serverOptions(
  settings: ServerSettings | null | undefined,
  overrides: { host?: string; port?: number; token?: string } = {},
  env: NodeJS.ProcessEnv = process.env,
): ServerOptions {
  const token = overrides.token || settings?.token || env.RIVERSE_TOKEN || undefined;
  return {
    host: overrides.host ?? settings?.host ?? DEFAULT_HOST,
    port: overrides.port ?? settings?.port ?? DEFAULT_PORT,
    token,
    allowedHosts: settings?.allowed_hosts ?? [],
    corsOrigins: settings?.cors_origins ?? [],
    maxBodyBytes: settings?.max_body_bytes ?? DEFAULT_MAX_BODY_BYTES,
    headerTimeoutMs: settings?.header_timeout_ms ?? DEFAULT_HEADER_TIMEOUT_MS,
    bodyTimeoutMs: settings?.body_timeout_ms ?? DEFAULT_BODY_TIMEOUT_MS,
  };
}

/** `127.0.0.1` (any of 127/8), `::1`, `localhost`: addresses only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(name) ||
    name === '::ffff:127.0.0.1'
  );
}
