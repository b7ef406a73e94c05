import {
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { TaskRecord, TaskRunner } from '../tasks/task-types.ts';
import type { ExecuteOptions } from '../tool-runtime/execute-tool.ts';
import type { AskAnswer } from '../tools/tool-context.ts';
import { askAnswer, askQuestion } from './person-questions.ts';
import { createTaskResult, detailedTask, tasksRequired } from './task-wire.ts';
import { toCallToolResult } from './call-result.ts';

/** How long a task's question waits for its answer through tasks/update unless it says (as over elicitation). */
const ANSWER_TIMEOUT_MS = 5 * 60_000;

/** A question a task waits on: the input request a client reads on tasks/get, and who is waiting. */
interface Pending {
  request: ReturnType<typeof inputRequired.elicit>;
  answer: (response: { action: string; content?: Record<string, unknown> }) => void;
}

type Hooks = Required<Pick<ExecuteOptions, 'ask' | 'approve'>>;

/**
 * The tasks extension's methods over Riverse's tasks (the runner is the port the tasks room gives):
 * a tools/call that becomes a task, `tasks/get` (the DetailedTask, the result inlined),
 * `tasks/update` (answers to the task's questions), `tasks/cancel`. One per endpoint, shared by
 * every server it makes (a 2026-07-28 request gets a server of its own), since a task outlives
 * the request that started it. Only tasks an MCP client started are visible here.
 */
export class McpTasks {
  readonly #runner: TaskRunner;
  /** The questions each running task waits on, by task id, then by the key its input request has. */
  readonly #pending = new Map<string, Map<string, Pending>>();

  constructor(runner: TaskRunner) {
    this.#runner = runner;
  }

  /** Starts an approved call as a task; its questions become input requests, answered through tasks/update. */
  async start(
    tool: string,
    args: Record<string, unknown>,
    callId: string,
  ): Promise<ReturnType<typeof createTaskResult>> {
    let id: string | undefined;
    let asks = 0;
    // A question can come before start() answers (a tool that asks at once): it waits for the id.
    const early: Array<() => void> = [];
    const ask = (key: string, request: Pending['request'], signal: AbortSignal, timeoutMs: number) =>
      new Promise<{ action: string; content?: Record<string, unknown> }>((resolve) => {
        const put = () => {
          const pending = this.#pending.get(id!) ?? new Map<string, Pending>();
          this.#pending.set(id!, pending);
          const done = (response: { action: string; content?: Record<string, unknown> }) => {
            clearTimeout(timer);
            pending.delete(key);
            resolve(response);
          };
          // A task cancelled before its question was put has no one to ask.
          if (signal.aborted) return resolve({ action: 'cancel' });
          const timer = setTimeout(() => done({ action: 'timeout' }), timeoutMs);
          signal.addEventListener('abort', () => done({ action: 'cancel' }), { once: true });
          pending.set(key, { request, answer: done });
        };
        if (id === undefined) early.push(put);
        else put();
      });
    const hooks: Hooks = {
      ask: async (question, signal): Promise<AskAnswer> => {
        asks++;
        const answer = await ask(
          question.key ?? `ask-${asks}`,
          inputRequired.elicit(askQuestion(question)),
          signal,
          question.timeoutMs ?? ANSWER_TIMEOUT_MS,
        );
        if (answer.action === 'timeout') return { answered: false, reason: 'timeout' };
        // An answer that does not fit the form is no answer (a 2025 client's; a task's is asked once).
        return askAnswer(answer, question) ?? { answered: false, reason: 'cancelled' };
      },
      // Approved before the task was created (tool-server.ts), as a turn's long_running call is.
      approve: async () => ({ run: true }),
    };
    const task = await this.#runner.start({
      tool,
      arguments: args,
      callId,
      origin: 'mcp',
      ask: hooks.ask,
      approve: hooks.approve,
    });
    id = task.id;
    for (const put of early.splice(0)) put();
    // Its questions go when it ends (a client reading it then sees its outcome, not them).
    this.#runner.waitForEnd(task.id).then(
      () => this.#pending.delete(task.id),
      () => this.#pending.delete(task.id),
    );
    return createTaskResult(task);
  }

  /** Registers tasks/get, tasks/update and tasks/cancel; `offered` says whether the request's client declared the extension. */
  register(server: Server, offered: (meta: unknown, context: ServerContext) => boolean): void {
    const gate = async (method: string, params: TaskParams, context: ServerContext) => {
      if (!offered(params._meta, context)) throw tasksRequired(method);
      return this.#task(params.taskId);
    };
    server.setRequestHandler('tasks/get', { params: TASK_PARAMS }, async (params, context) => {
      const task = await gate('tasks/get', params, context);
      return detailedTask(task, this.#inputRequests(task.id), (result) => ({ ...toCallToolResult(result) }));
    });
    server.setRequestHandler('tasks/update', { params: TASK_PARAMS }, async (params, context) => {
      const task = await gate('tasks/update', params, context);
      // In 2026-07-28 the SDK lifts `inputResponses` out of the params, as on a tools/call round.
      const responses = params.inputResponses ?? context.mcpReq.inputResponses;
      if (typeof responses !== 'object' || responses === null || Array.isArray(responses))
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          'tasks/update needs inputResponses: an object by key.',
        );
      const pending = this.#pending.get(task.id);
      // Keys the task is not waiting on are ignored (an answer given twice, or to a question it no longer asks).
      for (const [key, response] of Object.entries(responses)) {
        const waiting = pending?.get(key);
        if (waiting !== undefined && typeof response === 'object' && response !== null)
          waiting.answer(response as { action: string; content?: Record<string, unknown> });
      }
      return { resultType: 'complete' };
    });
    server.setRequestHandler('tasks/cancel', { params: TASK_PARAMS }, async (params, context) => {
      const task = await gate('tasks/cancel', params, context);
      // Cancelling a task that has ended changes nothing, and is acknowledged the same.
      if (task.status === 'working' || task.status === 'input_required') await this.#runner.cancel(task.id);
      return { resultType: 'complete' };
    });
  }

  async #task(id: string): Promise<TaskRecord> {
    const task = await this.#runner.get(id);
    if (task === undefined || task.origin !== 'mcp')
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `No task ${id}: it never existed here, or its time to live is over.`,
        {
          taskId: id,
        },
      );
    return task;
  }

  #inputRequests(id: string): Record<string, unknown> | undefined {
    const pending = this.#pending.get(id);
    if (pending === undefined || pending.size === 0) return undefined;
    return Object.fromEntries([...pending].map(([key, { request }]) => [key, request]));
  }
}

interface TaskParams {
  taskId: string;
  inputResponses?: unknown;
  _meta?: unknown;
}

/** The params of tasks/get, tasks/update and tasks/cancel (a Standard Schema, as the SDK takes a custom method's). */
const TASK_PARAMS = {
  '~standard': {
    version: 1 as const,
    vendor: 'riverse',
    types: undefined as unknown as { input: unknown; output: TaskParams },
    validate: (value: unknown) => {
      const params = value as Partial<TaskParams> | undefined;
      if (typeof params?.taskId !== 'string' || params.taskId === '')
        return { issues: [{ message: 'taskId: expected the id of a task (a string)', path: ['taskId'] }] };
      return { value: params as TaskParams };
    },
  },
};
