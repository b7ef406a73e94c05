import type { TaskRecord, TaskRunner } from '../../tasks/task-types.ts';

/** A runner and how it is closed. */
interface Opened {
  runner: TaskRunner;
  close(): Promise<void>;
}

/**
 * `riverse mcp`'s tasks: the runner (and the store it keeps tasks in) opens on the first task an
 * MCP client starts, so a tools server whose tools never run as tasks opens no database. Before
 * that there is no task to get, list or cancel.
 */
export function lazyTasks(open: () => Promise<Opened>): TaskRunner & { close(): Promise<void> } {
  let opening: Promise<Opened> | undefined;
  let opened: Opened | undefined;
  const listeners = new Set<(task: TaskRecord) => void>();
  const runner = async () => {
    opening ??= open().then((value) => {
      opened = value;
      value.runner.onChange((task) => {
        for (const listener of listeners) listener(task);
      });
      return value;
    });
    return (await opening).runner;
  };
  return {
    start: async (request) => (await runner()).start(request),
    get: async (id) => opened?.runner.get(id),
    list: async (filter) => opened?.runner.list(filter) ?? [],
    cancel: async (id) => opened?.runner.cancel(id),
    waitForEnd: (id, signal) =>
      opened === undefined
        ? Promise.reject(new Error(`There is no task ${id}.`))
        : opened.runner.waitForEnd(id, signal),
    // A task asks only once it runs, so its runner is open by then; before, no task has requests.
    inputs: {
      ask: async (...args) => (await runner()).inputs.ask(...args),
      requests: async (id) => opened?.runner.inputs.requests(id),
      answer: async (id, responses) => opened?.runner.inputs.answer(id, responses),
      endTask: async (id) => opened?.runner.inputs.endTask(id),
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    // Running tasks end `interrupted` with the process (the runner's close), as in the service.
    close: async () => opened?.close(),
  };
}
