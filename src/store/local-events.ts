import type { StoreEvents } from './store.ts';

/**
 * Store events within one process, for the SQLite store (one machine: its processes share no
 * server to carry them). A payload goes through JSON as PostgreSQL's would, and is delivered on a
 * later tick, never during `publish`.
 */
export function localEvents(onError: (error: unknown) => void = reportOnStderr): StoreEvents {
  const channels = new Map<string, Set<(payload: unknown) => void>>();
  return {
    async publish(channel, payload) {
      const text = JSON.stringify(payload) ?? 'null';
      const listeners = [...(channels.get(channel) ?? [])];
      await Promise.resolve();
      for (const listener of listeners) {
        try {
          listener(JSON.parse(text));
        } catch (error) {
          onError(error);
        }
      }
    },
    async subscribe(channel, listener) {
      let listeners = channels.get(channel);
      if (listeners === undefined) channels.set(channel, (listeners = new Set()));
      const own = (payload: unknown) => listener(payload);
      listeners.add(own);
      return () => {
        listeners.delete(own);
        if (listeners.size === 0) channels.delete(channel);
      };
    },
  };
}

function reportOnStderr(error: unknown): void {
  console.error(`[riverse] a store event's listener failed: ${error instanceof Error ? error.message : error}`);
}
