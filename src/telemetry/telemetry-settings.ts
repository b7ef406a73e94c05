import type { Language } from '../core/language.ts';
import { TELEMETRY_TEXT } from './telemetry-text.ts';

/**
 * `telemetry:` in riverse.yaml: the knobs of the standard OTEL_* variables, in riverse.yaml's words.
 * A key set here wins over its variable (034: as OpenTelemetry's declarative configuration does,
 * where the environment reaches the file through `${VAR}`); a key left out is read from the variable.
 */
export interface TelemetrySettings {
  /** `otlp`, `console` (spans printed on stderr) or `none` (OTEL_TRACES_EXPORTER). */
  exporter?: 'otlp' | 'console' | 'none';
  /** The collector's base URL; `/v1/traces` is appended (OTEL_EXPORTER_OTLP_ENDPOINT). */
  endpoint?: string;
  /** The whole URL traces are posted to (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). */
  traces_endpoint?: string;
  /** `http/protobuf` (default) or `http/json` (OTEL_EXPORTER_OTLP_PROTOCOL); grpc is refused. */
  protocol?: 'http/protobuf' | 'http/json';
  /** Headers sent with every export, e.g. an API key (OTEL_EXPORTER_OTLP_HEADERS). */
  headers?: Record<string, string>;
  /** `service.name` (OTEL_SERVICE_NAME; default `riverse`). */
  service_name?: string;
  /** More resource attributes (OTEL_RESOURCE_ATTRIBUTES). */
  resource_attributes?: Record<string, string>;
  /** Messages and tool arguments on the spans (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT; default false). */
  capture_message_content?: boolean;
}

export interface TelemetryConfig {
  telemetry?: TelemetrySettings | null;
}

/** The export as it runs: every knob resolved from riverse.yaml and the environment. */
export interface TelemetryPlan {
  exporter: 'otlp' | 'console';
  protocol: 'http/protobuf' | 'http/json';
  /** Where spans are posted. */
  url: string;
  headers: Record<string, string>;
  serviceName: string;
  resource: Record<string, string>;
  captureContent: boolean;
}

/** A setting that cannot be used: the error says which (a riverse.yaml key or a variable), what it is, what to set. */
export class TelemetrySettingError extends Error {
  override name = 'TelemetrySettingError';
  readonly localized: (language: Language) => string;
  constructor(localized: (language: Language) => string) {
    super(localized('en'));
    this.localized = localized;
  }
}

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;
const EXPORTERS = ['otlp', 'console', 'none'] as const;
const DEFAULT_BASE = 'http://localhost:4318/';

/**
 * What the export is, or undefined when it is off: off unless something asks for it (an exporter
 * named, or an endpoint set), off with `none` or OTEL_SDK_DISABLED=true. Reads text only: nothing of
 * OpenTelemetry is loaded to decide. Throws a TelemetrySettingError for a value it cannot use.
 */
export function telemetryPlan(
  settings: TelemetrySettings | null | undefined,
  env: NodeJS.ProcessEnv = process.env,
): TelemetryPlan | undefined {
  const yaml = settings ?? {};
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  if (read('OTEL_SDK_DISABLED')?.toLowerCase() === 'true' && settings?.exporter === undefined) return undefined;
  const named = yaml.exporter ?? exporterFromEnv(read('OTEL_TRACES_EXPORTER'));
  const tracesUrl =
    yaml.traces_endpoint ?? (yaml.endpoint === undefined ? read('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') : undefined);
  const baseUrl = yaml.endpoint ?? read('OTEL_EXPORTER_OTLP_ENDPOINT');
  const exporter = named ?? (tracesUrl !== undefined || baseUrl !== undefined ? 'otlp' : 'none');
  if (exporter === 'none') return undefined;
  const protocol = protocolOf(
    yaml.protocol,
    read('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? read('OTEL_EXPORTER_OTLP_PROTOCOL'),
  );
  const where =
    tracesUrl !== undefined
      ? yaml.traces_endpoint !== undefined
        ? 'telemetry.traces_endpoint'
        : 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
      : yaml.endpoint !== undefined
        ? 'telemetry.endpoint'
        : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const url = tracesUrl ?? joinUrl(baseUrl ?? DEFAULT_BASE, 'v1/traces');
  if (!isHttpUrl(url))
    throw new TelemetrySettingError((language) =>
      TELEMETRY_TEXT[language].badEndpoint(where, tracesUrl ?? baseUrl ?? ''),
    );
  const capture =
    yaml.capture_message_content ??
    read('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT')?.toLowerCase() === 'true';
  return {
    exporter,
    protocol,
    url,
    headers: {
      ...keyValues(read('OTEL_EXPORTER_OTLP_HEADERS')),
      ...keyValues(read('OTEL_EXPORTER_OTLP_TRACES_HEADERS')),
      ...yaml.headers,
    },
    serviceName:
      yaml.service_name ??
      read('OTEL_SERVICE_NAME') ??
      keyValues(read('OTEL_RESOURCE_ATTRIBUTES'))['service.name'] ??
      'riverse',
    resource: { ...keyValues(read('OTEL_RESOURCE_ATTRIBUTES')), ...yaml.resource_attributes },
    captureContent: capture,
  };
}

/** OTEL_TRACES_EXPORTER is a list; Riverse takes `otlp`, `console` and `none`, the first that is not `none` winning. */
function exporterFromEnv(value: string | undefined): TelemetryPlan['exporter'] | 'none' | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  for (const name of names)
    if (!(EXPORTERS as readonly string[]).includes(name))
      throw new TelemetrySettingError((language) => TELEMETRY_TEXT[language].badExporter('OTEL_TRACES_EXPORTER', name));
  if (names.includes('none')) return 'none';
  return names.includes('otlp') ? 'otlp' : names.includes('console') ? 'console' : undefined;
}

function protocolOf(yaml: TelemetryPlan['protocol'] | undefined, env: string | undefined): TelemetryPlan['protocol'] {
  const value = yaml ?? env ?? 'http/protobuf';
  if ((PROTOCOLS as readonly string[]).includes(value)) return value as TelemetryPlan['protocol'];
  const where = yaml !== undefined ? 'telemetry.protocol' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  throw new TelemetrySettingError((language) =>
    value === 'grpc' ? TELEMETRY_TEXT[language].grpc(where) : TELEMETRY_TEXT[language].badProtocol(where, value),
  );
}

/** `key1=value1,key2=value2`, values percent-decoded (the W3C Baggage form the OTEL_* variables use). */
function keyValues(text: string | undefined): Record<string, string> {
  const pairs: Record<string, string> = {};
  if (text === undefined) return pairs;
  for (const entry of text.split(',')) {
    const at = entry.indexOf('=');
    if (at <= 0) continue;
    const key = entry.slice(0, at).trim();
    try {
      pairs[key] = decodeURIComponent(entry.slice(at + 1).trim());
    } catch {
      pairs[key] = entry.slice(at + 1).trim();
    }
  }
  return pairs;
}

function joinUrl(base: string, path: string): string {
  return base.endsWith('/') ? `${base}${path}` : `${base}/${path}`;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
