/** How long a server asks us to wait (`retry-after-ms`, else `Retry-After` in seconds or as an HTTP date), in ms. */
export function retryAfterMs(
  header: (name: string) => string | null | undefined,
  now = Date.now(),
): number | undefined {
  const ms = header('retry-after-ms');
  if (ms !== null && ms !== undefined) {
    const value = Number(ms);
    if (ms.trim() !== '' && Number.isFinite(value) && value >= 0) return value;
  }
  const value = header('retry-after');
  return value === null || value === undefined ? undefined : parseRetryAfter(value, now);
}

/** `Retry-After`: delay-seconds (fractions accepted, as some servers send them) or an HTTP date. */
export function parseRetryAfter(value: string, now = Date.now()): number | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential back-off with "equal jitter": between half and all of `baseMs × 2^attempt`, at most `capMs`. */
export function backoffMs(attempt: number, baseMs: number, capMs: number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** Waits `ms`; resolves false at once if the signal aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted === true) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
