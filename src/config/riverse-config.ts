import type { AssistantConfig, AssistantSettings } from '../assistant/assistant-settings.ts';
import type { ModelConfig, ModelOptions } from '../models/resolve-model.ts';
import { approvalSettingProblem, type ApprovalSetting } from '../tools/approval-policy.ts';
import { TOOLS_SETTINGS, type AppConfig, type ToolSection, type ToolsConfig } from '../tools/app-config.ts';
import type { EmbeddingsSettings, RoutingConfig, RoutingSettings } from '../routing/routing-settings.ts';
import type { SamplingRule, ServerConfig, ServerSettings, StopRule, V1Settings } from '../server/server-config.ts';
import { SAMPLING_RANGES, type NumericSamplingField } from '../models/sampling-ranges.ts';
import {
  MCP_OAUTH_GRANTS,
  MCP_TRANSPORTS,
  transportOf,
  type McpConfig,
  type McpOAuthSettings,
  type McpServerSettings,
  type McpSettings,
} from '../mcp/mcp-settings.ts';
import {
  isPostgresUrl,
  withoutPassword,
  type StoreConfig,
  type StoreSettings,
  type TaskRetentionSettings,
  type TraceRetentionSettings,
} from '../store/store-settings.ts';
import type { TelemetryConfig, TelemetrySettings } from '../telemetry/telemetry-settings.ts';
import type { Phrase } from '../core/phrase.ts';
import { phrase } from './config-phrases.ts';
import { phrase as manifestPhrase } from '../tool-runtime/runtime-phrases.ts';
import { LANGUAGES } from '../core/language.ts';
import {
  checkFields,
  choice,
  expected,
  flag,
  folders,
  isMapping,
  origins,
  port,
  section,
  text,
  texts,
  timeout,
  whole,
  type Field,
  type Fields,
} from './config-fields.ts';

/**
 * riverse.yaml as Riverse reads it: what each room reads (the tool contract's `tools:`, the model's
 * `model` and `model_options`, the assistant's `language` and `assistant`, the service's `server`),
 * and where data is kept.
 * Tool sections and keys Riverse does not know stay free-form, as tools see them (AppConfig).
 */
export interface RiverseConfig
  extends AppConfig,
    ModelConfig,
    AssistantConfig,
    RoutingConfig,
    ServerConfig,
    McpConfig,
    TelemetryConfig,
    StoreConfig {
  /** Where sessions and downloaded models are kept, relative to the config file's folder. */
  data_dir?: string;
}

const ISOLATION = choice(['process', 'worker', 'none']);
/** A worker's heap limit: too small a limit aborts the whole process, not just the worker. */
const MEMORY_MB = whole(16, phrase('config.unit.megabytes'));

/** `allow`, `ignore`, `{ min, max }` or `{ pin }` for one sampling field of /v1, within the field's bounds. */
function samplingRule(field: NumericSamplingField): Field<SamplingRule> {
  const range = SAMPLING_RANGES[field];
  const fits = (n: unknown) =>
    typeof n === 'number' && n >= range.min && n <= range.max && (!range.whole || Number.isInteger(n));
  const show = (n: number) => (Math.abs(n) === Number.MAX_SAFE_INTEGER ? (n < 0 ? '-∞' : '∞') : String(n));
  const bounds = { min: show(range.min), max: show(range.max) };
  const kind = phrase(range.whole ? 'config.kind.sampling-rule-whole' : 'config.kind.sampling-rule', bounds);
  return {
    check(value, path, problem) {
      if (value === 'allow' || value === 'ignore') return;
      if (isMapping(value)) {
        const keys = Object.keys(value);
        if (keys.length === 1 && keys[0] === 'pin' && fits(value.pin)) return;
        const bounds = keys.length > 0 && keys.every((key) => (key === 'min' || key === 'max') && fits(value[key]));
        if (bounds && !(typeof value.min === 'number' && typeof value.max === 'number' && value.min > value.max))
          return;
      }
      problem(path, expected(kind, value));
    },
  };
}

const STOP_RULE: Field<StopRule> = {
  check(value, path, problem) {
    if (value === 'allow' || value === 'ignore') return;
    if (isMapping(value) && Object.keys(value).join() === 'pin' && Array.isArray(value.pin))
      if (value.pin.every((item) => typeof item === 'string' && item !== '')) return;
    problem(path, expected(phrase('config.kind.stop-rule'), value));
  },
};

/** `always`, `never` or `{ when: { param, matches } }` (approval-policy.ts). */
const APPROVAL: Field<ApprovalSetting> = {
  check(value, path, problem) {
    const found = approvalSettingProblem(value, path.join('.'));
    if (found === undefined) return;
    problem(
      path,
      found.regexError !== undefined
        ? manifestPhrase('manifest.approval-regex', { at: found.at, error: found.regexError })
        : manifestPhrase('manifest.approval-invalid', { at: found.at, got: found.got }),
    );
  },
};

const TOOL_SECTION: Field<ToolSection> = section<ToolSection>(
  { enabled: flag(), trusted: flag(), isolation: ISOLATION, memory_mb: MEMORY_MB, approval: APPROVAL },
  phrase('config.kind.tool-section'),
);

/** The settings of `tools:` (TOOLS_SETTINGS); every other key is one tool's section. */
export const TOOLS_FIELDS: Fields<ToolsConfig> = {
  enabled: flag(),
  dirs: folders(),
  builtins: flag(),
  timeout_ms: timeout(),
  max_result_chars: whole(1),
  max_result_bytes: whole(1),
  isolation: ISOLATION,
  memory_mb: MEMORY_MB,
  load_timeout_ms: timeout(),
};

const TOOLS: Field<ToolsConfig> = {
  check(value, path, problem) {
    if (value === null) return;
    if (!isMapping(value)) return problem(path, expected(phrase('config.kind.tools'), value));
    checkFields(value, TOOLS_FIELDS as Record<string, Field<unknown>>, path, problem);
    for (const [name, tool] of Object.entries(value)) {
      if (!(TOOLS_SETTINGS as readonly string[]).includes(name) && tool !== null)
        TOOL_SECTION.check(tool, [...path, name], problem);
    }
  },
};

/** Names to their values, all text (an MCP server's `env` or `headers`). */
function textMap(what: Phrase): Field<Record<string, string>> {
  return {
    check(value, path, problem) {
      if (!isMapping(value)) return problem(path, expected(phrase('config.kind.text-map', { what }), value));
      for (const [key, item] of Object.entries(value))
        if (typeof item !== 'string') problem([...path, key], expected(phrase('config.kind.quoted-text'), item));
    },
  };
}

function strings(what: Phrase): Field<string[]> {
  return {
    check: (value, path, problem) =>
      !(Array.isArray(value) && value.every((item) => typeof item === 'string')) &&
      problem(path, expected(phrase('config.kind.list', { what }), value)),
  };
}

/** `oauth:` of an HTTP server: its settings, or `false` for none. */
const MCP_OAUTH = section<McpOAuthSettings>({
  grant: choice(MCP_OAUTH_GRANTS),
  client_id: text(),
  client_secret: text(),
  client_metadata_url: text(),
  scope: text(),
  private_key: text(),
  signing_algorithm: text(),
  assertion: text(),
  idp_token_endpoint: text(),
  idp_client_id: text(),
  id_token: text(),
});

const MCP_SERVER_FIELDS: Fields<McpServerSettings> = {
  type: choice(MCP_TRANSPORTS),
  command: text(),
  args: strings(phrase('config.what.arguments')),
  env: textMap(phrase('config.what.env')),
  cwd: text(),
  url: {
    check(value, path, problem) {
      let url: URL | undefined;
      try {
        url = typeof value === 'string' ? new URL(value) : undefined;
      } catch {}
      if (url === undefined || !['http:', 'https:'].includes(url.protocol))
        problem(path, expected(phrase('config.kind.mcp-url'), value));
    },
  },
  headers: textMap(phrase('config.what.headers')),
  enabled: flag(),
  timeout_ms: timeout(),
  allow_tools: texts(phrase('config.what.tool-names')),
  deny_tools: texts(phrase('config.what.tool-names')),
  approval: APPROVAL,
  oauth: { check: (value, path, problem) => value !== false && MCP_OAUTH.check(value, path, problem) },
};

/** One server: stdio (command) or streamable HTTP (url), as Claude Desktop's and Cursor's `mcpServers` write it. */
const MCP_SERVER: Field<McpServerSettings> = {
  check(value, path, problem) {
    if (!isMapping(value)) return problem(path, expected(phrase('config.kind.mcp-server'), value));
    checkFields(value, MCP_SERVER_FIELDS as Record<string, Field<unknown>>, path, problem);
    const transport = transportOf(value as McpServerSettings);
    if (transport === 'stdio' && value.command === undefined)
      problem(
        path,
        value.url !== undefined
          ? phrase('config.mcp.takes-command', { type: String(value.type) })
          : phrase('config.mcp.needs-command'),
      );
    if (transport === 'http' && value.url === undefined)
      problem(
        path,
        value.command !== undefined
          ? phrase('config.mcp.takes-url', { type: String(value.type) })
          : phrase('config.mcp.needs-url'),
      );
    if (value.command !== undefined && value.url !== undefined) problem(path, phrase('config.mcp.both'));
  },
};

const MCP: Field<McpSettings> = section<McpSettings>({
  enabled: flag(),
  startup_timeout_ms: timeout(),
  servers: {
    check(value, path, problem) {
      if (!isMapping(value)) return problem(path, expected(phrase('config.kind.mcp-servers'), value));
      for (const [name, server] of Object.entries(value))
        if (server !== null) MCP_SERVER.check(server, [...path, name], problem);
    },
  },
});

/**
 * The one description of riverse.yaml: every key Riverse reads, with its check. Typed against
 * RiverseConfig, so a setting added to a room's type without a check here (or checked as another
 * type) does not compile.
 */
/** An OTLP endpoint: an http(s) URL. */
const HTTP_URL: Field<string> = {
  check(value, path, problem) {
    let ok = false;
    try {
      ok = typeof value === 'string' && /^https?:$/.test(new URL(value).protocol);
    } catch {}
    if (!ok) problem(path, expected(phrase('config.kind.http-url'), value));
  },
};

/** Headers, resource attributes: names to texts. */
const TEXT_MAPPING: Field<Record<string, string>> = {
  check(value, path, problem) {
    if (!isMapping(value) || !Object.values(value).every((item) => typeof item === 'string'))
      problem(path, expected(phrase('config.kind.text-mapping'), value));
  },
};

const OTLP_PROTOCOL: Field<'http/protobuf' | 'http/json'> = {
  check(value, path, problem) {
    if (value === 'grpc') problem(path, phrase('config.telemetry.grpc'));
    else choice(['http/protobuf', 'http/json']).check(value, path, problem);
  },
};

/** `telemetry:`: the OTEL_* variables' knobs (034); a key set here wins over its variable. */
const TELEMETRY = section<TelemetrySettings>({
  exporter: choice(['otlp', 'console', 'none']),
  endpoint: HTTP_URL,
  traces_endpoint: HTTP_URL,
  protocol: OTLP_PROTOCOL,
  headers: TEXT_MAPPING,
  service_name: text(),
  resource_attributes: TEXT_MAPPING,
  capture_message_content: flag(),
});

export const CONFIG_FIELDS: Fields<RiverseConfig> = {
  model: text(),
  data_dir: text(),
  language: choice(['auto', ...LANGUAGES]),
  model_options: section<ModelOptions>({
    base_url: text(),
    api_key: text(),
    tool_calling: choice(['native', 'text']),
    strict_tools: flag(),
    timeout_ms: timeout(),
    max_retries: whole(0),
    max_reply_chars: whole(1),
    max_tool_call_chars: whole(1),
    vision: flag(),
  }),
  assistant: section<AssistantSettings>({
    max_rounds: whole(1),
    history_tokens: whole(1),
    turn_timeout_ms: timeout(),
    approval_timeout_ms: timeout(),
    max_parallel_calls: whole(1),
  }),
  routing: section<RoutingSettings>({
    max_tool_tokens: whole(1, phrase('config.unit.tokens')),
    max_tools: whole(1, phrase('config.unit.tools')),
    pinned: texts(phrase('config.what.tool-names')),
    embeddings: section<EmbeddingsSettings>({
      model: text(),
      base_url: text(),
      api_key: text(),
      timeout_ms: timeout(),
    }),
  }),
  tools: TOOLS,
  server: section<ServerSettings>({
    host: text(),
    port: port(),
    token: text(),
    allowed_hosts: texts(phrase('config.what.host-names')),
    cors_origins: origins(),
    max_body_bytes: whole(1, phrase('config.unit.bytes')),
    header_timeout_ms: timeout(),
    body_timeout_ms: timeout(),
    v1_approvals: choice(['deny', 'allow', 'ask']),
    v1: section<V1Settings>({
      temperature: samplingRule('temperature'),
      top_p: samplingRule('top_p'),
      max_tokens: samplingRule('max_tokens'),
      stop: STOP_RULE,
      seed: samplingRule('seed'),
      presence_penalty: samplingRule('presence_penalty'),
      frequency_penalty: samplingRule('frequency_penalty'),
    }),
  }),
  mcp: MCP,
  telemetry: TELEMETRY,
  store: section<StoreSettings>({
    url: {
      check(value, path, problem) {
        // Said without its password: the message goes to a terminal, a log.
        if (typeof value !== 'string' || !isPostgresUrl(value))
          problem(
            path,
            expected(phrase('config.kind.postgres-url'), typeof value === 'string' ? withoutPassword(value) : value),
          );
      },
    },
    pool_max: whole(1, phrase('config.unit.connections')),
    traces: section<TraceRetentionSettings>({
      max_age_days: whole(1, phrase('config.unit.days')),
      max_count: whole(1, phrase('config.unit.traces')),
    }),
    tasks: section<TaskRetentionSettings>({
      max_age_days: whole(1, phrase('config.unit.days')),
      max_count: whole(1, phrase('config.unit.tasks')),
    }),
  }),
};
