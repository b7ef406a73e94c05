import { Agent, request } from 'undici';

/**
 * The one HTTP call every model adapter makes: POST a JSON body, then read the answer whole or
 * piece by piece. By default it goes through undici's `request` on a keep-alive pool, which costs
 * about half of what global `fetch` costs per request (see decision 005); a `fetch` given in the
 * adapter's options is used instead, e.g. one that goes through a proxy or records traffic.
 */
export type HttpPost = (url: string, headers: Record<string, string>, body: string, signal: AbortSignal) => Promise<HttpResponse>;

export interface HttpResponse {
  readonly status: number;
  /** A response header by its lowercase name; several values are joined with ", ". */
  header(name: string): string | undefined;
  /** The whole body as text. */
  text(): Promise<string>;
  /** The next piece of the body; undefined at its end. */
  read(): Promise<Uint8Array | undefined>;
  /** Reads the rest of the body and drops it, so the connection can serve the next request. */
  drain(): Promise<void>;
  /** Stops reading and closes the connection (for an answer left unfinished). */
  cancel(): void;
}

let pool: Agent | undefined;

/** undici's `request` on one keep-alive pool per process, shared by every model. */
export const undiciPost: HttpPost = async (url, headers, body, signal) => {
  pool ??= new Agent({ keepAliveTimeout: 30_000 });
  const response = await request(url, { method: 'POST', headers, body, signal, dispatcher: pool });
  const stream = response.body;
  let pieces: AsyncIterator<Uint8Array> | undefined;
  const next = () => (pieces ??= stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>).next();
  return {
    status: response.statusCode,
    header(name) {
      const value = response.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    text: () => stream.text(),
    async read() {
      const piece = await next();
      return piece.done === true ? undefined : piece.value;
    },
    async drain() {
      while ((await next()).done !== true);
    },
    cancel() {
      stream.destroy();
    },
  };
};

/** The same call through a `fetch` function. */
export function fetchPost(fetchFn: typeof fetch): HttpPost {
  return async (url, headers, body, signal) => {
    const response = await fetchFn(url, { method: 'POST', headers, body, signal });
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const bodyReader = () => (reader ??= response.body?.getReader());
    return {
      status: response.status,
      header: (name) => response.headers.get(name) ?? undefined,
      text: () => response.text(),
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
