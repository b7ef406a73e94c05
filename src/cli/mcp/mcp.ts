import { Writable } from 'node:stream';
import { sendToolOutputToStderr } from '../../tool-runtime/isolation/process-host.ts';
import { LiveToolRegistry } from '../../tool-runtime/live-registry.ts';
import { defaultCacheDir } from '../../tool-runtime/load-cache.ts';
import { loadConfig } from '../../config/load-config.ts';
import type { RiverseConfig } from '../../config/riverse-config.ts';
import type { GlobalOptions } from '../load-tools.ts';
import { MCP_TEXT } from './mcp-text.ts';
import { openMcp } from '../open-mcp.ts';
import { startTelemetry } from '../../telemetry/start-telemetry.ts';
import { TelemetrySettingError } from '../../telemetry/telemetry-settings.ts';
import { tracedTools } from '../../server/mcp-call-trace.ts';
import { UsageError } from '../usage-error.ts';
import { cliDataDir } from '../data-folder.ts';
import { lazyTasks } from './lazy-tasks.ts';
import { commandStore } from '../command-store.ts';

/**
 * What a tools server never reads: the model's settings, routing, the assistant's and the service's.
 * An MCP client starts `riverse mcp` with a minimal environment, so a `${OPENAI_API_KEY}` there
 * must not stop it (the person would see only "Connection closed").
 */
const UNREAD: readonly (keyof RiverseConfig)[] = ['model', 'model_options', 'routing', 'assistant', 'server'];

/**
 * `riverse mcp`: the registry served over stdio to an MCP client (Claude Desktop, Cursor, VS Code…),
 * kept up to date as tool files are saved. Stdout carries the protocol and nothing else: whatever
 * Riverse or a tool prints goes to stderr. Ends when the client closes stdin, or on a signal.
 */
export async function mcpServe(options: GlobalOptions): Promise<number> {
  const protocol = takeStdout();
  sendToolOutputToStderr();
  const [{ serveStdio }, { createToolServer }, { StdioTransport }, { McpTasks }, { stdioTaskListens }] =
    await Promise.all([
      import('@modelcontextprotocol/server/stdio'),
      import('../../mcp/tool-server.ts'),
      import('../../mcp/stdio-transport.ts'),
      import('../../mcp/task-methods.ts'),
      import('../../mcp/task-notices.ts'),
    ]);
  const loaded = await loadConfig({
    ...(options.config === undefined ? {} : { path: options.config }),
    unread: UNREAD,
  });
  const mcp = await openMcp(loaded.config, loaded.baseDir);
  const [tools] = await Promise.all([
    LiveToolRegistry.open({
      config: loaded.config,
      baseDir: loaded.baseDir,
      cacheDir: defaultCacheDir(),
      ...(mcp === undefined ? {} : { sources: [mcp] }),
    }),
    mcp?.ready(),
  ]);
  const untraced = {
    get current() {
      return tools.current;
    },
    onChange: (listener: () => void) => tools.onChange(() => listener()),
  };
  // With telemetry on, each call is exported under the client's traceparent (its `_meta`).
  const telemetry = await startTelemetry(loaded.config.telemetry, { language: options.language }).catch(
    (error: unknown) => {
      throw error instanceof TelemetrySettingError ? new UsageError(error.localized(options.language)) : error;
    },
  );
  const served = telemetry === undefined ? untraced : tracedTools(untraced, telemetry);
  // A long_running tool's calls run as tasks for a client of the tasks extension; the store they
  // are kept in opens with the first one (in the data folder, as the service's).
  const tasks = lazyTasks(async () => {
    const [{ sharedTasks }, { taskRetention }] = await Promise.all([
      import('../../config/assistant-options.ts'),
      import('../../store/store-settings.ts'),
    ]);
    // The command's store, which its MCP servers' sign-ins may have opened already (closed with the command).
    const store = await commandStore(cliDataDir(loaded), loaded.config, options.language);
    const runner = sharedTasks({ store, tools, retention: taskRetention(loaded.config), sources: tools.setup.sources });
    return { runner, close: () => runner.close() };
  });
  const mcpTasks = new McpTasks(tasks);
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  // Both eras on one connection: the 2025 handshake, or the stateless 2026-07-28 revision (the SDK
  // picks by the first message); our transport answers what the SDK's would drop or die on.
  let closing = false;
  const transport = new StdioTransport(process.stdin, protocol);
  // A listen stream that names tasks gets their notifications/tasks too; any other is the SDK's.
  transport.intercept = stdioTaskListens(
    mcpTasks,
    (message) => void transport.send(message as never).catch(() => {}),
    (listener) => tools.onChange(() => listener()),
  );
  const connection = serveStdio(() => createToolServer(served, { tasks: mcpTasks }).server, {
    transport,
    // Once the client has gone, what could not be written to it is no news.
    onerror: (error) => closing || console.error(MCP_TEXT[options.language].problem(error.message)),
  });
  console.error(MCP_TEXT[options.language].serving(tools.current.tools().length));
  await ended;
  closing = true;
  await connection.close();
  await tasks.close();
  await tools.close();
  return 0;
}

/** A stream to the real stdout, for the protocol; `process.stdout` itself now writes to stderr. */
function takeStdout(): Writable {
  const write = process.stdout.write.bind(process.stdout) as (
    chunk: Uint8Array | string,
    callback: (error?: Error | null) => void,
  ) => boolean;
  const protocol = new Writable({ write: (chunk: Buffer, _encoding, callback) => void write(chunk, callback) });
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  return protocol;
}
