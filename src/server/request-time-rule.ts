import type { ServerOptions as HttpServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServerOptions } from './server-config.ts';

/**
 * The service's own time limits on what a client sends, enforced by Node's HTTP server: the
 * headers within `headerTimeoutMs` of a request's first byte, the whole request within
 * `bodyTimeoutMs`. Node checks its connections every `connectionsCheckingInterval`, so that is
 * kept to a fraction of the shorter limit (Node's own default, 30 s, would let a 10 s limit run 40 s).
 */
export function requestTimeouts(options: Pick<ServerOptions, 'headerTimeoutMs' | 'bodyTimeoutMs'>): HttpServerOptions {
  const requestTimeout = options.bodyTimeoutMs;
  // Node refuses a header limit longer than the request's: the headers are part of the request.
  const headersTimeout = Math.min(options.headerTimeoutMs, requestTimeout);
  return {
    headersTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.max(20, Math.min(1_000, Math.floor(headersTimeout / 4))),
  };
}

/** Node's own answers to a request it could not read (`http.Server`'s `clientError` default). */
const BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';
const HEADERS_TOO_LARGE = 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n';

/**
 * A request Node's parser gave up on. A slow sender gets the documented 408 `request-timeout`, in
 * a shape both `/api` and `/v1` clients read; anything else what Node answers itself. Only when no
 * answer has started on the socket: a byte more would corrupt it.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // What the socket says after this (a write to a peer that has gone) is nobody's to hear.
  socket.on('error', () => {});
  // `_httpMessage` is the response in flight on this socket: Node's own check (http's socketOnError).
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  const code = error.code ?? '';
  // A peer that reset or left (ECONNRESET, EPIPE) hears nothing; a request that could not be parsed, or came too slowly, is told.
  if (socket.writable && inFlight?.headersSent !== true) {
    if (code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.write(TIMEOUT_RESPONSE);
    else if (code === 'HPE_HEADER_OVERFLOW') socket.write(HEADERS_TOO_LARGE);
    else if (code.startsWith('HPE_')) socket.write(BAD_REQUEST);
  }
  socket.destroy();
}

const TIMEOUT_BODY = JSON.stringify({
  error: {
    message:
      'The request came too slowly: its headers or body did not arrive within the time this service allows (server.header_timeout_ms, server.body_timeout_ms in riverse.yaml).',
    type: 'invalid_request_error',
    param: null,
    code: 'request-timeout',
  },
});
const TIMEOUT_RESPONSE =
  'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json; charset=UTF-8\r\n' +
  `Content-Length: ${Buffer.byteLength(TIMEOUT_BODY)}\r\n\r\n${TIMEOUT_BODY}`;
