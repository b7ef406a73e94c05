import type { ApprovalSetting } from '../tools/approval-policy.ts';

/**
 * `mcp:` in riverse.yaml: the MCP servers whose tools join the registry. `servers` takes the shape of
 * Claude Desktop's and Cursor's `mcpServers` (a stdio `command` with `args`, `env`, `cwd`; or a
 * streamable HTTP `url` with `headers`), so that a user can paste theirs; `${ENV}` works in every
 * value, as everywhere in the file.
 */
export interface McpConfig {
  mcp?: McpSettings | null;
}

export interface McpSettings {
  /** False: no server is started (default true). */
  enabled?: boolean;
  /** How long start-up waits for the servers, together, before going on without the slow ones (default 5 s). */
  startup_timeout_ms?: number;
  servers?: Record<string, McpServerSettings | null>;
}

export const MCP_TRANSPORTS = ['stdio', 'http', 'streamable-http'] as const;

export interface McpServerSettings {
  /** Left out: `stdio` with a `command`, `http` with a `url`. `streamable-http` is another name for `http`. */
  type?: (typeof MCP_TRANSPORTS)[number];
  command?: string;
  args?: string[];
  /** Added to the environment the server starts with (Riverse's own minus secrets-free defaults: see stdio-transport). */
  env?: Record<string, string>;
  /** The server's working folder, relative to the config file's folder. */
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /** False: this server is not started (default true). */
  enabled?: boolean;
  /** Each call's time limit (default: tools.timeout_ms, else 30 s). */
  timeout_ms?: number;
  /** Only these of its tools (by the server's names) join the registry. */
  allow_tools?: string[];
  /** These of its tools (by the server's names) do not. */
  deny_tools?: string[];
  /**
   * Whether a person must approve each call of its tools (`always`, `never`, or a rule on a
   * parameter). Left out: a tool the server marks `destructiveHint: true` needs approval, the rest
   * do not. `tools.<server>__<tool>.approval` overrides it for one tool.
   */
  approval?: ApprovalSetting;
  /** How Riverse signs in to an HTTP server that asks (OAuth 2.1); `false`: never (a 401 is a failure). */
  oauth?: McpOAuthSettings | false;
}

/** `oauth:` of one HTTP server. Left out: a person signs in through a link when the server asks, with dynamic registration. */
export interface McpOAuthSettings {
  /**
   * `authorization_code` (default: a person signs in); without a person: `client_credentials`
   * (Riverse's own secret or private key), `cross_app_access` (an enterprise IdP's ID token),
   * `jwt_bearer` (a workload's own JWT).
   */
  grant?: (typeof MCP_OAUTH_GRANTS)[number];
  /** A client registered beforehand with the server's authorization server (then no registration is made). */
  client_id?: string;
  client_secret?: string;
  /** An https URL where Riverse's client metadata document is published: its client id where the authorization server takes such documents. */
  client_metadata_url?: string;
  /** The scopes to ask for when neither the server's challenge nor its metadata names them. */
  scope?: string;
  /** For `client_credentials` with `private_key_jwt`: the PEM private key (e.g. `${MY_KEY}`), and its algorithm (default RS256). */
  private_key?: string;
  signing_algorithm?: string;
  /** For `jwt_bearer`: the workload's JWT (e.g. `${WORKLOAD_TOKEN}`). */
  assertion?: string;
  /** For `cross_app_access`: the enterprise IdP's token endpoint, Riverse's client id there, and the person's ID token from it. */
  idp_token_endpoint?: string;
  idp_client_id?: string;
  id_token?: string;
}

export const MCP_OAUTH_GRANTS = ['authorization_code', 'client_credentials', 'cross_app_access', 'jwt_bearer'] as const;

export const DEFAULT_STARTUP_TIMEOUT_MS = 5_000;

/** A server's transport as its settings say. */
export function transportOf(settings: McpServerSettings): 'stdio' | 'http' {
  if (settings.type === 'http' || settings.type === 'streamable-http') return 'http';
  if (settings.type === 'stdio') return 'stdio';
  return settings.url !== undefined ? 'http' : 'stdio';
}

/** The servers to start: every one of `mcp.servers` not switched off, none when `mcp.enabled` is false. */
export function enabledServers(config: McpConfig): Array<[string, McpServerSettings]> {
  if (config.mcp?.enabled === false) return [];
  return Object.entries(config.mcp?.servers ?? {}).filter(
    (entry): entry is [string, McpServerSettings] => entry[1] !== null && entry[1].enabled !== false,
  );
}
