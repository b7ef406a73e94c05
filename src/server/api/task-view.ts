import type { Language } from '../../core/language.ts';
import { renderPhrase } from '../../core/phrase.ts';
import { taskPhrase } from '../../tasks/task-text.ts';
import { partsAsJson } from '../../tools/result-content.ts';
import type { TaskRecord } from '../../tasks/task-types.ts';

/**
 * A task as the API answers it: its times also as ISO 8601, its result's bytes as base64, and, when
 * Riverse worded its status message (an interruption, a cancel), that message in `language` as `statusText`.
 */
export function taskView(
  task: TaskRecord,
  language: Language = 'en',
): TaskRecord & { created: string; updated: string; statusText?: string } {
  const result = task.result;
  const said =
    task.errorCode === 'interrupted'
      ? taskPhrase('task.interrupted')
      : task.status === 'cancelled'
        ? taskPhrase('task.cancelled', { tool: task.tool })
        : undefined;
  const statusText = said === undefined ? undefined : renderPhrase(said, language);
  return {
    ...task,
    ...(result?.content === undefined ? {} : { result: { ...result, content: partsAsJson(result.content) } }),
    created: new Date(task.createdAt).toISOString(),
    updated: new Date(task.updatedAt).toISOString(),
    ...(statusText === undefined ? {} : { statusText }),
  };
}
