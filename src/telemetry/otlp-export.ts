import {
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  createTraceState,
  type Attributes,
  type SpanContext,
} from '@opentelemetry/api';
import { ExportResultCode, hrTimeToMicroseconds, millisToHrTime, setGlobalErrorHandler } from '@opentelemetry/core';
import { defaultResource, resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Language } from '../core/language.ts';
import type { TraceSpan, TurnTrace } from '../store/turn-trace.ts';
import type { TelemetryPlan } from './telemetry-settings.ts';
import { TELEMETRY_TEXT } from './telemetry-text.ts';
import type { TurnExport, TurnExtras } from './turn-export.ts';

/** Spans waiting for the exporter at most (past it, new ones are dropped): a turn is some ten. */
const MAX_QUEUE = 2_048;
const BATCH = 512;
const DELAY_MS = 2_000;
/** One export's longest wait for the collector. */
const EXPORT_TIMEOUT_MS = 10_000;
/** The longest a shutdown waits for the last export. */
const SHUTDOWN_MS = 5_000;
/** An export that keeps failing is said once per this long. */
const REPORT_EVERY_MS = 5 * 60_000;

export interface OtlpExportOptions {
  /** Where a failing export is said (default: stderr), and in what language. */
  report?: (line: string) => void;
  language?: Language;
  /** Riverse's version, as the instrumentation scope's. */
  version?: string;
  /** A test's own batch delay, export timeout and shutdown bound. */
  delayMs?: number;
  exportTimeoutMs?: number;
  shutdownMs?: number;
}

/**
 * The OpenTelemetry side of a turn's trace: the official OTLP/HTTP exporter (protobuf or JSON), or
 * the console's, behind the SDK's BatchSpanProcessor (bounded queue, batches, export timeout).
 * No second tracer: each finished tree is mapped span by span to the SDK's ReadableSpan, with the
 * ids, times and GenAI attributes the store keeps, so that the collector and `riverse trace` show
 * the same trace. Imported only when telemetry is on (start-telemetry.ts).
 */
export async function createOtlpExport(plan: TelemetryPlan, options: OtlpExportOptions = {}): Promise<TurnExport> {
  const timeoutMs = options.exportTimeoutMs ?? EXPORT_TIMEOUT_MS;
  const exporter = await spanExporter(plan, timeoutMs);
  const processor = new BatchSpanProcessor({
    exporter,
    maxQueueSize: MAX_QUEUE,
    maxExportBatchSize: BATCH,
    scheduledDelayMillis: options.delayMs ?? DELAY_MS,
    exportTimeoutMillis: timeoutMs,
  });
  // The SDK's own (telemetry.sdk.*), then the settings' attributes, service.name last.
  const resource = defaultResource().merge(
    resourceFromAttributes({ ...plan.resource, [ATTR_SERVICE_NAME]: plan.serviceName }),
  );
  const scope = { name: 'riverse', ...(options.version === undefined ? {} : { version: options.version }) };
  const report = options.report ?? ((line: string) => process.stderr.write(`${line}\n`));
  const text = TELEMETRY_TEXT[options.language ?? 'en'];
  let reportedAt = Number.NEGATIVE_INFINITY;
  // Every export failure reaches the SDK's global handler: said once per REPORT_EVERY_MS, never thrown.
  setGlobalErrorHandler((error) => {
    const now = Date.now();
    if (now - reportedAt < REPORT_EVERY_MS) return;
    reportedAt = now;
    const detail = error instanceof Error ? error.message : String(error);
    report(text.exportFailed(plan.url, detail || 'export failed', REPORT_EVERY_MS / 60_000));
  });
  let closed = false;
  return {
    captureContent: plan.captureContent,
    destination: plan.exporter === 'console' ? 'stderr' : `${plan.url} (${plan.protocol})`,
    export(trace, extras) {
      // A caller that does not sample its trace is followed (the SDK's parent-based default).
      if (closed || extras?.parent?.sampled === false) return;
      try {
        for (const span of trace.spans) processor.onEnd(readableSpan(span, trace, extras, resource, scope));
      } catch {
        // a span that cannot be mapped is not a turn's problem
      }
    },
    async shutdown() {
      if (closed) return;
      closed = true;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        processor.shutdown().catch(() => {}),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, options.shutdownMs ?? SHUTDOWN_MS);
          timer.unref();
        }),
      ]);
      clearTimeout(timer);
    },
  };
}

async function spanExporter(plan: TelemetryPlan, timeoutMs: number): Promise<SpanExporter> {
  if (plan.exporter === 'console') return stderrExporter();
  const config = { url: plan.url, headers: plan.headers, timeoutMillis: timeoutMs };
  // One of the two exporters is loaded, the one the protocol names.
  if (plan.protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter(config);
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter(config);
}

/**
 * `console`: each span as a line of JSON on stderr (the SDK's ConsoleSpanExporter writes to stdout,
 * which is `riverse ask`'s answer and `riverse mcp`'s protocol).
 */
function stderrExporter(): SpanExporter {
  return {
    export(spans, done) {
      for (const span of spans) {
        const context = span.spanContext();
        process.stderr.write(
          `${JSON.stringify({
            traceId: context.traceId,
            spanId: context.spanId,
            parentSpanId: span.parentSpanContext?.spanId,
            name: span.name,
            kind: span.kind,
            timestamp: hrTimeToMicroseconds(span.startTime),
            duration: hrTimeToMicroseconds(span.duration),
            status: span.status,
            attributes: span.attributes,
          })}\n`,
        );
      }
      done({ code: ExportResultCode.SUCCESS });
    },
    shutdown: () => Promise.resolve(),
  };
}

const SAMPLED = TraceFlags.SAMPLED;

function readableSpan(
  span: TraceSpan,
  trace: TurnTrace,
  extras: TurnExtras | undefined,
  resource: Resource,
  scope: { name: string; version?: string },
): ReadableSpan {
  const parent = extras?.parent;
  const traceState = parent?.traceState === undefined ? undefined : createTraceState(parent.traceState);
  const own: SpanContext = {
    traceId: trace.traceId,
    spanId: span.spanId,
    traceFlags: SAMPLED,
    ...(traceState === undefined ? {} : { traceState }),
  };
  const parentContext: SpanContext | undefined =
    span.parentId !== undefined
      ? { traceId: trace.traceId, spanId: span.parentId, traceFlags: SAMPLED }
      : parent !== undefined
        ? { traceId: parent.traceId, spanId: parent.spanId, traceFlags: SAMPLED, isRemote: true }
        : undefined;
  const attributes: Attributes = { ...span.attributes, ...extras?.content?.get(span.spanId) };
  // The conventions' fallback for a failure without a code of its own (a tool's plain `ToolResult.fail`).
  if (span.status === 'error') attributes['error.type'] ??= span.errorCode ?? '_OTHER';
  if (span.kind === 'turn') {
    attributes['gen_ai.agent.name'] = 'riverse';
    attributes['gen_ai.conversation.id'] = trace.sessionId;
    attributes['session.id'] = trace.sessionId;
    attributes['riverse.turn.id'] = trace.id;
  }
  const durationMs = Math.max(0, span.endMs - span.startMs);
  return {
    name: span.name,
    kind: span.kind === 'model-request' ? SpanKind.CLIENT : SpanKind.INTERNAL,
    spanContext: () => own,
    ...(parentContext === undefined ? {} : { parentSpanContext: parentContext }),
    startTime: millisToHrTime(span.startMs),
    endTime: millisToHrTime(span.endMs),
    duration: millisToHrTime(durationMs),
    // As the conventions say: an error is the status with its code (`error.type` is in the attributes); success is left unset.
    status:
      span.status === 'error'
        ? { code: SpanStatusCode.ERROR, ...(span.errorCode === undefined ? {} : { message: span.errorCode }) }
        : { code: SpanStatusCode.UNSET },
    attributes,
    links: [],
    events: [],
    ended: true,
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
