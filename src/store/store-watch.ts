/** What waits here looks in the store this often for what another process sharing it settled. */
const STORE_WATCH_MS = 250;

/**
 * While something waits in this process for a row another process sharing the store may settle (an
 * answer given to another replica behind the same load balancer), looks for it every `everyMs`:
 * one look per waiting thing, one round at a time (a slow store), no timer while nothing waits. A
 * look that fails (the store is down) is left to the next round, or to its waiter's time limit.
 */
export class StoreWatch {
  readonly #looks = new Map<string, () => Promise<void>>();
  readonly #everyMs: number;
  #timer: NodeJS.Timeout | undefined;
  #looking = false;

  constructor(everyMs = STORE_WATCH_MS) {
    this.#everyMs = everyMs;
  }

  /** Runs `look` at each round until `stop(id)`: it reads the row and wakes its waiter when settled. */
  watch(id: string, look: () => Promise<void>): void {
    this.#looks.set(id, look);
    this.#timer ??= setInterval(() => this.#round(), this.#everyMs);
    this.#timer.unref();
  }

  stop(id: string): void {
    this.#looks.delete(id);
    if (this.#looks.size > 0) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #round(): void {
    if (this.#looking) return;
    this.#looking = true;
    void (async () => {
      for (const look of [...this.#looks.values()]) await look().catch(() => {});
    })().finally(() => (this.#looking = false));
  }
}
