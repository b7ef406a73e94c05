import { Hono } from 'hono';
import { ENDED_STATUSES } from '../../store/task-store.ts';
import { cancelStored } from '../../tasks/task-runner.ts';
import type { TaskFilter, TaskStatus } from '../../tasks/task-types.ts';
import { ApiError } from '../api-error.ts';
import { wholeNumberParam } from './whole-number-param.ts';
import type { ServerContext } from '../server-context.ts';
import { taskView } from './task-view.ts';
import { requestLanguage } from '../request-language.ts';

const STATUSES: readonly TaskStatus[] = ['working', 'input_required', ...ENDED_STATUSES];
const MAX_LIMIT = 1_000;

/**
 * `GET /api/tasks` (newest first; `status` — one or several, comma-separated —, `session` by name,
 * `tool`, `limit`), `GET /api/tasks/:id`, `POST /api/tasks/:id/cancel`. Tasks of other processes
 * sharing the store (a `riverse chat`) are listed too, and cancelled through the store.
 */
export function taskRoutes(context: ServerContext): Hono {
  const routes = new Hono();
  const { tasks, store } = context;

  routes.get('/tasks', async (c) => {
    const filter = await taskFilter(c.req.query());
    if (filter === undefined) return c.json({ tasks: [] }); // a session that does not exist has none
    const language = requestLanguage(c);
    return c.json({ tasks: (await tasks.list(filter)).map((task) => taskView(task, language)) });
  });

  routes.get('/tasks/:id', async (c) => c.json({ task: taskView(await found(c.req.param('id')), requestLanguage(c)) }));

  routes.post('/tasks/:id/cancel', async (c) => {
    const task = await found(c.req.param('id'));
    if (ENDED_STATUSES.includes(task.status))
      throw new ApiError(
        409,
        'task-already-ended',
        `Task ${task.id} (${task.tool}) has ended already (${task.status}); only a working task can be cancelled.`,
      );
    const mine = await tasks.cancel(task.id);
    // Still working: another process runs it (a riverse chat), and sees the cancel in the store.
    const now =
      mine !== undefined && ENDED_STATUSES.includes(mine.status) ? mine : await cancelStored(store.tasks, task.id);
    return c.json({ task: taskView(now ?? task, requestLanguage(c)) });
  });

  async function found(id: string) {
    const task = await tasks.get(id);
    if (task === undefined)
      throw new ApiError(404, 'task-not-found', `There is no task ${JSON.stringify(id)}; GET /api/tasks lists them.`);
    return task;
  }

  /** The query as a filter; undefined for a session that does not exist. A value that cannot be one is a 400 naming it. */
  async function taskFilter(query: Record<string, string>): Promise<TaskFilter | undefined> {
    const filter: TaskFilter = {};
    const { status, session, tool, limit } = query;
    if (status !== undefined && status !== '') {
      const wanted = status.split(',').map((word) => word.trim());
      const wrong = wanted.find((word) => !(STATUSES as readonly string[]).includes(word));
      if (wrong !== undefined)
        throw new ApiError(
          400,
          'invalid-request',
          `"status" takes ${STATUSES.join(', ')} (several comma-separated), not ${JSON.stringify(wrong)}`,
          'status',
        );
      filter.status = wanted as TaskStatus[];
    }
    if (tool !== undefined && tool !== '') filter.tool = tool;
    const count = wholeNumberParam('limit', limit, 1, MAX_LIMIT);
    if (count !== undefined) filter.limit = count;
    if (session !== undefined && session !== '') {
      const info = await store.findSession(session);
      if (info === undefined) return undefined;
      filter.sessionId = info.id;
    }
    return filter;
  }

  return routes;
}
