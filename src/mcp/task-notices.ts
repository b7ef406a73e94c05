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

/**
 * The listen stream: the acknowledgement first (the tasks it follows: those of the filter an MCP
 * client started here, and `toolsListChanged` when asked), then each task's state as it is now, then
 * a notice at each change of its status or its questions. It ends, answered, once every task it
 * follows has ended and it follows nothing else; a client that goes away ends it.
 */
export function taskListen(
  request: ListenRequest,
  tasks: McpTasks,
  options: { signal: AbortSignal; onToolsChange?: (listener: () => void) => () => void },
): Response {
  const wanted = request.params.notifications;
  const taskIds = [...new Set((wanted.taskIds as unknown[]).filter((id): id is string => typeof id === 'string'))]
    .slice(0, MAX_TASK_IDS)
    .filter((id) => tasks.detailed(id) !== undefined);
  const toolsListChanged = wanted.toolsListChanged === true && options.onToolsChange !== undefined;
  const honored = { ...(toolsListChanged ? { toolsListChanged: true } : {}), taskIds };
  const subscription = request.id;
  const encoder = new TextEncoder();
  const said = new Map<string, string>();
  const following = new Set(taskIds);
  let closed = false;
  const stops: Array<() => void> = [];
  let controller: ReadableStreamDefaultController<Uint8Array>;

  const write = (message: Record<string, unknown>) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n\n`));
    } catch {}
  };
  const notify = (method: string, params: Record<string, unknown> = {}) =>
    write({ method, params: { ...params, _meta: { [SUBSCRIPTION_ID]: subscription } } });
  const close = (answered: boolean) => {
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
    for (const stop of stops.splice(0)) stop();
    try {
      controller.close();
    } catch {}
  };
  /** A notice when what the client sees of the task changed: its status, or which questions it waits on. */
  const tell = (id: string) => {
    if (!following.has(id)) return;
    const task = tasks.detailed(id);
    if (task === undefined) return;
    const { resultType: _, ...shown } = task;
    const questions = 'inputRequests' in shown ? Object.keys(shown.inputRequests ?? {}).join(',') : '';
    const seen = `${shown.status}|${questions}`;
    if (said.get(id) === seen) return;
    said.set(id, seen);
    notify('notifications/tasks', shown);
    if (ENDED.has(shown.status)) {
      following.delete(id);
      if (following.size === 0 && !toolsListChanged) queueMicrotask(() => close(true));
    }
  };

  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      notify('notifications/subscriptions/acknowledged', { notifications: honored });
      if (taskIds.length === 0 && !toolsListChanged) return close(true);
      stops.push(tasks.watch(tell));
      if (toolsListChanged) stops.push(options.onToolsChange!(() => notify('notifications/tools/list_changed')));
      const alive = setInterval(() => {
        try {
          controller.enqueue(encoder.encode(': keepalive\n\n'));
        } catch {}
      }, KEEP_ALIVE_MS);
      alive.unref();
      stops.push(() => clearInterval(alive));
      for (const id of taskIds) tell(id);
    },
    cancel() {
      close(false);
    },
  });
  if (options.signal.aborted) close(false);
  else {
    const onAbort = () => close(false);
    options.signal.addEventListener('abort', onAbort, { once: true });
    stops.push(() => options.signal.removeEventListener('abort', onAbort));
  }
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
