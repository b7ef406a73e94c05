import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * One real HTTP server for the adapters' tests, on 127.0.0.1 and a free port, scripted by the test:
 * each request goes to a handler that returns a reply spec. What a provider's API looks like on the
 * wire (its routes, the checks it makes, its bodies, events and error bodies) is a WireProtocol
 * (openai-wire.ts, anthropic-wire.ts, gemini-wire.ts); what every reply can be told to do (fail
 * with a status, hang, be cut, be slow) is here, once. For tests only.
 */

/** What a test can script of any reply, whatever the protocol. */
export interface ReplyControls {
  /** HTTP status; ≥ 400 sends the protocol's error body with `error` as its message. */
  status?: number;
  headers?: Record<string, string>;
  error?: string;
  /** Sends exactly this body (status default 200). */
  body?: string;
  /** Streaming: exactly these event payloads (objects are serialized). */
  events?: (string | object)[];
  /** Never answers; the connection stays open until the client gives up or the server closes. */
  hang?: boolean;
  /** Sends this many SSE events (or, not streaming, half the body), then destroys the socket. */
  cutAfterChunks?: number;
  /** Streaming: sends this many events, then nothing more; the connection stays open until either side closes it. */
  hangAfterChunks?: number;
  /** Before the headers. */
  delayMs?: number;
  /** Streaming: between events. */
  chunkDelayMs?: number;
}

/** The route of an API with one endpoint: nothing to read from the path. */
export type NoRoute = Record<never, never>;

/** A request as it arrived: `route` holds what the protocol read from its path. */
export interface WireRequest<Body, Route> {
  /** The HTTP method. */
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Body;
  /** The body as it arrived, byte for byte. */
  raw: string;
  route: Route;
}

export type WireHandler<Body, Route, Spec> = (request: WireRequest<Body, Route>, index: number) => Spec | Promise<Spec>;

/** An error reply in the protocol's own form. */
export interface ErrorReply {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** One provider's API as the server speaks it. */
export interface WireProtocol<Body, Route, Spec extends ReplyControls> {
  /** What the base URL ends in (`/v1`, `/v1beta`, or nothing). */
  readonly basePath: string;
  /** What a request to this path is, or undefined for a 404 with `notFound`. */
  route(method: string, url: URL): Route | undefined;
  notFound(method: string, url: string): string;
  /** A refusal before the body is read, as the API refuses a missing key. */
  refuse?(headers: IncomingHttpHeaders): ErrorReply | undefined;
  /** The API's message for a body that is not JSON. */
  notJson(error: Error): string;
  /** The API's rules on a well-formed body; a message means 400. */
  check?(body: Body): string | undefined;
  /** True when the reply is a stream of server-sent events. */
  streams(request: WireRequest<Body, Route>): boolean;
  /** The JSON reply to a request that does not stream. */
  answer(request: WireRequest<Body, Route>, spec: Spec): unknown;
  /** The event payloads of a stream, the protocol's own ending included. */
  events(request: WireRequest<Body, Route>, spec: Spec): (string | object)[];
  /** How one event goes on the wire. */
  frame(payload: string, event: string | object): string;
  /** The stream's content type (default text/event-stream). */
  readonly streamContentType?: string;
  /** The error body, with its content type and any headers the API adds. */
  errorBody(reply: ErrorReply, spec?: Spec): { headers: Record<string, string>; body: string };
}

export interface WireTestServer<Body, Route> {
  /** The base URL, as the adapter is given it. */
  url: string;
  /** The requests that passed the protocol's checks, in order. */
  requests: WireRequest<Body, Route>[];
  close(): Promise<void>;
}

/** Replies in order, one per request; the last one repeats. */
export function replies<Spec>(list: readonly Spec[]): (request: unknown, index: number) => Spec {
  if (list.length === 0) throw new Error('replies() needs at least one reply');
  return (_request, index) => list[Math.min(index, list.length - 1)]!;
}

export async function startWireServer<Body, Route, Spec extends ReplyControls>(
  protocol: WireProtocol<Body, Route, Spec>,
  handler: WireHandler<Body, Route, Spec> | Spec,
): Promise<WireTestServer<Body, Route>> {
  const handle: WireHandler<Body, Route, Spec> = typeof handler === 'function' ? handler : () => handler;
  const requests: WireRequest<Body, Route>[] = [];
  let served = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const fail = (reply: ErrorReply) => sendError(res, protocol, reply);
      const url = new URL(req.url ?? '/', 'http://localhost');
      const route = protocol.route(req.method ?? '', url);
      if (route === undefined)
        return fail({ status: 404, message: protocol.notFound(req.method ?? '', req.url ?? '') });
      const refusal = protocol.refuse?.(req.headers);
      if (refusal !== undefined) return fail(refusal);
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Body;
      try {
        body = JSON.parse(raw) as Body;
      } catch (error) {
        return fail({ status: 400, message: protocol.notJson(error as Error) });
      }
      const problem = protocol.check?.(body);
      if (problem !== undefined) return fail({ status: 400, message: problem });
      const request: WireRequest<Body, Route> = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        raw,
        route,
      };
      requests.push(request);
      Promise.resolve(handle(request, served++)).then(
        (spec) => reply(res, protocol, request, spec),
        (error: unknown) => fail({ status: 500, message: `test handler failed: ${String(error)}` }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${protocol.basePath}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function reply<Body, Route, Spec extends ReplyControls>(
  res: ServerResponse,
  protocol: WireProtocol<Body, Route, Spec>,
  request: WireRequest<Body, Route>,
  spec: Spec,
): Promise<void> {
  if (spec.hang === true) return;
  if (spec.delayMs !== undefined) await pause(spec.delayMs);
  if (res.destroyed) return;
  const status = spec.status ?? 200;
  if (spec.body !== undefined) {
    res.writeHead(status, { 'content-type': 'application/json', ...spec.headers });
    res.end(spec.body);
    return;
  }
  if (status >= 400)
    return sendError(
      res,
      protocol,
      {
        status,
        message: spec.error ?? `error ${status}`,
        ...(spec.headers === undefined ? {} : { headers: spec.headers }),
      },
      spec,
    );
  if (protocol.streams(request)) return stream(res, protocol, protocol.events(request, spec), spec);
  const text = JSON.stringify(protocol.answer(request, spec));
  if (spec.cutAfterChunks !== undefined) {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...spec.headers,
    });
    res.write(text.slice(0, text.length >> 1), () => res.destroy());
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', ...spec.headers });
  res.end(text);
}

async function stream<Body, Route, Spec extends ReplyControls>(
  res: ServerResponse,
  protocol: WireProtocol<Body, Route, Spec>,
  events: (string | object)[],
  spec: Spec,
): Promise<void> {
  res.writeHead(200, {
    'content-type': protocol.streamContentType ?? 'text/event-stream',
    'cache-control': 'no-cache',
    ...spec.headers,
  });
  for (let i = 0; i < events.length; i++) {
    if (spec.cutAfterChunks !== undefined && i === spec.cutAfterChunks) {
      res.destroy();
      return;
    }
    // No timer: a test that waits on this can only end by what it is testing (an abort, a timeout).
    if (spec.hangAfterChunks !== undefined && i === spec.hangAfterChunks) return;
    if (i > 0 && spec.chunkDelayMs !== undefined) await pause(spec.chunkDelayMs);
    if (res.destroyed) return;
    const event = events[i]!;
    // Flushed before the next step, so that a cut comes after exactly these events.
    await new Promise((resolve) =>
      res.write(protocol.frame(typeof event === 'string' ? event : JSON.stringify(event), event), resolve),
    );
  }
  res.end();
}

function sendError<Body, Route, Spec extends ReplyControls>(
  res: ServerResponse,
  protocol: WireProtocol<Body, Route, Spec>,
  reply: ErrorReply,
  spec?: Spec,
): void {
  const { headers, body } = protocol.errorBody(reply, spec);
  res.writeHead(reply.status, { ...headers, ...reply.headers });
  res.end(body);
}

/** Text in the pieces a server streams it in: a word (with the space after it) at a time. */
export function words(text: string | undefined): string[] {
  return text?.match(/\S+\s*|\s+/g) ?? [];
}

/** `text` cut into about `pieces` parts, as arguments stream. */
export function split(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
