/**
 * Turns a callback producer into an async iterable: `start(push)` runs at once; the iterable yields
 * every pushed value, in order, and ends when the returned promise settles (rethrowing its error).
 */
export function eventStream<T>(start: (push: (value: T) => void) => Promise<unknown>): AsyncIterable<T> {
  const queue: T[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: { error: unknown } | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  start((value) => {
    queue.push(value);
    notify();
  }).then(
    () => {
      ended = true;
      notify();
    },
    (error: unknown) => {
      failure = { error };
      ended = true;
      notify();
    },
  );
  return {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (queue.length > 0) {
          yield queue.shift()!;
          continue;
        }
        if (ended) {
          if (failure !== undefined) throw failure.error;
          return;
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}
