import { randomUUID } from 'node:crypto';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { HEADER_MISMATCH, paramHeaderMismatch } from './param-headers.ts';
import { BATCH_REFUSED, INVALID_REQUEST } from './rpc-refusals.ts';
import { createToolServer, type ServedTools } from './tool-server.ts';
import type { TaskRunner } from '../tasks/task-types.ts';
import { McpTasks } from './task-methods.ts';
import { isTaskListen, taskListen } from './task-notices.ts';

/** Sessions open at once; the oldest idle one is closed to make room. */
const MAX_SESSIONS = 64;
/** A session not used for this long is closed (its client begins a new one). */
const IDLE_MS = 30 * 60_000;

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  close: () => Promise<void>;
  lastUsed: number;
}

/**
 * The registry served over streamable HTTP, as `(request) => response`: the 2025 revisions with
 * sessions (each with its own server, told of every reload by `notifications/tools/list_changed`),
 * and the stateless 2026-07-28 revision through the SDK's own handler. Riverse's rules (Host,
 * token, Origin, body size) run before it, in `riverse serve`.
 */
export function mcpHttpEndpoint(
  tools: ServedTools,
  options: { tasks?: TaskRunner; stateSecret?: Buffer } = {},
): {
  handle: (request: Request) => Promise<Response>;
  close: () => Promise<void>;
} {
  const sessions = new Map<string, Session>();
  // One for the endpoint: a task outlives the request (and the server) that started it.
  const tasks = options.tasks === undefined ? undefined : new McpTasks(options.tasks);
  // The 2026 revision's state between rounds is signed with a key every replica shares (any request may reach any of them).
  const shared = options.stateSecret === undefined ? {} : { stateSecret: options.stateSecret };
  const modern = createMcpHandler(() => createToolServer(tools, { listChanged: false, tasks, ...shared }).server, {
    legacy: 'reject',
  });
  const stopNotices = tools.onChange(() => modern.notify.toolsChanged());

  const closeSession = async (id: string) => {
    const session = sessions.get(id);
    sessions.delete(id);
    await session?.close();
  };
  const makeRoom = async () => {
    const now = Date.now();
    for (const [id, session] of sessions) if (now - session.lastUsed > IDLE_MS) await closeSession(id);
    if (sessions.size >= MAX_SESSIONS)
      await closeSession([...sessions].sort(([, a], [, b]) => a.lastUsed - b.lastUsed)[0]![0]);
  };

  const handle = async (request: Request): Promise<Response> => {
    let body: unknown;
    if (request.method === 'POST') {
      try {
        body = await request.json();
      } catch {
        return rpcError(400, -32700, 'Parse error: the body is not JSON.');
      }
      // Refused in every revision alike, as on stdio (the SDK would serve a 2025 session's batch).
      if (Array.isArray(body)) return rpcError(400, INVALID_REQUEST, BATCH_REFUSED);
    }
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const session = sessions.get(id);
      if (session === undefined)
        return rpcError(404, -32001, 'Session not found: it ended or the service restarted; initialize a new one.');
      session.lastUsed = Date.now();
      const response = await session.transport.handleRequest(request, { parsedBody: body });
      if (request.method === 'DELETE') sessions.delete(id);
      return response;
    }
    if (request.method === 'POST' && isInitializeRequest(body) && (await isLegacyRequest(request, body))) {
      await makeRoom();
      const server = createToolServer(tools, { tasks });
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sessionId) =>
          void sessions.set(sessionId, { transport, close: server.close, lastUsed: Date.now() }),
        onsessionclosed: (sessionId) => void sessions.delete(sessionId),
      });
      transport.onclose = () => void server.close();
      await server.server.connect(transport);
      return transport.handleRequest(request, { parsedBody: body });
    }
    if (request.method === 'POST' && !(await isLegacyRequest(request, body))) {
      const refused = paramHeadersRefusal(tools, body, request.headers);
      if (refused !== undefined) return refused;
      // A listen stream that names tasks gets their notifications/tasks too (task-notices.ts).
      if (tasks !== undefined && isTaskListen(body))
        return taskListen(body, tasks, {
          signal: request.signal,
          onToolsChange: (listener) => tools.onChange(listener),
        });
      return modern.fetch(request, { parsedBody: body });
    }
    return rpcError(
      400,
      -32000,
      'Bad request: no valid session. Begin with an initialize request, then send its Mcp-Session-Id header.',
    );
  };

  return {
    handle,
    close: async () => {
      stopNotices();
      await Promise.all([...sessions.keys()].map(closeSession));
      await modern.close();
    },
  };
}

/** A 2026 `tools/call` whose `Mcp-Param-*` headers disagree with its arguments (param-headers.ts): 400, -32020. */
function paramHeadersRefusal(tools: ServedTools, body: unknown, headers: Headers): Response | undefined {
  const call = body as { id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
  if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string') return undefined;
  const tool = tools.current.get(call.params.name);
  const mismatch = tool === undefined ? undefined : paramHeaderMismatch(tool.schema, call.params.arguments, headers);
  if (mismatch === undefined) return undefined;
  return Response.json(
    {
      jsonrpc: '2.0',
      error: { code: HEADER_MISMATCH, message: `Bad Request: the request headers and body disagree: ${mismatch}.` },
      id: typeof call.id === 'string' || typeof call.id === 'number' ? call.id : null,
    },
    { status: 400 },
  );
}

function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}
