/**
 * Makes `controller` abort, with the same reason, when `signal` does (at once if it has already);
 * returns what undoes the link, for when the work the controller stops is over.
 *
 * Per request, this is what AbortSignal.any would do, without its weak references: V8 clears those
 * only in a full GC, so every request's joined signal — and all its listeners hold — survived the
 * minor GCs into the old generation (under load, hundreds of KB promoted per scavenge).
 */
export function followSignal(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (signal === undefined) return () => {};
  if (signal.aborted) {
    controller.abort(signal.reason);
    return () => {};
  }
  const abort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', abort, { once: true });
  return () => signal.removeEventListener('abort', abort);
}
