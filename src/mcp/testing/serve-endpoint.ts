// Test support (not a test itself): the MCP endpoint (`mcpHttpEndpoint`) with a task runner,
// served on 127.0.0.1 by plain node:http, for the tests that need /mcp with tasks before the
// service builds one with the tasks room's runner.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../../tools/app-config.ts';
import { LiveToolRegistry } from '../../tool-runtime/live-registry.ts';
import { tempDir, writeFiles, type Cleanup } from '../../tool-runtime/test-support.ts';
import { mcpHttpEndpoint } from '../http-endpoint.ts';
import { memoryTaskRunner } from './memory-task-runner.ts';
import { join } from 'node:path';

/**
 * Tool files (name → source) served at the returned `/mcp` URL, their tasks run in memory; closed
 * when the test ends. The test parses riverse.yaml (the config room is above this one).
 */
export async function serveToolsWithTasks(
  t: Cleanup,
  files: Record<string, string>,
  project: {
    yaml: string;
    parse: (yaml: string, file: string) => AppConfig;
  },
): Promise<string> {
  const { yaml } = project;
  const dir = await tempDir(t, 'riverse-tasks-');
  await writeFiles(join(dir, 'agent', 'tools'), files);
  await writeFiles(dir, { 'riverse.yaml': yaml });
  const live = await LiveToolRegistry.open({ config: project.parse(yaml, join(dir, 'riverse.yaml')), baseDir: dir });
  const endpoint = mcpHttpEndpoint(live, { tasks: memoryTaskRunner(() => live.current) });
  const http = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers))
      if (typeof value === 'string') headers.set(name, value);
    const response = await endpoint.handle(
      new Request(`http://127.0.0.1${incoming.url}`, {
        method: incoming.method,
        headers,
        ...(incoming.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
      }),
    );
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body !== null) for await (const chunk of response.body) outgoing.write(chunk);
    outgoing.end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
    await endpoint.close();
    await live.close();
  });
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}
