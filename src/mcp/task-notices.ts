import type { McpTasks } from './task-methods.ts';
import { clientOffersTasks, metaCapabilities } from './task-wire.ts';

// `notifications/tasks` (SEP-2663's status notifications) on a 2026-07-28 `subscriptions/listen`
// stream: a client that declared the tasks extension and named tasks in its filter
// (`notifications.taskIds`, as the extension's client contributes it) is told each change of their
// status on the wire, with the DetailedTask (the result or error inlined once they end, their
// questions while they wait). The SDK's listen router knows only the four core notifications and
// drops the extension's field, so such a stream is served here; any other goes to the SDK.

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
/** A comment line this often keeps proxies from closing a quiet stream (as the SDK's own). */
const KEEP_ALIVE_MS = 15_000;
/** How often a stream reads again the tasks it follows: one running on another replica changes there, unheard here. */
const REREAD_MS = 1_000;
/** The most tasks one stream may follow. */
const MAX_TASK_IDS = 100;
const ENDED = new Set(['completed', 'failed', 'cancelled']);

interface ListenRequest {
  id: string | number;
  params: { _meta?: unknown; notifications: { taskIds?: unknown; toolsListChanged?: unknown } };
}

/** A `subscriptions/listen` request that names tasks and whose client declared the extension: one for `taskListen`. */
export function isTaskListen(body: unknown): body is ListenRequest {
  const request = body as Partial<ListenRequest> & { method?: unknown };
  if (request?.method !== 'subscriptions/listen') return false;
  if (typeof request.id !== 'string' && typeof request.id !== 'number') return false;
  const taskIds = request.params?.notifications?.taskIds;
  return (
    Array.isArray(taskIds) &&
    taskIds.length > 0 &&
    clientOffersTasks(metaCapabilities(request.params?._meta), undefined, undefined)
  );
}

/** What a subscription writes and how it is told of tools' changes. */
interface SubscriptionIo {
  /** Writes one JSON-RPC message (a notification, or the listen request's result at the end). */
  send: (message: Record<string, unknown>) => void;
  /** Ends the channel's part of the stream (an SSE body closes; stdio has nothing to close). */
  end?: () => void;
  onToolsChange?: ((listener: () => void) => () => void) | undefined;
}

/**
 * The subscription: the acknowledgement first (the tasks it follows: those of the filter an MCP
 * client started here, and `toolsListChanged` when asked), then each task's state as it is now, then
 * a notice at each change of its status or its questions (heard from this process's runner, or read
 * again from the store every second: a task running on another replica). It ends, answered, once every task it
 * follows has ended and it follows nothing else; `stop(false)` ends it unanswered (the client left).
 */
function subscribe(request: ListenRequest, tasks: McpTasks, io: SubscriptionIo): { stop: (answered: boolean) => void } {
  const wanted = request.params.notifications;
  const named = [...new Set((wanted.taskIds as unknown[]).filter((id): id is string => typeof id === 'string'))].slice(
    0,
    MAX_TASK_IDS,
  );
  const toolsListChanged = wanted.toolsListChanged === true && io.onToolsChange !== undefined;
  const subscription = request.id;
  const said = new Map<string, string>();
  const following = new Set<string>();
  const stops: Array<() => void> = [];
  let closed = false;
  const write = (message: Record<string, unknown>) => {
    if (closed) return;
    try {
      io.send({ jsonrpc: '2.0', ...message });
    } catch {}
  };
  const notify = (method: string, params: Record<string, unknown> = {}) =>
    write({ method, params: { ...params, _meta: { [SUBSCRIPTION_ID]: subscription } } });
  const stop = (answered: boolean) => {
    if (closed) return;
    if (answered)
      write({
        id: subscription,
        result: {
          resultType: 'complete',
          _meta: { [SUBSCRIPTION_ID]: subscription, [SERVER_INFO]: { name: 'riverse', version: '0.1.0' } },
        },
      });
    closed = true;
    for (const one of stops.splice(0)) one();
    io.end?.();
  };
  // The tasks are read from the store: one read after another, so that the notices keep their order.
  let reads = Promise.resolve();
  const inTurn = (read: () => Promise<void>) => {
    reads = reads.then(read).catch(() => {});
  };
  /** A notice when what the client sees of the task changed: its status, or which questions it waits on. */
  const tell = (id: string) =>
    inTurn(async () => {
      if (!following.has(id) || closed) return;
      const task = await tasks.detailed(id);
      if (task === undefined) return;
      const { resultType: _, ...shown } = task;
      const questions = 'inputRequests' in shown ? Object.keys(shown.inputRequests ?? {}).join(',') : '';
      const seen = `${shown.status}|${questions}`;
      if (said.get(id) === seen) return;
      said.set(id, seen);
      notify('notifications/tasks', shown);
      if (ENDED.has(shown.status)) {
        following.delete(id);
        if (following.size === 0 && !toolsListChanged) queueMicrotask(() => stop(true));
      }
    });
  inTurn(async () => {
    // Only the tasks an MCP client started here.
    const known = await Promise.all(named.map(async (id) => ((await tasks.detailed(id)) === undefined ? [] : [id])));
    const taskIds = known.flat();
    for (const id of taskIds) following.add(id);
    notify('notifications/subscriptions/acknowledged', {
      notifications: { ...(toolsListChanged ? { toolsListChanged: true } : {}), taskIds },
    });
    if (taskIds.length === 0 && !toolsListChanged) return stop(true);
    if (closed) return;
    stops.push(tasks.watch(tell));
    // A change is told once whoever hears it (`tell` says only what the client has not seen).
    const reread = setInterval(() => {
      for (const id of following) tell(id);
    }, REREAD_MS);
    reread.unref();
    stops.push(() => clearInterval(reread));
    if (toolsListChanged) stops.push(io.onToolsChange!(() => notify('notifications/tools/list_changed')));
    for (const id of taskIds) tell(id);
  });
  return { stop };
}

/** The listen stream at /mcp: the subscription above, as server-sent events (a comment every 15 s keeps it open). */
export function taskListen(
  request: ListenRequest,
  tasks: McpTasks,
  options: { signal: AbortSignal; onToolsChange?: (listener: () => void) => () => void },
): Response {
  const encoder = new TextEncoder();
  let subscription: { stop: (answered: boolean) => void } | undefined;
  let alive: NodeJS.Timeout | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const enqueue = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {}
      };
      alive = setInterval(() => enqueue(': keepalive\n\n'), KEEP_ALIVE_MS);
      alive.unref();
      subscription = subscribe(request, tasks, {
        send: (message) => enqueue(`event: message\ndata: ${JSON.stringify(message)}\n\n`),
        end: () => {
          clearInterval(alive);
          try {
            controller.close();
          } catch {}
        },
        onToolsChange: options.onToolsChange,
      });
    },
    cancel() {
      subscription?.stop(false);
    },
  });
  if (options.signal.aborted) subscription?.stop(false);
  else options.signal.addEventListener('abort', () => subscription?.stop(false), { once: true });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
}

/**
 * The same on stdio (`riverse mcp`): answers a listen request that names tasks itself, writing
 * through `send`, and ends one when the client cancels it (`notifications/cancelled` naming its id).
 * Answers whether the message was such a request or cancel (else it is the SDK's).
 */
export function stdioTaskListens(
  tasks: McpTasks,
  send: (message: Record<string, unknown>) => void,
  onToolsChange?: (listener: () => void) => () => void,
): (message: unknown) => boolean {
  const open = new Map<string | number, { stop: (answered: boolean) => void }>();
  return (message) => {
    if (isTaskListen(message)) {
      const id = message.id;
      let ended = false;
      const subscription = subscribe(message, tasks, {
        send,
        end: () => {
          ended = true;
          open.delete(id);
        },
        onToolsChange,
      });
      if (!ended) open.set(id, subscription);
      return true;
    }
    const cancelled = message as { method?: unknown; params?: { requestId?: unknown } };
    const id = cancelled.params?.requestId;
    if (cancelled.method === 'notifications/cancelled' && (typeof id === 'string' || typeof id === 'number')) {
      const subscription = open.get(id);
      if (subscription === undefined) return false;
      subscription.stop(false);
      return true;
    }
    return false;
  };
}
