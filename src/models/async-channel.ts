/** Values pushed by callbacks, read with `for await`: the bridge from a callback API to a stream. */
export class AsyncChannel<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #ended = false;
  #error: { error: unknown } | undefined;
  #wake: (() => void) | undefined;

  push(item: T): void {
    if (this.#ended) return;
    this.#items.push(item);
    this.#notify();
  }

  end(): void {
    this.#ended = true;
    this.#notify();
  }

  /** Ends the stream with an error, thrown to the reader after the items pushed before it. */
  fail(error: unknown): void {
    if (this.#ended) return;
    this.#error = { error };
    this.end();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for (;;) {
      if (this.#items.length > 0) {
        const items = this.#items;
        this.#items = [];
        yield* items;
        continue;
      }
      if (this.#ended) {
        if (this.#error !== undefined) throw this.#error.error;
        return;
      }
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}
