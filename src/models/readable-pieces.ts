import type { Readable } from 'node:stream';

/** The next piece of a body; undefined at its end; rejects when the body failed or was cut. */
export type NextPiece = () => Promise<Uint8Array | undefined>;

/**
 * A Node stream's pieces, one at a time, read through its events. The same as its async iterator
 * (pieces in order, then the end, or the error; a close before the end is an error), for less:
 * the iterator's stream watcher and promise per piece cost a model request more than the rest of
 * its reading (decision 041). The stream is paused while a piece waits to be taken, so a slow
 * reader holds the server back as before; an error with no read waiting is kept for the next read,
 * never thrown. `onClose` is told once, when the stream closes, whatever ended it. (`on`, not
 * `once`: a stream ends and closes once, and `once`'s wrapper costs each request.)
 */
export function readablePieces(body: Readable, onClose?: () => void): NextPiece {
  const queue: Uint8Array[] = [];
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  let paused = false;
  const notify = () => {
    const woken = wake;
    wake = undefined;
    woken?.();
  };
  body.on('data', (piece: Uint8Array) => {
    queue.push(piece);
    if (wake === undefined) {
      paused = true;
      body.pause();
    } else notify();
  });
  body.on('end', () => {
    ended = true;
    notify();
  });
  body.on('error', (error: unknown) => {
    failure ??= { error };
    notify();
  });
  body.on('close', () => {
    if (!ended) failure ??= { error: prematureClose() };
    onClose?.();
    notify();
  });
  return async () => {
    for (;;) {
      if (queue.length > 0) return queue.shift();
      if (failure !== undefined) throw failure.error;
      if (ended) return undefined;
      if (paused) {
        paused = false;
        body.resume();
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
}

/** What the stream's own iterator says of a body closed before its end. */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}
