import { partsAsJson } from '../../tools/result-content.ts';
import type { TaskRecord } from '../../tasks/task-types.ts';

/** A task as the API answers it: its times also as ISO 8601, its result's bytes as base64. */
export function taskView(task: TaskRecord): TaskRecord & { created: string; updated: string } {
  const result = task.result;
  return {
    ...task,
    ...(result?.content === undefined ? {} : { result: { ...result, content: partsAsJson(result.content) } }),
    created: new Date(task.createdAt).toISOString(),
    updated: new Date(task.updatedAt).toISOString(),
  };
}
