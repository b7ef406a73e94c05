import type { StoreWatch } from './store-watch.ts';

/** What `waitForStored` waits on: a pending row of the store that this process or another may settle. */
export interface StoredWaitParts<T> {
  /** Looks in the store (another process may have settled it), each round of `watch`; none: nothing else settles it. */
  watch: StoreWatch | undefined;
  /** Its name in the watch (unique among what waits here). */
  id: string;
  /** The row's outcome once it is settled (`{ outcome }`), undefined while it is pending. */
  read(): Promise<{ outcome: T } | undefined>;
  /** Ends the pending row unanswered (a conditional write); false when an answer was stored first. */
  end(): Promise<boolean>;
  /** The outcome of a row ended unanswered (its time, `signal`, a failing store, another process). */
  unanswered(): T;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/**
 * Waits for a stored row's answer (a tool's question, a task's input request): given in this process
 * (`wake`, at once) or stored by another sharing the store (found by the watch). Its time limit or
 * `signal` ends it in the store first, so that no process takes an answer no one will read; an
 * answer stored a moment before wins. `done` settles once.
 */
export function waitForStored<T>(parts: StoredWaitParts<T>): { done: Promise<T>; wake: (outcome: T) => void } {
  const { watch, id, signal } = parts;
  let wake: (outcome: T) => void = () => {};
  const done = new Promise<T>((resolve) => {
    let settled = false;
    const settle = (outcome: T) => {
      if (settled) return;
      settled = true;
      watch?.stop(id);
      clearTimeout(timer);
      signal?.removeEventListener('abort', end);
      resolve(outcome);
    };
    wake = settle;
    function end() {
      void (async () => {
        if (await parts.end()) settle(parts.unanswered());
        else settle((await parts.read())?.outcome ?? parts.unanswered());
      })().catch(() => settle(parts.unanswered()));
    }
    const timer = setTimeout(end, Math.min(parts.timeoutMs, 2 ** 31 - 1));
    signal?.addEventListener('abort', end, { once: true });
    watch?.watch(id, async () => {
      const read = await parts.read();
      if (read !== undefined) settle(read.outcome);
    });
    if (signal?.aborted) end();
  });
  return { done, wake };
}
