import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError, errorResponse } from './api-error.ts';

/**
 * The most of a refused body read and thrown away so that its 413 reaches the client: past this,
 * the connection is cut (a client sending that much after a refusal is not listening).
 */
const DISCARD_BYTES = 64 * 1024 * 1024;

/**
 * Bodies over `maxBytes` get 413 `body-too-large`: at once when `Content-Length` says so, else
 * (chunked) as soon as the bytes read pass the cap, by Hono's bodyLimit, which counts them as they
 * come. A declared length under the cap is checked here from the header alone — Node's parser
 * holds the body to it — because reaching for the body (as bodyLimit does first) builds a whole
 * web Request, which costs a small request about a third of its time.
 *
 * The rest of a refused body is read and thrown away (up to DISCARD_BYTES, within `discardMs`)
 * while the answer goes out, and the connection stays usable. Closing it at once, as this rule did,
 * left the client's bytes unread: the kernel then resets the connection, and a client still
 * sending (Node's fetch, so the `openai` client) saw a broken pipe instead of the 413, and sent
 * the whole body again.
 */
export function bodySizeRule(maxBytes: number, discardMs = 60_000): MiddlewareHandler {
  const tooLarge: MiddlewareHandler = async (c) => {
    const node = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
    if (node?.incoming !== undefined && node.outgoing !== undefined)
      discardRest(node.incoming, node.outgoing, discardMs);
    return errorResponse(
      c,
      new ApiError(
        413,
        'body-too-large',
        `The request body is over ${maxBytes} bytes, the most this service takes (server.max_body_bytes in riverse.yaml).`,
      ),
    );
  };
  const counted = bodyLimit({ maxSize: maxBytes, onError: (c) => tooLarge(c, async () => {}) as Promise<Response> });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined)
      return Number(length) > maxBytes ? tooLarge(c, next) : next();
    return counted(c, next);
  };
}

/**
 * Reads what is left of the request and drops it; past `DISCARD_BYTES` or `ms`, the socket is
 * cut. The listeners of a body half read (bodyLimit's web stream, which would keep every chunk
 * and pause the request again) are taken off first. A client that asked to close
 * (`Connection: close`) is closed once its body is in, not as soon as the answer is out, which
 * is what Node would do: that is the reset this avoids.
 */
function discardRest(incoming: IncomingMessage, outgoing: ServerResponse, ms: number): void {
  if (incoming.readableEnded || incoming.destroyed) return;
  if (!outgoing.shouldKeepAlive && !outgoing.headersSent) {
    outgoing.shouldKeepAlive = true;
    // Ended once both are done: a body already in may end before the answer is written.
    let waiting = 2;
    const done = () => --waiting === 0 && incoming.socket.end();
    incoming.once('end', done);
    outgoing.once('finish', done);
  }
  incoming.removeAllListeners('data');
  let read = 0;
  const cut = () => {
    clearTimeout(timer);
    incoming.socket.destroy();
  };
  const timer = setTimeout(cut, ms);
  timer.unref();
  incoming.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > DISCARD_BYTES) cut();
  });
  incoming.once('end', () => clearTimeout(timer));
  incoming.once('close', () => clearTimeout(timer));
  incoming.resume();
}
