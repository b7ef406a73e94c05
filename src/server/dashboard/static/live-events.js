// One connection to GET /api/events for as long as the page is open, opened again after a
// break (waiting longer each time, up to 15 s); listeners get each event by type, and `open` on
// every (re)connection, so a page can catch up on what it missed.
import { ApiError, stream } from './api.js';

const listeners = new Map();
let running = false;
let wake = () => {};

export function onLiveEvent(type, listener) {
  if (!listeners.has(type)) listeners.set(type, new Set());
  listeners.get(type).add(listener);
}

function emit(type, data) {
  for (const listener of listeners.get(type) ?? []) {
    try {
      listener(data);
    } catch (error) {
      console.error(error);
    }
  }
}

/** Starts the connection (once); `reconnectNow()` skips the wait after a refused sign-in. */
export function startLiveEvents() {
  if (running) return;
  running = true;
  void (async () => {
    let delay = 1000;
    for (;;) {
      try {
        await stream('/api/events', {
          onOpen() {
            delay = 1000;
            emit('open', {});
          },
          onEvent: emit,
        });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) delay = 60_000; // until sign-in wakes it
      }
      emit('closed', {});
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, delay);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      delay = Math.min(delay * 2, 15_000);
    }
  })();
}

export function reconnectNow() {
  wake();
}
