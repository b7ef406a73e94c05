import type { ChatMessage } from '../models/chat-message.ts';
import type { Language } from '../core/language.ts';
import { renderPhrase } from '../core/phrase.ts';
import type { LocalTaskRunner } from '../tasks/task-runner.ts';
import { taskPhrase } from '../tasks/task-text.ts';
import type { TaskRecord } from '../tasks/task-types.ts';
import { toolOutput } from './tool-output.ts';

/** A task's result as it arrives in its session: the message added, and the task it tells of. */
export interface TaskDelivery {
  sessionId: string;
  task: TaskRecord;
  message: ChatMessage;
}

/**
 * The message that brings an ended task's result into its session (decision 032): a `user` message
 * in Riverse's words — "Task <id> (<tool>) finished: <result>" — with the result's pictures, so
 * that every provider takes it between two turns (a tool message would need a call just before it).
 */
function deliveryMessage(task: TaskRecord, language: Language): ChatMessage {
  const status = task.status === 'completed' ? 'completed' : task.status;
  const said =
    task.result !== undefined
      ? toolOutput({
          callId: task.callId,
          tool: task.tool,
          params: task.arguments,
          result: task.result,
          durationMs: 0,
          startedAt: '',
        })
      : undefined;
  const result = said?.content ?? task.statusMessage ?? renderPhrase(taskPhrase('task.no-result'), language) ?? '';
  const statusWords = renderPhrase(
    taskPhrase(
      status === 'failed'
        ? 'task.status.failed'
        : status === 'cancelled'
          ? 'task.status.cancelled'
          : status === 'interrupted'
            ? 'task.status.interrupted'
            : 'task.status.completed',
    ),
    language,
  );
  const content = renderPhrase(
    taskPhrase('task.delivered', { id: task.id, tool: task.tool, status: statusWords ?? status, result }),
    language,
  );
  return { role: 'user', content: content ?? result, ...(said?.images === undefined ? {} : { images: said.images }) };
}

/**
 * Delivers a session's ended tasks that it has not seen: each is marked delivered first (so that of
 * two processes sharing the store, one delivers it), then its message is added with `append`.
 */
export async function deliverTasks(
  runner: LocalTaskRunner,
  sessionId: string,
  language: Language,
  append: (messages: ChatMessage[]) => void | Promise<void>,
): Promise<TaskDelivery[]> {
  const delivered: TaskDelivery[] = [];
  for (const task of await runner.undelivered(sessionId)) {
    if (!(await runner.markDelivered(task.id))) continue;
    const message = deliveryMessage(task, language);
    await append([message]);
    delivered.push({ sessionId, task: { ...task, deliveredAt: Date.now() }, message });
  }
  return delivered;
}
