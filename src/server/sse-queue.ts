import type { SSEStreamingApi } from 'hono/streaming';

/** Messages waiting for a client that does not read; past this the stream is given up. */
const MAX_PENDING = 1_000;

export interface SseQueue {
  /** Queues one message (`event:` type, `data:` the JSON); false once the stream is gone. */
  send(event: string, data: unknown): boolean;
  /** Queues an SSE comment line (keeps proxies from closing an idle stream). */
  comment(text: string): void;
  /** Resolves when everything queued is written (or the stream is gone). */
  flushed(): Promise<void>;
}

/**
 * Writes SSE messages in order without making the caller wait: the turn's events and the
 * service's events come from code that cannot await a slow client. A client that stops reading
 * while messages keep coming is cut off at MAX_PENDING instead of growing memory without end.
 */
export function sseQueue(stream: SSEStreamingApi): SseQueue {
  let tail: Promise<void> = Promise.resolve();
  let pending = 0;
  let gone = false;
  const push = (write: () => Promise<void>) => {
    if (gone || stream.aborted || stream.closed) return false;
    if (++pending > MAX_PENDING) {
      gone = true;
      stream.abort();
      void stream.close();
      return false;
    }
    tail = tail.then(write).then(
      () => void pending--,
      () => {
        pending--;
        gone = true; // the client went away mid-write
      },
    );
    return true;
  };
  return {
    send: (event, data) => push(() => stream.writeSSE({ event, data: JSON.stringify(data) })),
    comment: (text) =>
      void push(async () => {
        await stream.write(`: ${text}\n\n`);
      }),
    flushed: () => tail,
  };
}
