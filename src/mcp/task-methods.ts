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
import { withUpFrontAnswers } from '../tool-runtime/asks-first.ts';

/** How long a task's question waits for its answer through tasks/update unless it says (as over elicitation). */
const ANSWER_TIMEOUT_MS = 5 * 60_000;

type Hooks = Required<Pick<ExecuteOptions, 'ask' | 'approve'>>;

/**
 * The tasks extension's methods over Riverse's tasks (the runner is the port the tasks room gives):
 * a tools/call that becomes a task, `tasks/get` (the DetailedTask, the result inlined),
 * `tasks/update` (answers to the task's questions), `tasks/cancel`. One per endpoint, shared by
 * every server it makes (a 2026-07-28 request gets a server of its own), since a task outlives
 * the request that started it. Only tasks an MCP client started are visible here. A task's
 * questions are kept by the runner's `inputs` (in the store), so that tasks/get and tasks/update
 * reaching any replica see and answer them; the task goes on in the replica running it.
 */
export class McpTasks {
  readonly #runner: TaskRunner;
  /** Told the id of a task whose state on the wire may have changed (notifications/tasks: task-notices.ts). */
  readonly #watchers = new Set<(id: string) => void>();

  constructor(runner: TaskRunner) {
    this.#runner = runner;
    runner.onChange((task) => {
      if (task.origin === 'mcp') this.#changed(task.id);
    });
  }

  /**
   * The task as `tasks/get` and `notifications/tasks` show it (its DetailedTask: the result or
   * error inlined, its questions while it waits), or undefined for a task no MCP client started.
   */
  async detailed(id: string) {
    const task = await this.#runner.get(id);
    if (task === undefined || task.origin !== 'mcp') return undefined;
    const questions = await this.#runner.inputs.requests(id);
    // The wire's input_required is the questions put here: a task about to put one is still working.
    const shown =
      task.status === 'input_required' && questions === undefined ? { ...task, status: 'working' as const } : task;
    return detailedTask(shown, questions, (result) => ({ ...toCallToolResult(result) }));
  }

  /** Calls `watcher` with the id of each task whose state may have changed; returns the unsubscribe. */
  watch(watcher: (id: string) => void): () => void {
    this.#watchers.add(watcher);
    return () => void this.#watchers.delete(watcher);
  }

  #changed(id: string): void {
    for (const watcher of this.#watchers) {
      try {
        watcher(id);
      } catch {}
    }
  }

  /**
   * Starts an approved call as a task; its questions become input requests, answered through
   * tasks/update, but for those its asks_first answered before the task existed (`answers`, by key).
   */
  async start(
    tool: string,
    args: Record<string, unknown>,
    callId: string,
    answers: ReadonlyMap<string, AskAnswer> = new Map(),
  ): Promise<ReturnType<typeof createTaskResult>> {
    let asks = 0;
    // A question can come before start() answers (a tool that asks at once): it waits for the id.
    let started: (id: string) => void = () => {};
    const known = new Promise<string>((resolve) => (started = resolve));
    const ask = async (key: string, request: Record<string, unknown>, signal: AbortSignal, timeoutMs: number) => {
      const taskId = await known;
      // Its question is on the wire once stored (input_required, with inputRequests), and off it once answered or ended.
      const response = await this.#runner.inputs.ask(taskId, key, request, timeoutMs, signal, () =>
        this.#changed(taskId),
      );
      this.#changed(taskId);
      return response;
    };
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
      ask: withUpFrontAnswers(answers, hooks.ask)!,
      approve: hooks.approve,
    });
    started(task.id);
    // Its questions end with it (a client reading it then sees its outcome, not them).
    const end = () => this.#runner.inputs.endTask(task.id).catch(() => {});
    this.#runner.waitForEnd(task.id).then(end, end);
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
      return (await this.detailed(task.id))!;
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
      // Stored, whichever replica runs the task: it finds them there. Keys it is not waiting on are ignored.
      await this.#runner.inputs.answer(task.id, responses as Record<string, unknown>);
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
