export type ServerEventListener = (type: string, data: unknown) => void;

/**
 * What the service pushes to every open `/api/events` stream: `tools-changed`, `model`,
 * `model-download`, or anything a room publishes. A listener that throws is dropped, not the rest.
 */
export class ServerEvents {
  readonly #listeners = new Set<ServerEventListener>();
  readonly #closers = new Set<() => void>();

  publish(type: string, data: unknown): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(type, data);
      } catch {
        this.#listeners.delete(listener);
      }
    }
  }

  /** Calls `listener` for every event; `onClose` when the service shuts down. Returns the unsubscribe. */
  subscribe(listener: ServerEventListener, onClose?: () => void): () => void {
    this.#listeners.add(listener);
    if (onClose !== undefined) this.#closers.add(onClose);
    return () => {
      this.#listeners.delete(listener);
      if (onClose !== undefined) this.#closers.delete(onClose);
    };
  }

  /** Open subscriptions (the event streams count against a cap). */
  get size(): number {
    return this.#listeners.size;
  }

  /** Ends every subscription: the service is closing. */
  close(): void {
    const closers = [...this.#closers];
    this.#listeners.clear();
    this.#closers.clear();
    for (const close of closers) close();
  }
}
