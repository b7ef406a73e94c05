import { Hono } from 'hono';
import { SessionNameTakenError } from '../../store/store-records.ts';
import { ApiError } from '../api-error.ts';
import { readJsonObject } from '../read-json.ts';
import { sessionName } from './session-name.ts';
import type { ServerContext } from '../server-context.ts';

const noSuchSession = (name: string) =>
  new ApiError(
    404,
    'session-not-found',
    `There is no session called ${JSON.stringify(name)}; GET /api/sessions lists them.`,
  );

/** `/api/sessions`: list, read, rename, delete. */
export function sessionRoutes(context: ServerContext): Hono {
  const routes = new Hono();
  const { store } = context;

  routes.get('/sessions', async (c) => c.json({ sessions: await store.listSessions() }));

  routes.get('/sessions/:name', async (c) => {
    const session = await store.findSession(c.req.param('name'));
    if (session === undefined) throw noSuchSession(c.req.param('name'));
    // Each message with its turn's id: a reply links to its turn's trace (/api/traces/:id).
    const turns = await store.messageTurns(session.id);
    const messages = (await store.messages(session.id)).map((message, index) =>
      turns[index] == null ? message : { ...message, turnId: turns[index] },
    );
    return c.json({ session, messages });
  });

  routes.patch('/sessions/:name', async (c) => {
    const name = sessionName((await readJsonObject(c)).name, 'name');
    let session;
    try {
      session = await store.renameSession(c.req.param('name'), name);
    } catch (error) {
      if (error instanceof SessionNameTakenError) throw new ApiError(409, error.code, error.message, 'name');
      throw error;
    }
    if (session === undefined) throw noSuchSession(c.req.param('name'));
    return c.json({ session });
  });

  routes.delete('/sessions/:name', async (c) => {
    if (!(await store.deleteSession(c.req.param('name')))) throw noSuchSession(c.req.param('name'));
    return c.body(null, 204);
  });

  return routes;
}
