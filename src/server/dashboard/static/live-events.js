// @ts-check
// One connection to GET /api/events for as long as the page is open, opened again after a
// break (waiting longer each time, up to 15 s); listeners get each event by type, and `open` on
// every (re)connection, so a page can catch up on what it missed.
import { ApiError, stream } from './api.js';

/** @import { DownloadState } from './download-panel.js' */
/**
 * The events of GET /api/events the page listens to (docs/server-api.md), and `open` and `closed`
 * for the connection itself.
 * @typedef {{
 *   model: { id: string }, 'model-download': DownloadState, 'tools-changed': { changes: unknown[] }, 'mcp-sign-in': { server: string, url: string }, open: {}, closed: {},
 *   task: { task: { id: string, status: string } & Record<string, unknown> },
 *   'task-delivered': { sessionId: string, session?: string, task: { id: string, tool: string }, message: { role: string, content: string } },
 *   'task-call': { taskId: string, session?: string, event: { type: string } & Record<string, any> },
 *   'approval-request': { approvalId: string, sessionId: string, session?: string, callId: string, tool: string, params?: unknown, expiresAt: string },
 *   'approval-answered': { approvalId: string, sessionId: string, callId: string, tool: string, decision: string },
 *   'question-request': { questionId: string, sessionId: string, session?: string, callId: string, tool: string, question: string, choices?: string[], fields?: Record<string, unknown>, required?: string[], expiresAt: string },
 *   'question-answered': { questionId: string, sessionId: string, callId: string, tool: string, answered: boolean, status: string }
 * }} LiveEvents
 */

/** @type {Map<string, Set<(data: any) => void>>} */
const listeners = new Map();
let running = false;
let wake = () => {};

/**
 * Calls `listener` with the data of every event of `type`.
 * @template {keyof LiveEvents} K
 * @param {K} type
 * @param {(data: LiveEvents[K]) => void} listener
 */
export function onLiveEvent(type, listener) {
  const set = listeners.get(type) ?? new Set();
  listeners.set(type, set.add(listener));
}

/**
 * @param {string} type
 * @param {unknown} data
 */
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
      await new Promise((/** @type {(value?: unknown) => void} */ resolve) => {
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
