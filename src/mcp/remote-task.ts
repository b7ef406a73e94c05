import type {
  CallToolResult,
  Client,
  ElicitRequestParams,
  JSONRPCMessage,
  Transport,
} from '@modelcontextprotocol/client';
import type { ReportProgress } from '../tools/call-report.ts';
import { ToolFailure } from '../tools/tool-result.ts';
import { elicit, type ElicitationChannel } from './elicitation.ts';

// A remote server's tool that runs only as a task (the tasks extension, SEP-2663): the SDK's client
// knows no tasks extension (its 2026 codec refuses `resultType: "task"`, and it sends no `tasks/get`
// to a 2026 peer), so these few requests go on the client's own transport, past its codec.

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** The revision whose requests each carry their envelope in `_meta`. */
const STATELESS_REVISION = '2026-07-28';
/** How often a task is polled: the server's `pollIntervalMs`, within these bounds. */
const MIN_POLL_MS = 100;
const MAX_POLL_MS = 5_000;

/** Whether an error is a server's -32021 asking for the tasks extension (a tool that runs only as a task). */
export function needsTasks(error: unknown): boolean {
  const { code, data } = (error ?? {}) as { code?: unknown; data?: { requiredCapabilities?: { extensions?: object } } };
  return code === -32021 && data?.requiredCapabilities?.extensions !== undefined
    ? TASKS_EXTENSION in data.requiredCapabilities.extensions
    : false;
}

interface RemoteTask {
  client: Client;
  /** The capabilities the client declared, to which the tasks extension is added for these requests. */
  capabilities: Record<string, unknown>;
  server: string;
  signal: AbortSignal;
  timeoutMs: number;
  progress?: ReportProgress;
  channel?: ElicitationChannel;
  /** Told the server's task id once it made the task (kept with the Riverse task, for a restart). */
  onCreated?: (taskId: string) => void;
}

/** What a remote task ended as when Riverse picked it up again after a restart: its result, or why it could not. */
export class ForgottenTask extends Error {}

/**
 * Calls the tool as a task and waits for its end (bounded by the call's time limit): the task's
 * status reaches the call's progress (its tool card), its questions (`input_required`) are put to
 * the person through the call's channel and answered with `tasks/update`, and a cancelled call
 * cancels the task. A completed task's result is the call's; a failed or cancelled one is a failure.
 */
export async function callAsTask(
  call: RemoteTask,
  tool: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const send = (method: string, params: Record<string, unknown>) => rawRequest(call, method, params);
  const created = await send('tools/call', { name: tool, arguments: args });
  if (created.resultType !== 'task' || typeof created.taskId !== 'string') return created as CallToolResult;
  const taskId = created.taskId;
  try {
    call.onCreated?.(taskId);
  } catch {}
  return waitForTask(call, tool, taskId, Number(created.pollIntervalMs));
}

/**
 * Polls a task an earlier Riverse process started and was waiting on (its id kept with the Riverse
 * task): to its end as `callAsTask` does. A server that no longer knows it (-32602: it restarted, or
 * its time to live ended) throws a ForgottenTask saying so.
 */
export async function resumeTask(call: RemoteTask, tool: string, taskId: string): Promise<CallToolResult> {
  try {
    await rawRequest(call, 'tasks/get', { taskId });
  } catch (error) {
    if ((error as { rpcCode?: number }).rpcCode === -32602)
      throw new ForgottenTask(
        `${call.server} no longer knows its task ${taskId} for ${tool} (it restarted, or the task's time to live ended); its result is lost.`,
      );
    throw error;
  }
  return waitForTask(call, tool, taskId, Number.NaN);
}

async function waitForTask(
  call: RemoteTask,
  tool: string,
  taskId: string,
  pollIntervalMs: number,
): Promise<CallToolResult> {
  const send = (method: string, params: Record<string, unknown>) => rawRequest(call, method, params);
  const pollMs = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, pollIntervalMs || 1_000));
  const deadline = Date.now() + call.timeoutMs;
  const answered = new Set<string>();
  let polls = 0;
  let said = '';
  try {
    for (;;) {
      if (Date.now() > deadline)
        throw new ToolFailure('timeout', `${call.server}'s task for ${tool} did not end within ${call.timeoutMs} ms.`);
      const task = await send('tasks/get', { taskId });
      const status = String(task.status);
      const saying = `${tool}: ${status}${typeof task.statusMessage === 'string' ? ` (${task.statusMessage})` : ''}`;
      if (saying !== said) {
        said = saying;
        try {
          call.progress?.(++polls, undefined, saying);
        } catch {
          // Not a report Riverse passes on.
        }
      }
      if (status === 'completed') return (task.result ?? { content: [] }) as CallToolResult;
      if (status === 'failed') {
        const error = task.error as { message?: string } | undefined;
        throw new ToolFailure(
          'mcp-protocol-error',
          `${call.server}'s task for ${tool} failed: ${error?.message ?? 'no reason given'}`,
        );
      }
      if (status === 'cancelled') throw new ToolFailure('aborted', `${call.server} cancelled its task for ${tool}.`);
      if (status === 'input_required') await answer(call, taskId, task.inputRequests, answered, send);
      await pause(pollMs, call.signal);
    }
  } catch (error) {
    // A call that stops early stops its task (the server would otherwise work on for nobody).
    if (call.signal.aborted || (error instanceof ToolFailure && error.code === 'timeout'))
      await rawRequest({ ...call, signal: AbortSignal.timeout(5_000) }, 'tasks/cancel', { taskId }).catch(() => {});
    throw error;
  }
}

/** The task's questions not yet answered, put to the person (declined where no one can be asked). */
async function answer(
  call: RemoteTask,
  taskId: string,
  requests: unknown,
  answered: Set<string>,
  send: (method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>,
): Promise<void> {
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(
    (requests ?? {}) as Record<string, { method?: string; params?: unknown }>,
  )) {
    if (answered.has(key)) continue;
    answered.add(key);
    responses[key] =
      request.method === 'elicitation/create' && call.channel !== undefined
        ? await elicit(call.server, request.params as ElicitRequestParams, call.channel)
        : { action: 'decline' };
  }
  if (Object.keys(responses).length > 0) await send('tasks/update', { taskId, inputResponses: responses });
}

/** Requests in flight past the SDK, by transport, then by id. */
const inFlight = new WeakMap<Transport, Map<string, (message: JSONRPCMessage) => void>>();
let nextId = 0;

/** One request on the client's transport, with the tasks extension declared for it; its result, or a ToolFailure. */
function rawRequest(
  call: RemoteTask,
  method: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const transport = call.client.transport;
  if (transport === undefined)
    return Promise.reject(new ToolFailure('mcp-disconnected', `${call.server} is not connected.`));
  let waiting = inFlight.get(transport);
  if (waiting === undefined) {
    const own = new Map<string, (message: JSONRPCMessage) => void>();
    waiting = own;
    inFlight.set(transport, own);
    const sdk = transport.onmessage;
    // Our answers are taken before the SDK's protocol sees them; everything else is its own.
    transport.onmessage = (message, extra) => {
      const id = (message as { id?: unknown }).id;
      const mine = typeof id === 'string' && !('method' in message) ? own.get(id) : undefined;
      if (mine === undefined) return sdk?.(message, extra);
      own.delete(id as string);
      mine(message);
    };
  }
  const id = `riverse-task-${++nextId}`;
  const version = call.client.getNegotiatedProtocolVersion() ?? '';
  const capabilities = { ...call.capabilities, extensions: { [TASKS_EXTENSION]: {} } };
  const meta =
    version >= STATELESS_REVISION
      ? {
          'io.modelcontextprotocol/protocolVersion': version,
          'io.modelcontextprotocol/clientInfo': { name: 'riverse', version: '0.1.0' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        }
      : { 'io.modelcontextprotocol/clientCapabilities': capabilities };
  const map = waiting;
  return new Promise((resolve, reject) => {
    const stop = () => {
      map.delete(id);
      reject(new ToolFailure('aborted', `The call to ${call.server} was cancelled.`));
    };
    if (call.signal.aborted) return stop();
    call.signal.addEventListener('abort', stop, { once: true });
    map.set(id, (message) => {
      call.signal.removeEventListener('abort', stop);
      const { result, error } = message as {
        result?: Record<string, unknown>;
        error?: { code: number; message: string };
      };
      if (error !== undefined)
        reject(
          Object.assign(
            new ToolFailure('mcp-protocol-error', `${call.server} refused ${method}: ${error.message} (${error.code})`),
            { rpcCode: error.code },
          ),
        );
      else resolve(result ?? {});
    });
    transport
      .send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } } as JSONRPCMessage)
      .catch((error: unknown) => {
        map.delete(id);
        call.signal.removeEventListener('abort', stop);
        reject(new ToolFailure('mcp-disconnected', `${call.server} could not be sent ${method}: ${String(error)}`));
      });
  });
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
