import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { isLanguage, LANGUAGES, type Language } from '../../core/language.ts';
import { ApiError } from '../api-error.ts';
import { connectHint } from '../connect-hint.ts';
import { readJsonObject } from '../read-json.ts';
import { requestLanguage } from '../request-language.ts';
import type { ServerContext } from '../server-context.ts';
import { sseQueue } from '../sse-queue.ts';
import { requestTraceContext } from '../trace-headers.ts';
import { chatEvent } from './chat-events.ts';
import { newSessionName, sessionName } from './session-name.ts';
import type { SessionInfo } from '../../store/store-records.ts';
import { modelTitle } from './session-title.ts';

/**
 * `POST /api/chat`: one turn, streamed as SSE — `session` first, the turn's events, `done` last.
 * Closing the connection cancels the turn. One turn per session at a time.
 */
export function chatRoutes(context: ServerContext): Hono {
  const routes = new Hono();
  const busy = new Set<string>();

  routes.post('/chat', async (c) => {
    const body = await readJsonObject(c);
    if (typeof body.message !== 'string' || body.message.trim() === '')
      throw new ApiError(400, 'invalid-request', '"message" must be a non-empty string', 'message');
    if (body.lang !== undefined && !isLanguage(body.lang))
      throw new ApiError(400, 'invalid-request', `"lang" must be one of ${LANGUAGES.join(', ')}`, 'lang');
    const language = (body.lang as Language | undefined) ?? requestLanguage(c);
    const message = body.message;
    const assistant = context.assistant();
    if (assistant === undefined) throw new ApiError(409, 'no-model', connectHint(language, context.modelProblem, true));
    const name =
      body.session === undefined
        ? await newSessionName(
            message,
            async (taken) => busy.has(taken) || (await context.store.findSession(taken)) !== undefined,
          )
        : sessionName(body.session, 'session');
    const sessionBusy = () =>
      new ApiError(
        409,
        'session-busy',
        `Session ${JSON.stringify(name)} is answering another message; wait for its reply (or close that chat) and send this one again.`,
        'session',
      );
    if (busy.has(name)) throw sessionBusy();
    busy.add(name);
    let session: SessionInfo;
    try {
      session = await context.store.session(name);
      // One turn per session across every replica sharing the store, not only in this process.
      if (!(await context.turns.claim(session.id))) throw sessionBusy();
    } catch (error) {
      busy.delete(name);
      throw error;
    }
    return streamSSE(c, async (stream) => {
      const abort = new AbortController();
      const cancel = () => abort.abort(new DOMException('The client closed the connection.', 'AbortError'));
      stream.onAbort(cancel);
      c.req.raw.signal.addEventListener('abort', cancel, { once: true });
      const queue = sseQueue(stream);
      // A new chat is named by the model while it answers (asked beside the turn, bounded): the
      // page learns the name from a second `session` event, before the stream ends. A model on this
      // computer answers one request at a time: it is asked after the turn, not before it.
      const naming = body.session === undefined && context.sessionTitles === 'model';
      const title = () => modelTitle(assistant.model, message, language, abort.signal);
      const oneAtATime = assistant.model.id.startsWith('local:');
      const titling = naming && !oneAtATime ? title() : undefined;
      // The session is free again before `done` goes out: a client that sends its next message at
      // once, to this replica or another, finds it free.
      let released = false;
      const release = async () => {
        if (released) return;
        released = true;
        busy.delete(name);
        await context.turns.release(session.id);
      };
      let done: { type: string; data: unknown } | undefined;
      try {
        queue.send('session', { id: session.id, name: session.name });
        await assistant.turn(message, {
          session: name,
          signal: abort.signal,
          ...requestTraceContext(c),
          onEvent: (event) => {
            const sent = chatEvent(event, language);
            if (sent?.type === 'done') done = sent;
            else if (sent !== undefined) queue.send(sent.type, sent.data);
          },
        });
        await release();
        if (done !== undefined) queue.send(done.type, done.data);
        const given = titling ?? (naming && !abort.signal.aborted ? title() : undefined);
        const renamed = given === undefined ? undefined : await retitle(context, name, await given, busy);
        if (renamed !== undefined) queue.send('session', { id: session.id, name: renamed });
        await queue.flushed();
      } finally {
        await release();
        c.req.raw.signal.removeEventListener('abort', cancel);
      }
    });
  });

  return routes;
}

/**
 * The chat called `name` takes the model's `title` (made unique), unless it was renamed or
 * deleted meanwhile; its new name, or undefined when it keeps its own. Never throws: a title is
 * a nicety, and the turn has been answered.
 */
async function retitle(
  context: ServerContext,
  name: string,
  title: string | undefined,
  busy: Set<string>,
): Promise<string | undefined> {
  if (title === undefined || title === name) return undefined;
  try {
    if ((await context.store.findSession(name)) === undefined) return undefined;
    const next = await newSessionName(
      title,
      async (taken) => busy.has(taken) || (await context.store.findSession(taken)) !== undefined,
    );
    return (await context.store.renameSession(name, next))?.name;
  } catch {
    return undefined;
  }
}
