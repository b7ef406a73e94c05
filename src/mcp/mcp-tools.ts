import type { Tool } from '@modelcontextprotocol/client';
import type { OAuthTokenRepository } from '../store/store.ts';
import type { AppConfig } from '../tools/app-config.ts';
import { createParamsChecker, type ParamsChecker } from '../tool-runtime/check-params.ts';
import { said, type Diagnostic } from '../core/diagnostic.ts';
import type { ToolInfo } from '../tool-runtime/load-tool-file.ts';
import type { JsonSchema } from '../tool-runtime/parameter-schema.ts';
import { renderPhrase } from '../core/phrase.ts';
import { phrase } from '../tool-runtime/runtime-phrases.ts';
import { registerTool, type RegisteredTool } from '../tool-runtime/registered-tool.ts';
import type { ApprovalSetting } from '../tools/approval-policy.ts';
import type { ToolManifest } from '../tools/tool-manifest.ts';
import type { SourceTools, ToolSource } from '../tool-runtime/tool-source.ts';
import { DEFAULT_LIMITS } from '../tool-runtime/execute-tool.ts';
import { toToolResult } from './call-result.ts';
import { DEFAULT_STARTUP_TIMEOUT_MS, enabledServers, type McpConfig } from './mcp-settings.ts';
import { schemaParameters } from '../tool-runtime/schema-parameters.ts';
import { ServerConnection, type ServerStatus } from './server-connection.ts';
import { registryToolName } from './tool-names.ts';

/** Where a server's tools and diagnostics say they come from. */
function serverFile(server: string): string {
  return `mcp:${server}`;
}

export interface McpToolsOptions {
  config: AppConfig & McpConfig;
  /** The config file's folder: a server's relative `cwd` is resolved from it. */
  baseDir: string;
  /** The data folder: servers' sign-ins are kept in its `mcp-oauth/` (in memory without one). */
  dataDir?: string;
  /** The assistant's store's sign-ins, when it has one (they are kept there, shared by replicas). */
  tokens?: OAuthTokenRepository;
  /** False where no person can be asked (`riverse ask`, `riverse mcp`): servers are not offered elicitation (default true). */
  canAsk?: boolean;
}

/**
 * The configured MCP servers as a ToolSource: each server's tools, named `<server>__<tool>`, with
 * the server's JSON Schema, checked and run like any drop-in tool. Servers start together; a server
 * that is down keeps its last known tools as unavailable, with the reason.
 */
export class McpTools implements ToolSource {
  readonly #config: AppConfig & McpConfig;
  readonly #connections: ServerConnection[];
  readonly #listeners = new Set<(file: string) => void>();
  #snapshot: SourceTools | undefined;
  #ready: Promise<void> = Promise.resolve();
  /** Registry names given so far, by server and tool: a tool keeps its name while the process runs. */
  readonly #names = new Map<string, string>();

  private constructor(options: McpToolsOptions) {
    this.#config = options.config;
    this.#connections = enabledServers(options.config)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, settings]) => {
        const connection: ServerConnection = new ServerConnection(name, settings, {
          baseDir: options.baseDir,
          ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
          ...(options.tokens === undefined ? {} : { tokens: options.tokens }),
          canAsk: options.canAsk ?? true,
          onChange: () => this.#changed(connection),
        });
        return connection;
      });
  }

  /** Starts every configured server at once, without waiting for them (see ready()). */
  static open(options: McpToolsOptions): McpTools {
    const tools = new McpTools(options);
    tools.#ready = Promise.all(tools.#connections.map((connection) => connection.start())).then(() => {});
    return tools;
  }

  /** open() and ready(): the servers started and waited for, within the bound. */
  static async start(options: McpToolsOptions): Promise<McpTools> {
    const tools = McpTools.open(options);
    await tools.ready();
    return tools;
  }

  /**
   * Resolves once every server has answered or failed its first attempt, but after
   * `mcp.startup_timeout_ms` (5 s) at most: a slow one joins the registry when it is ready.
   */
  async ready(): Promise<void> {
    if (this.#connections.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#ready,
      new Promise(
        (resolve) => (timer = setTimeout(resolve, this.#config.mcp?.startup_timeout_ms ?? DEFAULT_STARTUP_TIMEOUT_MS)),
      ),
    ]);
    clearTimeout(timer);
  }

  statuses(): ServerStatus[] {
    return this.#connections.map((connection) => connection.status());
  }

  onChange(listener: (file: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  snapshot(): SourceTools {
    return (this.#snapshot ??= this.#build());
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    await Promise.all(this.#connections.map((connection) => connection.close()));
  }

  #changed(connection: ServerConnection): void {
    this.#snapshot = undefined;
    for (const listener of this.#listeners) listener(serverFile(connection.name));
  }

  #build(): SourceTools {
    const tools: RegisteredTool[] = [];
    const unavailable: ToolInfo[] = [];
    const diagnostics: Diagnostic[] = [];
    const taken = new Set(this.#names.values());
    for (const connection of this.#connections) {
      const file = serverFile(connection.name);
      const connected = connection.state === 'connected';
      for (const tool of connection.tools) {
        const key = `${connection.name}\0${tool.name}`;
        let name = this.#names.get(key);
        if (name === undefined) {
          name = registryToolName(connection.name, tool.name, taken);
          taken.add(name);
          this.#names.set(key, name);
        }
        const manifest = toolManifest(
          name,
          tool,
          connection.settings.timeout_ms ?? this.#config.tools?.timeout_ms ?? DEFAULT_LIMITS.defaultTimeoutMs,
          connection.settings.approval,
          connection.runsAsTask(tool.name),
        );
        if (connected) tools.push(mcpTool(connection, tool, { name, file, manifest }, this.#config));
        else {
          const why = phrase('reason.mcp-server', {
            server: connection.name,
            why: connection.reason ?? connection.state,
          });
          unavailable.push({
            name,
            file,
            manifest,
            available: false,
            reason: renderPhrase(why, 'en')!,
            reasonText: why,
          });
        }
      }
      if (!connected) {
        const starting = connection.state === 'starting';
        diagnostics.push({
          severity: starting ? 'warning' : 'error',
          code: 'mcp-server-unavailable',
          file,
          ...said(
            phrase('load.mcp-server-unavailable', { server: connection.name, starting, why: connection.reason ?? '' }),
            phrase('load.mcp-server-unavailable.hint', { server: connection.name }),
          ),
        });
      }
    }
    return { tools, unavailable, diagnostics };
  }
}

/** A server's tool as a manifest: its description, its parameters summarized from the schema, its annotations. */
function toolManifest(
  name: string,
  tool: Tool,
  timeoutMs: number,
  serverApproval: ApprovalSetting | undefined,
  runsAsTask: boolean,
): ToolManifest {
  const annotations = tool.annotations ?? {};
  const hints = Object.fromEntries(
    Object.entries(annotations).filter(([key, value]) =>
      key === 'title' ? typeof value === 'string' : typeof value === 'boolean',
    ),
  );
  const title = tool.title ?? (typeof annotations.title === 'string' ? annotations.title : undefined);
  return {
    name,
    description: tool.description ?? title ?? tool.name,
    parameters: schemaParameters(tool.inputSchema),
    timeoutMs,
    ...(Object.keys(hints).length === 0 ? {} : { annotations: hints }),
    // A tool its server runs only as a task (it said so to a call): a Riverse task too, when a turn calls it.
    ...(runsAsTask ? { long_running: 'required' as const } : {}),
    // The server's approval setting, else its own word that the tool destroys something (a hint, trusted only to ask more).
    ...(serverApproval !== undefined
      ? { approval: serverApproval }
      : annotations.destructiveHint === true
        ? { approval: 'always' as const }
        : {}),
  };
}

function mcpTool(
  connection: ServerConnection,
  tool: Tool,
  entry: { name: string; file: string; manifest: ToolManifest },
  config: AppConfig,
): RegisteredTool {
  const timeoutMs = entry.manifest.timeoutMs!;
  // The schema as the server wrote it ($schema and $defs included): what models and `riverse mcp` are given.
  const schema = { ...(tool.inputSchema ?? {}), type: 'object' } as JsonSchema;
  const registered = registerTool(
    entry,
    config,
    async (params, context) =>
      toToolResult(
        entry.name,
        await connection.callTool(tool.name, params, context.signal, timeoutMs, {
          progress: context.progress,
          log: context.log,
          channel: { ask: context.ask, language: context.language },
        }),
      ),
    // It runs in the server's process (or across the network), not in one of Riverse's hosts.
    'none',
    schema,
  );
  let check: ParamsChecker | undefined;
  return {
    ...registered,
    checkParams: (params) => {
      try {
        // Checked without `$schema`: the validator takes the draft it knows rather than refusing another's name.
        const { $schema: _draft, ...checked } = schema as Record<string, unknown>;
        return (check ??= createParamsChecker(entry.manifest, checked as JsonSchema))(params);
      } catch (error) {
        // A schema the validator cannot compile is the server's fault: the call fails, the registry does not.
        const message = `${entry.name}'s input schema (from MCP server "${connection.name}") cannot be used to check arguments: ${error instanceof Error ? error.message : String(error)}`;
        return { ok: false, error: message, problems: [message] };
      }
    },
  };
}
