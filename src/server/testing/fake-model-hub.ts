// A stand-in for the Hugging Face hub on 127.0.0.1 (HF_ENDPOINT points at it): it serves one file
// at `/{user}/{repo}/resolve/{branch}/{file}`, the URL node-llama-cpp's downloader asks for. The
// body can be held after its first half until the test says go, so a test can watch a download
// in the middle without timing anything. For tests only.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_LOCAL_MODEL } from '../../models/resolve-model.ts';
import type { Cleanup } from '../../tool-runtime/test-support.ts';

export interface FakeModelHub {
  /** For HF_ENDPOINT. */
  url: string;
  /** The paths asked for, in order. */
  requests: string[];
  /** Sends the rest of a held body (every download waiting, and any later one). */
  release(): void;
  close(): Promise<void>;
}

export async function startFakeModelHub(
  file: string,
  body: Uint8Array,
  options: { holdHalf?: boolean } = {},
): Promise<FakeModelHub> {
  const requests: string[] = [];
  let release = () => {};
  const released = options.holdHalf === true ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://hub').pathname;
    requests.push(`${request.method} ${path}`);
    if (!/^\/[^/]+\/[^/]+\/resolve\/[^/]+\//.test(path) || !path.endsWith(`/${file}`)) {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Entry not found' }));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.byteLength) });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    const half = Math.floor(body.byteLength / 2);
    response.write(body.subarray(0, half));
    void released.then(() => response.end(body.subarray(half)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    release: () => release(),
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The hub serving `body` as the default model's file, with HF_ENDPOINT pointing at it for the rest
 * of the test (the downloader reads it on every download); both undone when the test ends.
 */
export async function useFakeModelHub(
  t: Cleanup,
  body: Uint8Array,
  options: { holdHalf?: boolean } = {},
): Promise<FakeModelHub> {
  const hub = await startFakeModelHub(DEFAULT_LOCAL_MODEL.split('/').pop()!, body, options);
  const previous = process.env.HF_ENDPOINT;
  process.env.HF_ENDPOINT = hub.url;
  t.after(async () => {
    if (previous === undefined) delete process.env.HF_ENDPOINT;
    else process.env.HF_ENDPOINT = previous;
    await hub.close();
  });
  return hub;
}
