import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A hostile OpenAI-protocol server, for tests and the benchmark: it floods or starves whoever
 * asks. The base URL names the behaviour, `<url>/<mode>/v1`:
 *   text      streams text deltas of 16 KiB each, `bytes` in all, then `[DONE]`
 *   args      streams one tool call whose arguments grow by 16 KiB per event
 *   line      one `data:` line that never ends, `bytes` long
 *   body      a non-streamed JSON answer whose text is `bytes` long
 *   deep      a non-streamed answer with one tool call whose arguments (an object, as some servers
 *             send them) are nested `depth` levels deep
 *   silent    accepts the request and never answers
 *   trickle   answers with a stream that sends only keep-alive comments, one every 50 ms, forever
 * It writes only as fast as the client reads, and stops when the client hangs up. `GET /stats`
 * answers `{sent, requests}` (for a server run as its own process).
 */
export type FloodMode = 'text' | 'args' | 'line' | 'body' | 'deep' | 'silent' | 'trickle';

export interface FloodServer {
  /** The base URL for a mode: `${url}/${mode}/v1`. */
  url: string;
  /** Bytes of body written, over every request. */
  readonly sent: number;
  /** Requests that arrived. */
  readonly requests: number;
  close(): Promise<void>;
}

const PIECE = 16 * 1024;

export async function startFloodServer(options: { bytes?: number; depth?: number } = {}): Promise<FloodServer> {
  const total = options.bytes ?? 100 * 1024 * 1024;
  let sent = 0;
  let requests = 0;
  const write = async (res: ServerResponse, text: string): Promise<boolean> => {
    if (res.destroyed) return false;
    sent += Buffer.byteLength(text);
    if (!res.write(text)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done).off('close', done);
          resolve();
        };
        res.on('drain', done).on('close', done);
      });
    }
    return !res.destroyed;
  };
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sent, requests }));
      return;
    }
    req.resume();
    req.on('end', async () => {
      requests++;
      const mode = (req.url ?? '').split('/')[1] as FloodMode;
      if (mode === 'silent') return;
      if (mode === 'body' || mode === 'deep') {
        const depth = options.depth ?? 10_000;
        const message =
          mode === 'body'
            ? `{"role":"assistant","content":"${'x'.repeat(total)}"}`
            : `{"role":"assistant","content":null,"tool_calls":[{"id":"call_deep","type":"function","function":{"name":"echo","arguments":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}]}`;
        res.writeHead(200, { 'content-type': 'application/json' });
        const body = `{"id":"flood","choices":[{"index":0,"message":${message},"finish_reason":"${mode === 'body' ? 'stop' : 'tool_calls'}"}]}`;
        for (let at = 0; at < body.length; at += PIECE) if (!(await write(res, body.slice(at, at + PIECE)))) return;
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object) =>
        `data: ${JSON.stringify({ id: 'flood', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
      if (mode === 'trickle') {
        while (await write(res, ': keep-alive\n\n')) await new Promise((resolve) => setTimeout(resolve, 50));
        return;
      }
      if (mode === 'line') {
        if (!(await write(res, 'data: {"choices":[{"index":0,"delta":{"content":"'))) return;
        const piece = 'x'.repeat(PIECE);
        for (let done = 0; done < total; done += PIECE) if (!(await write(res, piece))) return;
      } else if (mode === 'args') {
        if (
          !(await write(
            res,
            chunk({
              tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'echo', arguments: '' } }],
            }),
          ))
        )
          return;
        const piece = chunk({ tool_calls: [{ index: 0, function: { arguments: 'x'.repeat(PIECE) } }] });
        for (let done = 0; done < total; done += PIECE) if (!(await write(res, piece))) return;
      } else {
        const piece = chunk({ content: 'x'.repeat(PIECE) });
        for (let done = 0; done < total; done += PIECE) if (!(await write(res, piece))) return;
        await write(
          res,
          `data: ${JSON.stringify({ id: 'flood', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
        );
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get sent() {
      return sent;
    },
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// Run as a script (the benchmark does, so that the server's memory is not the host's): prints the URL.
if (import.meta.main) {
  const server = await startFloodServer(
    process.env.FLOOD_BYTES === undefined ? {} : { bytes: Number(process.env.FLOOD_BYTES) },
  );
  process.stdout.write(`${server.url}\n`);
}
