import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { urlToHttpOptions } from 'node:url';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { ModelError } from './model-error.ts';
import { readablePieces } from './readable-pieces.ts';

/**
 * The one HTTP call every model adapter makes: POST a JSON body, then read the answer whole or
 * piece by piece. By default it goes through `node:http`/`node:https` on keep-alive agents (decision
 * 020: less CPU per request than undici, and none of its ~20 MB); through a proxy from the
 * environment, through undici's proxy agent. A `fetch` given in the adapter's options is used
 * instead, e.g. one that records traffic.
 */
export type HttpPost = (
  url: string,
  headers: Record<string, string>,
  body: RequestBody,
  signal: AbortSignal,
) => Promise<HttpResponse>;

/**
 * A request's body: its text, or its pieces in order (text, and bytes made once, such as a catalog
 * of tools sent with every request), written one after another with no copy of the bytes.
 */
export type RequestBody = string | readonly (string | Uint8Array)[];

/** The body as one text (for a transport that takes one, and for reading it). */
export function bodyText(body: RequestBody): string {
  if (typeof body === 'string') return body;
  return body.map((piece) => (typeof piece === 'string' ? piece : Buffer.from(piece).toString('utf8'))).join('');
}

/** The body as bytes, its pieces joined (outside the JavaScript heap). */
function bodyBytes(body: RequestBody): Buffer {
  return typeof body === 'string'
    ? Buffer.from(body)
    : Buffer.concat(body.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)));
}

export interface HttpResponse {
  readonly status: number;
  /** A response header by its lowercase name; several values are joined with ", ". */
  header(name: string): string | undefined;
  /** The next piece of the body; undefined at its end. */
  read(): Promise<Uint8Array | undefined>;
  /** Reads the rest of the body and drops it, so the connection can serve the next request. */
  drain(): Promise<void>;
  /** Stops reading and closes the connection (for an answer left unfinished). */
  cancel(): void;
}

/**
 * The transport for this environment: with `HTTPS_PROXY` or `HTTP_PROXY` (or their lowercase forms)
 * set, undici's proxy agent (requests go through that proxy, except for hosts in `NO_PROXY` and
 * loopback addresses: a local Ollama or llama.cpp server); else `node:http` (nodeHttpTransport).
 * The environment is read at the first request, and a setting that is not a URL is an error then.
 */
export function defaultTransport(env: NodeJS.ProcessEnv = process.env): HttpPost {
  let chosen: HttpPost | undefined;
  // async: a setting that is not a URL rejects the request, as every other failure does, not throws.
  return async (url, headers, body, signal) => {
    if (chosen === undefined) {
      const proxied = proxySetting(env, 'http_proxy') !== '' || proxySetting(env, 'https_proxy') !== '';
      chosen = proxied ? undiciTransport(env) : nodeHttpTransport();
    }
    return chosen(url, headers, body, signal);
  };
}

const require = createRequire(import.meta.url);

/**
 * `node:http` (and `node:https`, loaded for the first https URL) on one keep-alive agent each. A
 * request sent on a kept connection that the server closed meanwhile (ECONNRESET or EPIPE before any
 * answer: the server's idle timeout raced it) is sent again once, on a fresh connection.
 */
export function nodeHttpTransport(): HttpPost {
  // Not `import … from 'node:http'`: on Node 24 its ES module face reads every export, which loads
  // undici (~13 MB and 20–100 ms of a start); the module itself costs ~3.5 MB (030).
  const http = process.getBuiltinModule('node:http');
  const plain = { request: http.request, agent: new http.Agent({ keepAlive: true }) };
  let secure: typeof plain | undefined;
  const clientFor = (protocol: string) => {
    if (protocol !== 'https:') return plain;
    if (secure === undefined) {
      const https = require('node:https') as typeof import('node:https');
      secure = { request: https.request, agent: new https.Agent({ keepAlive: true }) };
    }
    return secure;
  };
  // A model sends every request to one URL: it is parsed once, not at each request (and again by node:http).
  let lastUrl: string | undefined;
  let lastTarget: RequestTarget | undefined;
  const targetOf = (url: string): RequestTarget => {
    if (url !== lastUrl || lastTarget === undefined) {
      const { protocol, hostname, port, path, auth } = urlToHttpOptions(new URL(url));
      const { request, agent } = clientFor(protocol ?? 'http:');
      lastTarget = { protocol, hostname, port, path, auth, request, agent };
      lastUrl = url;
    }
    return lastTarget;
  };
  const send = (
    target: RequestTarget,
    headers: Record<string, string>,
    body: readonly Uint8Array[],
    length: number,
    signal: AbortSignal,
    retried: boolean,
  ): Promise<HttpResponse> =>
    new Promise((resolve, reject) => {
      // A plain object of the fields node:http reads (the parsed URL's own has no prototype, slow to copy).
      const request = target.request({
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        path: target.path,
        auth: target.auth,
        method: 'POST',
        agent: target.agent,
        headers: { ...headers, 'content-length': String(length) },
      });
      // The signal is followed here, not handed to node:http, whose own following (a stream
      // watcher on the request besides the listener) costs more than the rest of the send.
      const stop = () => request.destroy(abortError(signal));
      const unfollow = () => signal.removeEventListener('abort', stop);
      signal.addEventListener('abort', stop, { once: true });
      // `on`: a request has one response, and `once`'s wrapper costs each request.
      request.on('response', (response) => resolve(nodeResponse(response, unfollow)));
      request.once('error', (error: NodeJS.ErrnoException) => {
        unfollow();
        const stale = request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
        if (stale && !retried && !signal.aborted) resolve(send(target, headers, body, length, signal, true));
        else reject(error);
      });
      // Corked: the pieces leave in one write beside the headers.
      request.cork();
      for (const piece of body) request.write(piece);
      request.end();
    });
  // The body as bytes once: a string body is flattened twice by node:http (its length, then joined
  // to the headers), ~130 kB of garbage a request at 200 tools; bytes are written beside the headers.
  return (url, headers, body, signal) => {
    if (signal.aborted) return Promise.reject(abortError(signal));
    const pieces =
      typeof body === 'string'
        ? [Buffer.from(body)]
        : body.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece));
    let length = 0;
    for (const piece of pieces) length += piece.byteLength;
    return send(targetOf(url), headers, pieces, length, signal, false);
  };
}

/** Where one URL's requests go, and through which client. */
type HttpOptions = ReturnType<typeof urlToHttpOptions>;
interface RequestTarget extends Pick<HttpOptions, 'protocol' | 'hostname' | 'port' | 'path' | 'auth'> {
  request: typeof import('node:http').request;
  agent: import('node:http').Agent;
}

/** The error of a request stopped by its signal, as node:http gives it when it follows one. */
function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), {
    name: 'AbortError',
    code: 'ABORT_ERR',
  });
}

function nodeResponse(response: IncomingMessage, unfollow: () => void): HttpResponse {
  // The request's signal is followed until its body is over, read to its end or dropped.
  return streamedResponse(response.statusCode ?? 0, response.headers, response, unfollow);
}

/**
 * A response whose body is a Node stream (node:http's, undici's), read piece by piece. A body
 * nobody reads may still fail (the connection reset): that is kept for a read, never thrown.
 */
function streamedResponse(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Readable,
  onClose?: () => void,
): HttpResponse {
  const next = readablePieces(body, onClose);
  return {
    status,
    header(name) {
      const value = headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    read: next,
    async drain() {
      while ((await next()) !== undefined);
    },
    cancel() {
      body.destroy();
    },
  };
}

/**
 * undici's `request` on one keep-alive pool, made at the first request: through the proxy that
 * `HTTPS_PROXY` or `HTTP_PROXY` (or their lowercase forms) names, except for hosts in `NO_PROXY` and
 * loopback addresses; with neither set, direct.
 */
export function undiciTransport(env: NodeJS.ProcessEnv = process.env): HttpPost {
  // undici is loaded at the first model request: commands that make none (`tools …`) start without it.
  let ready: Promise<{ send: Undici['request']; pool: Dispatcher }> | undefined;
  const load = async () => {
    const undici = await import('undici');
    return { send: undici.request, pool: dispatcherFor(undici, env) };
  };
  return async (url, headers, body, signal) => {
    ready ??= load().catch((error: unknown) => {
      ready = undefined; // a proxy setting fixed meanwhile is read again
      throw error;
    });
    const { send, pool } = await ready;
    const response = await send(url, { method: 'POST', headers, body: bodyBytes(body), signal, dispatcher: pool });
    return streamedResponse(response.statusCode, response.headers, response.body);
  };
}

/** The default transport, shared by every model of the process. */
export const defaultPost: HttpPost = defaultTransport();

// The adapters time requests themselves (`timeoutMs`, any length): undici's own 300 s header and
// body timeouts would cut a slow local model short with a misleading error, so they are off.
const POOL_OPTIONS = { keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0 };

type Undici = typeof import('undici');

function dispatcherFor({ Agent, EnvHttpProxyAgent }: Undici, env: NodeJS.ProcessEnv): Dispatcher {
  const httpProxy = proxySetting(env, 'http_proxy');
  const httpsProxy = proxySetting(env, 'https_proxy');
  if (httpProxy === '' && httpsProxy === '') return new Agent(POOL_OPTIONS);
  const noProxy = [env.no_proxy ?? env.NO_PROXY ?? '', 'localhost', '127.0.0.1', '::1']
    .filter((entry) => entry !== '')
    .join(',');
  return new EnvHttpProxyAgent({ ...POOL_OPTIONS, httpProxy, httpsProxy, noProxy });
}

/** A proxy variable, lowercase first as curl reads them; '' when unset. */
function proxySetting(env: NodeJS.ProcessEnv, name: 'http_proxy' | 'https_proxy'): string {
  const variable = env[name] ? name : name.toUpperCase();
  const value = env[variable]?.trim() ?? '';
  if (value !== '' && !(/^https?:\/\//i.test(value) && URL.canParse(value))) {
    throw new ModelError(
      'not-configured',
      `${variable}="${value}" is not an http:// or https:// proxy URL (e.g. http://127.0.0.1:7890); fix it or unset it`,
    );
  }
  return value;
}

/** The same call through a `fetch` function. */
export function fetchPost(fetchFn: typeof fetch): HttpPost {
  return async (url, headers, body, signal) => {
    // A redirect is reported, not followed: fetch would resend a POST as a GET without its body.
    const response = await fetchFn(url, {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : bodyBytes(body),
      signal,
      redirect: 'manual',
    });
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const bodyReader = () => (reader ??= response.body?.getReader());
    return {
      status: response.status,
      header: (name) => response.headers.get(name) ?? undefined,
      async read() {
        const next = await bodyReader()?.read();
        return next === undefined || next.done ? undefined : next.value;
      },
      async drain() {
        const open = bodyReader();
        if (open !== undefined) while (!(await open.read()).done);
      },
      cancel() {
        bodyReader()
          ?.cancel()
          .catch(() => {});
      },
    };
  };
}

/**
 * The body as text, read piece by piece up to `maxBytes` (there is no unbounded read: a server
 * decides how long its body is) (`onPiece` is told of each, e.g. to
 * re-arm a timer). `complete` is false when the body was longer: what came up to the limit is
 * given, the rest is left unread for the caller to drop with `cancel()`.
 */
export async function readText(
  response: HttpResponse,
  maxBytes: number,
  onPiece?: () => void,
): Promise<{ text: string; complete: boolean }> {
  const pieces: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const piece = await response.read();
    if (piece === undefined) break;
    onPiece?.();
    if (size + piece.length > maxBytes) {
      pieces.push(piece.subarray(0, maxBytes - size));
      return { text: Buffer.concat(pieces).toString('utf8'), complete: false };
    }
    pieces.push(piece);
    size += piece.length;
  }
  return { text: Buffer.concat(pieces, size).toString('utf8'), complete: true };
}
