import type { Language } from '../core/language.ts';
import { telemetryPlan, type TelemetrySettings } from './telemetry-settings.ts';
import type { TurnExport } from './turn-export.ts';

/** The export this process started, to be shut down (with its last spans sent) before it ends. */
let started: TurnExport | undefined;

/**
 * The OpenTelemetry export riverse.yaml's `telemetry:` and the OTEL_* variables ask for, or
 * undefined when they ask for none. Off, nothing of OpenTelemetry is imported: the SDK and the
 * exporter are loaded here, at start, only when the export is on. Throws TelemetrySettingError for
 * a setting it cannot use (grpc, an exporter it lacks, an endpoint that is not a URL).
 */
export async function startTelemetry(
  settings: TelemetrySettings | null | undefined,
  options: { env?: NodeJS.ProcessEnv; language?: Language; version?: string } = {},
): Promise<TurnExport | undefined> {
  const plan = telemetryPlan(settings, options.env ?? process.env);
  if (plan === undefined) return undefined;
  if (started !== undefined) return started;
  const { createOtlpExport } = await import('./otlp-export.ts');
  started = await createOtlpExport(plan, {
    ...(options.language === undefined ? {} : { language: options.language }),
    ...(options.version === undefined ? {} : { version: options.version }),
  });
  return started;
}

/** Sends the spans still queued (waiting a bounded time) and stops the export; nothing when none was started. */
export async function stopTelemetry(): Promise<void> {
  const export_ = started;
  started = undefined;
  await export_?.shutdown();
}
