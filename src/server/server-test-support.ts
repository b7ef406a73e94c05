// Test support for src/server/*.test.ts (not a test itself): the service started for real on
// 127.0.0.1 with port 0, over a real store and real tool files in a temp folder, and a raw HTTP
// client that sends exactly the headers a test gives (Host, Origin, chunked bodies).
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import type { RiverseConfig } from '../config/riverse-config.ts';
import type { ChatModel } from '../models/chat-model.ts';
import { SessionStore } from '../store/session-store.ts';
import { LiveToolRegistry } from '../tools/live-registry.ts';
import { tempDir, writeFiles, type Cleanup } from '../tools/test-support.ts';
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
  /** riverse.yaml's text, written before the service starts. */
  yaml?: string;
  config?: RiverseConfig;
  model?: ChatModel;
  server?: Partial<ServerOptions>;
  /** Watch the tool folder (default false: most tests need no reloads). */
  watch?: boolean;
}

/** The service on 127.0.0.1:0; everything closed and removed when the test ends. */
export async function startTestService(t: Cleanup, options: TestServiceOptions = {}): Promise<TestService> {
  const dir = await tempDir(t, 'riverse-server-');
  const tools = join(dir, 'agent', 'tools');
  await writeFiles(tools, options.files ?? {});
  if (options.yaml !== undefined) await writeFiles(dir, { 'riverse.yaml': options.yaml });
  // In this thread unless a test asks for isolation: loading stays quick.
  const config: RiverseConfig = options.config ?? { tools: { isolation: 'none' } };
  const live = await LiveToolRegistry.open({ config, baseDir: dir, watch: options.watch ?? false });
  const store = SessionStore.open(join(dir, 'data'));
  const context = createServerContext({ tools: live, store, config: { config, baseDir: dir, file: join(dir, 'riverse.yaml') }, model: options.model, dataDir: join(dir, 'data'), version: '0.0.0-test' });
  const server = await startServer(context, { ...serverOptions(undefined, { host: '127.0.0.1', port: 0 }, {}), ...options.server });
  t.after(async () => {
    await server.close();
    store.close();
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
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...(typeof options.body === 'object' ? { 'content-type': 'application/json' } : {}), ...options.headers };
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-length')) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers, agent: false, setHost: false }, (response) => {
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
    });
    request.on('error', reject); // after the answer was read (a 413 closing mid-body), nothing to say
    request.setTimeout(20_000, () => request.destroy(new Error(`no answer to ${path} within 20 s`)));
    if (options.chunks !== undefined) {
      for (const chunk of options.chunks) request.write(chunk);
      if (options.keepOpen !== true) request.end();
    } else request.end(body);
  });
}
