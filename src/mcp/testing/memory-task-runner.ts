// Test support (not a test itself): a TaskRunner in memory over a registry, standing in for the
// tasks room's runner in the MCP room's tests (the MCP room is below it, and takes the port). It
// keeps to the port's words: `working` until the call ends, `completed` with the result (a tool's
// own failure too), `cancelled` when cancelled.
import { randomUUID } from 'node:crypto';
import type { StartTaskRequest, TaskFilter, TaskRecord, TaskRunner } from '../../tasks/task-types.ts';
import type { ToolRegistry } from '../../tool-runtime/tool-registry.ts';

export function memoryTaskRunner(registry: () => ToolRegistry, options: { pollIntervalMs?: number } = {}): TaskRunner {
  const tasks = new Map<string, TaskRecord>();
  const stops = new Map<string, AbortController>();
  const ends = new Map<string, Promise<TaskRecord>>();
  const listeners = new Set<(task: TaskRecord) => void>();
  const change = (id: string, fields: Partial<TaskRecord>) => {
    const task = { ...tasks.get(id)!, ...fields, updatedAt: Date.now() };
    tasks.set(id, task);
    for (const listener of listeners) listener(task);
    return task;
  };
  return {
    async start(request: StartTaskRequest) {
      const now = Date.now();
      const task: TaskRecord = {
        id: randomUUID(),
        tool: request.tool,
        callId: request.callId,
        origin: request.origin,
        status: 'working',
        arguments: request.arguments,
        createdAt: now,
        updatedAt: now,
        ...(request.ttlMs === undefined ? {} : { ttlMs: request.ttlMs }),
        ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
      };
      tasks.set(task.id, task);
      const stop = new AbortController();
      stops.set(task.id, stop);
      const { onProgress, ...hooks } = request.hooks ?? {};
      ends.set(
        task.id,
        registry()
          .execute(request.tool, request.arguments, {
            ...hooks,
            signal: stop.signal,
            onProgress: (report) => {
              change(task.id, { progress: report });
              onProgress?.(report);
            },
          })
          .then((result) =>
            tasks.get(task.id)!.status === 'cancelled'
              ? tasks.get(task.id)!
              : change(task.id, { status: 'completed', result }),
          ),
      );
      return task;
    },
    get: (id) => tasks.get(id),
    list: (filter?: TaskFilter) =>
      [...tasks.values()].filter((task) => filter?.tool === undefined || task.tool === filter.tool),
    cancel(id) {
      const task = tasks.get(id);
      if (task === undefined || task.status !== 'working') return task;
      const cancelled = change(id, { status: 'cancelled', statusMessage: 'Cancelled by its client.' });
      stops.get(id)?.abort(new Error('cancelled'));
      return cancelled;
    },
    waitForEnd: (id) => ends.get(id) ?? Promise.reject(new Error(`no task ${id}`)),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
