// Test support for src/server/*.test.ts (not a test itself): the service started for real on
// 127.0.0.1 with port 0, over a real store and real tool files in a temp folder, and a raw HTTP
// client that sends exactly the headers a test gives (Host, Origin, chunked bodies).
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { parseConfig } from '../config/load-config.ts';
import type { ChatModel } from '../models/chat-model.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import type { TurnExport } from '../telemetry/turn-export.ts';
import { LiveToolRegistry } from '../tool-runtime/live-registry.ts';
import { tempDir, writeFiles, type Cleanup } from '../tool-runtime/test-support.ts';
import { startServer, type RunningServer } from './serve.ts';
import { serverOptions, type ServerOptions } from './server-config.ts';
import { createServerContext, type ServerContext } from './server-context.ts';

export interface TestService {
  url: string;
  port: number;
  context: ServerContext;
  /** The project folder: riverse.yaml, agent/tools/, data/. */
  dir: string;
  tools: string;
  server: RunningServer;
}

export interface TestServiceOptions {
  /** Tool files (name → source) in agent/tools/. */
  files?: Record<string, string>;
  /** riverse.yaml's text, written before the service starts and read as its config (default: tools in this thread, for quick loads). */
  yaml?: string;
  model?: ChatModel;
  server?: Partial<ServerOptions>;
  /** Watch the tool folder (default false: most tests need no reloads). */
  watch?: boolean;
  /**
   * How new chats are named (default `cut`: the scripted models of most tests answer every request
   * as a turn's, so a title request would take one of their replies).
   */
  sessionTitles?: 'model' | 'cut';
  /** Where turns, runs by hand and MCP calls are exported (default: none, telemetry off). */
  telemetry?: TurnExport;
}

/** riverse.yaml unless a test gives its own: tools in this thread, so that loading stays quick. */
const DEFAULT_YAML = '# a test project\ntools:\n  isolation: none # quick loads\n';

/** The service on 127.0.0.1:0; everything closed and removed when the test ends. */
export async function startTestService(t: Cleanup, options: TestServiceOptions = {}): Promise<TestService> {
  const dir = await tempDir(t, 'riverse-server-');
  const tools = join(dir, 'agent', 'tools');
  await writeFiles(tools, options.files ?? {});
  const yaml = options.yaml ?? DEFAULT_YAML;
  await writeFiles(dir, { 'riverse.yaml': yaml });
  const config = parseConfig(yaml, join(dir, 'riverse.yaml'));
  const live = await LiveToolRegistry.open({ config, baseDir: dir, watch: options.watch ?? false });
  const store = SqliteStore.open(join(dir, 'data'));
  const context = createServerContext({
    tools: live,
    store,
    config: { config, baseDir: dir, file: join(dir, 'riverse.yaml') },
    model: options.model,
    dataDir: join(dir, 'data'),
    version: '0.0.0-test',
    sessionTitles: options.sessionTitles ?? 'cut',
    ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
  });
  const server = await startServer(context, {
    ...serverOptions(undefined, { host: '127.0.0.1', port: 0 }, {}),
    ...options.server,
  });
  t.after(async () => {
    await server.close();
    await store.close();
    await live.close();
  });
  return { url: server.url, port: server.port, context, dir, tools, server };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body as JSON (undefined when it is not). */
  json: any;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  /** A body sent whole (with Content-Length unless the headers say otherwise). */
  body?: string | object;
  /** A body sent in chunks without Content-Length (chunked); `keepOpen` leaves the request unfinished. */
  chunks?: string[];
  keepOpen?: boolean;
}

/** One request with exactly these headers (Host included), read to the end. */
export function raw(port: number, path: string, options: RawRequest = {}): Promise<RawResponse> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    host: `127.0.0.1:${port}`,
    ...(typeof options.body === 'object' ? { 'content-type': 'application/json' } : {}),
    ...options.headers,
  };
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-length'))
    headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers, agent: false, setHost: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
          request.destroy();
        });
      },
    );
    request.on('error', reject); // after the answer was read (a 413 closing mid-body), nothing to say
    request.setTimeout(20_000, () => request.destroy(new Error(`no answer to ${path} within 20 s`)));
    if (options.chunks !== undefined) {
      for (const chunk of options.chunks) request.write(chunk);
      if (options.keepOpen !== true) request.end();
    } else request.end(body);
  });
}

export interface SseMessage {
  event: string;
  data: any;
}

/** The SSE messages of a response as they come (comments as `event: ':'`, their text as `data`). */
export async function* sseMessages(response: Response): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith(':')) {
        yield { event: ':', data: block.slice(1).trim() };
        continue;
      }
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      yield { event, data: JSON.parse(data) };
    }
  }
}

/** `POST /api/chat`, read to its end: the status and, for a stream, every message. */
export async function chat(
  url: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; json?: any; events: SseMessage[] }> {
  const response = await fetch(`${url}api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream'))
    return { status: response.status, json: await response.json(), events: [] };
  const events: SseMessage[] = [];
  for await (const message of sseMessages(response)) events.push(message);
  return { status: response.status, events };
}

/** An open `/api/events` stream: wait for the next message that matches, or close it. */
export async function openEvents(
  t: Cleanup,
  url: string,
  headers: Record<string, string> = {},
): Promise<{
  response: Response;
  next(match: (message: SseMessage) => boolean, what: string): Promise<SseMessage>;
  close(): void;
}> {
  const controller = new AbortController();
  const response = await fetch(`${url}api/events`, { headers, signal: controller.signal });
  const messages = response.ok ? sseMessages(response) : undefined;
  const close = () => controller.abort();
  t.after(close);
  return {
    response,
    async next(match, what) {
      const timer = setTimeout(close, 10_000); // a bound on the wait, not a timing: the message is expected long before
      try {
        for (;;) {
          const { value, done } = await messages!.next();
          if (done === true) throw new Error(`the event stream ended before ${what}`);
          if (match(value)) return value;
        }
      } catch (error) {
        throw new Error(`no ${what} on /api/events: ${(error as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
    },
    close,
  };
}
