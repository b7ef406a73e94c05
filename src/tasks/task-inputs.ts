import { StoreWatch } from '../store/store-watch.ts';
import { waitForStored } from '../store/stored-wait.ts';
import type { TaskInputRepository } from '../store/store.ts';
import { memoryTaskInputs } from '../store/task-input-store.ts';
import type { TaskInputPort, TaskInputResponse } from './task-types.ts';

/**
 * The input requests of tasks MCP clients started, kept in the store before the client can see
 * them, so that `tasks/get` on any replica shows them and `tasks/update` on any replica answers
 * them (the first response per key counts). The call that asked waits in the process running its
 * task: woken at once by a response given here, or finding one stored elsewhere through the store's
 * watch (as approvals and questions do). Its time limit and its task's cancel end the stored request.
 */
export class TaskInputs implements TaskInputPort {
  readonly #records: TaskInputRepository;
  readonly #watch: StoreWatch | undefined;
  /** The requests asked here, by task and key: the wake of the call waiting for the response. */
  readonly #waiting = new Map<string, (response: TaskInputResponse) => void>();

  /** `records`: the store's (watched for responses stored by other processes), or none: in memory, this process alone. */
  constructor(records?: TaskInputRepository, watchMs?: number) {
    this.#records = records ?? memoryTaskInputs();
    this.#watch = records === undefined ? undefined : new StoreWatch(watchMs);
  }

  async ask(
    taskId: string,
    key: string,
    request: Record<string, unknown>,
    timeoutMs: number,
    signal: AbortSignal,
    stored?: () => void,
  ): Promise<TaskInputResponse> {
    const unanswered = (): TaskInputResponse => ({ action: signal.aborted ? 'cancel' : 'timeout' });
    // A task cancelled before its question was put has no one to ask.
    if (signal.aborted) return unanswered();
    const now = Date.now();
    const records = this.#records;
    try {
      await records.add({
        taskId,
        key,
        request,
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + timeoutMs).toISOString(),
      });
    } catch {
      return unanswered(); // the store is failing: no client anywhere could see the request
    }
    const id = JSON.stringify([taskId, key]);
    const waiting = waitForStored<TaskInputResponse>({
      watch: this.#watch,
      id,
      read: async () => {
        const stored = await records.get(taskId, key);
        if (stored?.status === 'pending') return undefined;
        return {
          outcome: stored?.status === 'answered' ? (stored.response as unknown as TaskInputResponse) : unanswered(),
        };
      },
      end: () => records.end(taskId, key),
      unanswered,
      timeoutMs,
      signal,
    });
    this.#waiting.set(id, waiting.wake);
    stored?.();
    const response = await waiting.done;
    if (this.#waiting.get(id) === waiting.wake) this.#waiting.delete(id);
    return response;
  }

  async requests(taskId: string): Promise<Record<string, Record<string, unknown>> | undefined> {
    const now = Date.now();
    // One past its time is no longer waited on (the process that asked died, or is ending it now).
    const pending = (await this.#records.pending(taskId)).filter((input) => Date.parse(input.expiresAt) > now);
    return pending.length === 0 ? undefined : Object.fromEntries(pending.map((input) => [input.key, input.request]));
  }

  async answer(taskId: string, responses: Record<string, unknown>): Promise<void> {
    for (const [key, response] of Object.entries(responses)) {
      if (typeof response !== 'object' || response === null || Array.isArray(response)) continue;
      // Keys the task is not waiting on are ignored (an answer given twice, or to a question it no longer asks).
      if (await this.#records.answer(taskId, key, response as Record<string, unknown>))
        this.#waiting.get(JSON.stringify([taskId, key]))?.(response as unknown as TaskInputResponse);
    }
  }

  /** Ends a task's pending requests: it ended, or was interrupted where it ran (no one will read a response). */
  async endTask(taskId: string): Promise<void> {
    await this.#records.endTask(taskId);
  }
}
