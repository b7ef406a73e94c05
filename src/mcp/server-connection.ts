import { resolve } from 'node:path';
import type { OAuthTokenRepository } from '../store/store.ts';
import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type CallToolResult,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ToolFailure } from '../tools/tool-result.ts';
import type { ReportLevel, ReportLog, ReportProgress } from '../tools/call-report.ts';

/** Where a call's progress and the server's log lines go while it runs (its context's). */
export interface CallReports {
  /** Who answers a server's questions during the call (elicitation); none: they are declined. */
  channel?: ElicitationChannel;
  progress?: ReportProgress;
  log?: ReportLog;
}
import { renderPhrase } from '../core/phrase.ts';
import { elicit, type ElicitationChannel } from './elicitation.ts';
import { callAsTask, needsTasks } from './remote-task.ts';
import { mcpPhrase } from './mcp-client-text.ts';
import { transportOf, type McpServerSettings } from './mcp-settings.ts';
import { signIns } from './oauth/sign-ins.ts';
import { transportAuth, type TransportAuth } from './oauth/transport-auth.ts';

export type ServerState = 'starting' | 'connected' | 'retrying' | 'closed';

/** One server as `riverse mcp list` shows it. */
export interface ServerStatus {
  name: string;
  transport: 'stdio' | 'http';
  state: ServerState;
  /** Why it is not connected (the last failure), in English. */
  reason?: string;
  /** Its tools as it lists them, after allow_tools and deny_tools. */
  tools: number;
  /** The negotiated protocol revision, once connected. */
  protocolVersion?: string;
  /** Failed attempts in a row. */
  failures: number;
}

/** One connection attempt's limit: a server that does not answer the handshake by then is tried again later. */
const CONNECT_TIMEOUT_MS = 30_000;
/** Reconnection back-off: 1 s, doubling, at most 30 s. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** The last lines a stdio server wrote to stderr, kept to say why it stopped. */
const STDERR_LINES = 5;
const STDERR_LINE_CHARS = 300;
/**
 * Sign-ins in a row that did not end in a connection: a server still refusing after the second (a
 * sign-in, then one for more scopes) will not be satisfied by a third, and the person is not sent
 * new links in a loop: it is tried again after the longest pause.
 */
const MAX_SIGN_INS_IN_A_ROW = 2;

export interface ConnectionOptions {
  /** Where a relative `cwd` is resolved from: the config file's folder. */
  baseDir: string;
  /** Called whenever its state or tools change. */
  onChange: () => void;
  /** Where sign-ins are kept (`<data>/mcp-oauth/`); in memory without one. */
  dataDir?: string;
  /** The assistant's store's sign-ins (over `dataDir`'s files, which move into it). */
  tokens?: OAuthTokenRepository;
  /** Whether a person can be asked in this process (chat, serve): the elicitation capability is declared only then. */
  canAsk: boolean;
}

/**
 * One configured MCP server, kept connected: started, its tools listed (and listed again when it
 * says they changed), reconnected with back-off when it fails to start, exits or stops answering
 * the handshake. Nothing it does can throw into the host: every failure becomes its state and reason,
 * or a failed call.
 */
export class ServerConnection {
  readonly name: string;
  readonly settings: McpServerSettings;
  readonly #options: ConnectionOptions;
  #state: ServerState = 'starting';
  #reason: string | undefined;
  #failures = 0;
  #tools: Tool[] = [];
  /** The `log` of each call in flight, which the server's log lines go to. */
  readonly #logListeners = new Set<ReportLog>();
  #client: Client | undefined;
  #retry: NodeJS.Timeout | undefined;
  #stderr: string[] = [];
  /** Re-initialising a forgotten HTTP session: shared by the calls that found it forgotten. */
  #renewing: Promise<void> | undefined;
  #firstAttempt: Promise<void> | undefined;
  /** The connection attempt under way, closed with the rest when Riverse closes. */
  #pending: { transport: Transport; client: Client } | undefined;
  /** The HTTP transport in use: a sign-in is finished on the one that was refused. */
  #http: StreamableHTTPClientTransport | undefined;
  /** The calls under way that can ask the person, newest last: a server's request for input goes to the newest. */
  readonly #channels: ElicitationChannel[] = [];
  #signInsInARow = 0;
  /** Its tools that answered that they run only as tasks (the tasks extension). */
  readonly #taskTools = new Set<string>();
  /** How it signs in, made once: discovery, a sign-in under way and a DPoP key outlive each transport. */
  #auth: TransportAuth | undefined | null = null;

  constructor(name: string, settings: McpServerSettings, options: ConnectionOptions) {
    this.name = name;
    this.settings = settings;
    this.#options = options;
  }

  /** Read through a getter: the state changes while a connection attempt awaits. */
  get #closed(): boolean {
    return this.#state === 'closed';
  }

  get state(): ServerState {
    return this.#state;
  }

  get reason(): string | undefined {
    return this.#reason;
  }

  /** Whether its tool (by the server's name) said it runs only as a task. */
  runsAsTask(tool: string): boolean {
    return this.#taskTools.has(tool);
  }

  /** The tools it lists (after allow_tools and deny_tools); the last known ones while it is away. */
  get tools(): readonly Tool[] {
    return this.#tools;
  }

  status(): ServerStatus {
    const version = this.#state === 'connected' ? this.#client?.getNegotiatedProtocolVersion() : undefined;
    return {
      name: this.name,
      transport: transportOf(this.settings),
      state: this.#state,
      ...(this.#reason === undefined || this.#state === 'connected' ? {} : { reason: this.#reason }),
      tools: this.#tools.length,
      ...(version === undefined ? {} : { protocolVersion: version }),
      failures: this.#failures,
    };
  }

  /** Starts connecting; resolves after the first attempt, connected or not (never rejects). */
  start(): Promise<void> {
    return (this.#firstAttempt ??= this.#connect());
  }

  async close(): Promise<void> {
    this.#state = 'closed';
    signIns.cancel(this.name);
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    const pending = this.#pending;
    await Promise.all([
      client?.close().catch(() => {}),
      pending?.client.close().catch(() => {}),
      pending?.transport.close().catch(() => {}),
    ]);
  }

  /** Calls one of its tools by the server's name. Failures are ToolFailures with a stable code. */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    timeoutMs: number,
    reports: CallReports = {},
  ): Promise<CallToolResult> {
    // A server's log lines and questions name no call: each goes to the calls it has in flight.
    const { log, channel } = reports;
    if (log !== undefined) this.#logListeners.add(log);
    if (channel !== undefined) this.#channels.push(channel);
    try {
      return await this.#callOnce(tool, args, signal, timeoutMs, reports);
    } finally {
      if (log !== undefined) this.#logListeners.delete(log);
      if (channel !== undefined) this.#channels.splice(this.#channels.lastIndexOf(channel), 1);
    }
  }

  async #callOnce(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    timeoutMs: number,
    reports: CallReports,
  ): Promise<CallToolResult> {
    try {
      return await this.#call(tool, args, signal, timeoutMs, reports);
    } catch (error) {
      if (isUnauthorized(error) && !signal.aborted && (await this.#signedIn(signal)))
        return await this.#call(tool, args, signal, timeoutMs, reports).catch((again: unknown) => {
          throw this.#failure(again);
        });
      if (!isForgottenSession(error) || signal.aborted) throw this.#failure(error);
    }
    // An HTTP server that forgot our session (restarted, or expired it) answers 404: begin a new
    // session once and send the call again. A second 404 is a failure, not a loop.
    await this.#renewSession();
    try {
      return await this.#call(tool, args, signal, timeoutMs, reports);
    } catch (error) {
      if (isForgottenSession(error))
        throw new ToolFailure(
          'mcp-protocol-error',
          `${this.name} forgot the session again right after it was begun anew (HTTP 404); the call was not sent a third time.`,
        );
      throw this.#failure(error);
    }
  }

  async #call(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    timeoutMs: number,
    reports: CallReports,
  ): Promise<CallToolResult> {
    const client = this.#client;
    if (client === undefined || this.#state !== 'connected')
      throw new ToolFailure(
        'mcp-disconnected',
        `${this.name} is not connected${this.#reason === undefined ? '' : `: ${this.#reason}`}.`,
      );
    // The SDK's own limit stays behind the registry's, which answers the call first.
    const progress = reports.progress;
    try {
      return await this.#sdkCall(client, tool, args, signal, timeoutMs, progress);
    } catch (error) {
      // A tool that runs only as a task (-32021 naming the tasks extension): called again as one, and waited for.
      if (!needsTasks(error)) throw error;
      // Known from now on as long_running, so that a turn's call of it becomes a Riverse task too.
      if (!this.#taskTools.has(tool)) {
        this.#taskTools.add(tool);
        this.#options.onChange();
      }
      return await callAsTask(
        {
          client,
          capabilities: this.#capabilities(),
          server: this.name,
          signal,
          timeoutMs,
          ...(progress === undefined ? {} : { progress }),
          ...(reports.channel === undefined ? {} : { channel: reports.channel }),
        },
        tool,
        args,
      );
    }
  }

  #capabilities(): Record<string, unknown> {
    return this.#options.canAsk ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {};
  }

  async #sdkCall(
    client: Client,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    timeoutMs: number,
    progress: ReportProgress | undefined,
  ): Promise<CallToolResult> {
    return (await client.callTool(
      { name: tool, arguments: args },
      {
        signal,
        timeout: timeoutMs + 1_000,
        // The server's progress reaches the call's (checked and throttled there); a wrong one is dropped.
        ...(progress === undefined
          ? {}
          : {
              onprogress: (report: { progress: number; total?: number; message?: string }) => {
                try {
                  progress(report.progress, report.total, report.message);
                } catch {
                  // Not a progress report Riverse passes on.
                }
              },
            }),
      },
    )) as CallToolResult;
  }

  /** A server's log line (`notifications/message`), to every call it has in flight. */
  #serverLog(params: { level: string; data?: unknown; logger?: string }): void {
    const text = typeof params.data === 'string' ? params.data : (JSON.stringify(params.data) ?? '');
    const line = params.logger === undefined ? text : `${params.logger}: ${text}`;
    for (const log of this.#logListeners) {
      try {
        log(params.level as ReportLevel, line);
      } catch {
        // Not a line Riverse passes on (an unknown level).
      }
    }
  }

  #renewSession(): Promise<void> {
    this.#renewing ??= (async () => {
      const old = this.#client;
      this.#client = undefined;
      this.#state = 'starting';
      // Closing the old client must not count as the server going away.
      await old?.close().catch(() => {});
      await this.#connect();
    })().finally(() => (this.#renewing = undefined));
    return this.#renewing;
  }

  /**
   * The server asked for a sign-in (a 401 nothing could refresh, or a 403 for more scopes): waits
   * for the person to open the link and come back, then trades the code for tokens on the transport
   * that was refused. False when no sign-in is under way, or it failed.
   */
  async #signedIn(signal?: AbortSignal): Promise<boolean> {
    const state = signIns.stateOf(this.name);
    const transport = this.#http;
    if (state === undefined || transport === undefined) return false;
    try {
      await transport.finishAuth(await signIns.wait(state, signal));
      return true;
    } catch (error) {
      this.#reason = `the sign-in did not finish: ${describeError(error)}`;
      return false;
    }
  }

  #failure(error: unknown): ToolFailure {
    if (error instanceof ToolFailure) return error;
    if (isUnauthorized(error))
      return new ToolFailure(
        'mcp-protocol-error',
        `${this.name} needs a sign-in that did not happen: ${this.#reason ?? describeError(error)}`,
      );
    if (error instanceof ProtocolError)
      return new ToolFailure('mcp-protocol-error', `${this.name} refused the call: ${error.message}`);
    if (error instanceof SdkError) {
      if (error.code === SdkErrorCode.RequestTimeout)
        return new ToolFailure('timeout', `${this.name} did not answer in time: ${error.message}`);
      if (
        error.code === SdkErrorCode.ConnectionClosed ||
        error.code === SdkErrorCode.NotConnected ||
        error.code === SdkErrorCode.SendFailed
      ) {
        return new ToolFailure(
          'mcp-disconnected',
          `${this.name} went away during the call${this.#stderrNote()}: ${error.message}`,
        );
      }
      return new ToolFailure('mcp-protocol-error', `${this.name}: ${error.message}`);
    }
    // Not the protocol's: the network's (an HTTP server that went down). It is reconnected like a stdio server that exited.
    const why = `${this.name} could not be reached: ${describeError(error)}`;
    const client = this.#client;
    if (client !== undefined) {
      this.#lost(why);
      void client.close().catch(() => {});
    }
    return new ToolFailure('mcp-disconnected', why);
  }

  async #connect(): Promise<void> {
    if (this.#state === 'closed') return;
    let transport: Transport | undefined;
    let client: Client | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      transport = this.#transport();
      const created = new Client(
        { name: 'riverse', version: '0.1.0' },
        {
          // Form and URL mode, defaults filled by the SDK; only where a person can be asked (else every request would be declined).
          capabilities: this.#capabilities(),
          // The newest revision when the server speaks it; the 2025 handshake otherwise.
          versionNegotiation: { mode: 'auto', probe: { timeoutMs: 5_000 } },
          listChanged: { tools: { onChanged: (error, tools) => this.#listed(created, error, tools) } },
        },
      );
      client = created;
      created.setNotificationHandler('notifications/message', (notification) => this.#serverLog(notification.params));
      if (this.#options.canAsk)
        created.setRequestHandler('elicitation/create', async (request) => {
          const channel = this.#channels.at(-1);
          // No call under way that can ask (a /v1 request, riverse ask): declined, nothing sent.
          if (channel === undefined) return { action: 'decline' as const };
          return await elicit(this.name, request.params, channel);
        });
      this.#pending = { transport, client };
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer to the handshake within ${CONNECT_TIMEOUT_MS / 1000} s`)),
          CONNECT_TIMEOUT_MS,
        );
      });
      timedOut.catch(() => {}); // only raced: it must not become an unhandled rejection once the race is over
      await Promise.race([created.connect(transport), timedOut]);
      const { tools } = await Promise.race([created.listTools(), timedOut]);
      if (this.#closed) return void (await created.close().catch(() => {}));
      this.#client = created;
      this.#tools = this.#allowed(tools);
      this.#state = 'connected';
      this.#reason = undefined;
      this.#failures = 0;
      this.#signInsInARow = 0;
      // Set after connect: the client's own handlers are in place by then. Called when a stdio server exits, an HTTP stream ends for good, or we close.
      const closed = transport.onclose;
      transport.onclose = () => {
        closed?.();
        if (this.#client === created) this.#lost(`it stopped${this.#stderrNote()}`);
      };
      this.#options.onChange();
    } catch (error) {
      await client?.close().catch(() => {});
      await transport?.close().catch(() => {});
      if (this.#closed) return;
      if (isUnauthorized(error) && signIns.stateOf(this.name) !== undefined) {
        if (++this.#signInsInARow > MAX_SIGN_INS_IN_A_ROW) {
          signIns.cancel(this.name);
          this.#signInsInARow = 0;
          this.#failures = Math.max(this.#failures, Math.ceil(Math.log2(MAX_RETRY_MS / FIRST_RETRY_MS)));
          return this.#lost(
            `it still refuses the connection after ${MAX_SIGN_INS_IN_A_ROW} sign-ins in a row (${describeError(error)}); check the scopes it asks for`,
          );
        }
        // Not a failure: the server waits for the person. The link is out; the connection is tried again once they are back.
        this.#state = 'retrying';
        this.#reason = renderPhrase(mcpPhrase('mcp.sign-in.waiting', { server: this.name }), 'en');
        this.#options.onChange();
        void this.#signedIn().then((signed) => {
          if (this.#closed) return;
          if (signed) void this.#connect();
          else this.#lost(this.#reason ?? 'the sign-in did not finish');
        });
        return;
      }
      this.#lost(`${describeError(error)}${this.#stderrNote()}`);
    } finally {
      clearTimeout(timer);
      this.#pending = undefined;
    }
  }

  /** The tools the server listed again (tools/list_changed): the registry follows at once. */
  #listed(client: Client, error: Error | null, tools: Tool[] | null): void {
    if (this.#client !== client || this.#state !== 'connected') return;
    if (error !== null || tools === null) return; // the last good list stays; the next change lists again
    this.#tools = this.#allowed(tools);
    this.#options.onChange();
  }

  /** Gone (or never came): its tools stay known but unavailable, and it is tried again after a pause that grows. */
  #lost(reason: string): void {
    if (this.#state === 'closed') return;
    this.#client = undefined;
    this.#state = 'retrying';
    this.#reason = reason;
    const delay = Math.min(FIRST_RETRY_MS * 2 ** this.#failures, MAX_RETRY_MS);
    this.#failures++;
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => void this.#connect(), delay);
    this.#retry.unref();
    this.#options.onChange();
  }

  #transport(): Transport {
    const { settings } = this;
    if (transportOf(settings) === 'http') {
      if (this.#auth === null)
        this.#auth = transportAuth(this.name, settings, this.#options.dataDir, this.#options.tokens);
      const auth = this.#auth;
      this.#http = new StreamableHTTPClientTransport(new URL(settings.url!), {
        requestInit: { headers: settings.headers ?? {} },
        ...(auth === undefined ? {} : { authProvider: auth.authProvider }),
        ...(auth?.fetch === undefined ? {} : { fetch: auth.fetch }),
      });
      return this.#http;
    }
    this.#stderr = [];
    const transport = new StdioClientTransport({
      command: settings.command!,
      args: settings.args ?? [],
      // Claude Desktop's rule: the server gets a plain environment (PATH, HOME…) plus its own env, not Riverse's secrets.
      env: { ...getDefaultEnvironment(), ...settings.env },
      ...(settings.cwd === undefined ? {} : { cwd: resolve(this.#options.baseDir, settings.cwd) }),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim() !== '') this.#stderr.push(line.slice(0, STDERR_LINE_CHARS));
      this.#stderr.splice(0, Math.max(0, this.#stderr.length - STDERR_LINES));
    });
    return transport;
  }

  #stderrNote(): string {
    const last = this.#stderr.at(-1);
    return last === undefined ? '' : ` (its last words on stderr: ${last.trim()})`;
  }

  #allowed(tools: Tool[]): Tool[] {
    const { allow_tools: allow, deny_tools: deny } = this.settings;
    return tools.filter(
      (tool) => (allow === undefined || allow.includes(tool.name)) && !(deny ?? []).includes(tool.name),
    );
  }
}

function isUnauthorized(error: unknown): boolean {
  return error instanceof UnauthorizedError || (error as { cause?: unknown })?.cause instanceof UnauthorizedError;
}

function isForgottenSession(error: unknown): boolean {
  return error instanceof SdkHttpError && error.status === 404;
}

function describeError(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  const message =
    error instanceof Error ? `${error.message}${cause instanceof Error ? ` (${cause.message})` : ''}` : String(error);
  if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') return `its command was not found (${message})`;
  return message;
}
