import type { TraceContext } from '../core/trace-context.ts';
import type { TurnTrace } from '../store/turn-trace.ts';

/** What a turn's trace is sent out with, beside the tree the store keeps. */
export interface TurnExtras {
  /** The caller's span the turn ran under (a `traceparent` that came with the request). */
  parent?: TraceContext;
  /** Messages and arguments by span id (GenAI attribute names), only when content is captured. */
  content?: ReadonlyMap<string, Record<string, string>>;
}

/**
 * The seam between a turn and OpenTelemetry: the turn hands its finished trace over, the export
 * (otlp-export.ts, loaded only when telemetry is on) maps it to OTel spans and queues them. Never
 * throws, never waits: a turn does not notice a collector that is down.
 */
export interface TurnExport {
  /** Messages and arguments are to be recorded (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT). */
  readonly captureContent: boolean;
  /** Where spans go, for a person: the collector's URL and protocol, or `stderr` (the console exporter). */
  readonly destination: string;
  export(trace: TurnTrace, extras?: TurnExtras): void;
  /** Sends what is queued, waiting at most a bounded time; later exports are dropped. */
  shutdown(): Promise<void>;
}
