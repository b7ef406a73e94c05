import { randomBytes } from 'node:crypto';
import type { TraceProgress, TracePart } from './trace-parts.ts';

/**
 * One turn as a tree of spans, as the store keeps it (src/store/trace-store.ts) and the API and
 * `riverse trace` show it. The shape is what a waterfall and an OpenTelemetry exporter both need:
 * ids and parent ids, start and end in ms since the epoch, a kind, and attributes named after the
 * OpenTelemetry GenAI conventions where they name the thing (`gen_ai.*`), Riverse's own (`riverse.*`) else.
 */
export type SpanKind = 'turn' | 'routing' | 'model-request' | 'tool-call' | 'approval';

export type SpanAttribute = string | number | boolean | string[];

export interface TraceSpan {
  /** 16 hex digits, unique in its trace (an OpenTelemetry span id). */
  spanId: string;
  /** The span it belongs under; none for the turn. */
  parentId?: string;
  kind: SpanKind;
  /** `invoke_agent`, `chat {model}`, `execute_tool {tool}`, `route_tools`, `approval {tool}`. */
  name: string;
  /** Milliseconds since the epoch, to a tenth. */
  startMs: number;
  endMs: number;
  status: 'ok' | 'error';
  /** A stable code when it failed: the ModelError's, the tool result's, the turn's. */
  errorCode?: string;
  attributes: Record<string, SpanAttribute>;
  /** A tool call's result parts, bytes capped (trace-parts.ts). */
  parts?: TracePart[];
  /** A tool call's progress updates, bounded in count (trace-parts.ts). */
  progress?: TraceProgress[];
}

/** How a turn's trace came to be: a turn of the assistant, or a tool run by hand. */
export type HandRunVia = 'cli' | 'api';

export interface TurnTrace {
  /** The turn's id (the messages' `turn_id`). */
  id: string;
  /** 32 hex digits (an OpenTelemetry trace id). */
  traceId: string;
  sessionId: string;
  /** Set for a tool run by hand (`riverse tools run`, the dashboard's form, the API's run route). */
  byHand?: HandRunVia;
  /** ISO 8601. */
  startedAt: string;
  durationMs: number;
  outcome: 'success' | 'failure';
  /** The turn's stop reason (`answer`, `error`, …); a hand run's is `answer` or `error`. */
  stopReason: string;
  /** The tools called, in order of first call. */
  tools: string[];
  /** The turn's span first, then the others in the order they started. */
  spans: TraceSpan[];
}

/** Random bytes drawn ahead, a few thousand ids' worth: an id a span is too often for a call to the system each. */
let pool = Buffer.alloc(0);
let used = 0;

/** Random hex ids of `bytes` bytes (8 for a span, 16 for a trace), never all zeros. */
export function traceHex(bytes: number): string {
  if (used + bytes > pool.length) {
    pool = randomBytes(4_096);
    used = 0;
  }
  pool[used] = pool[used]! | 1;
  const id = pool.toString('hex', used, used + bytes);
  used += bytes;
  return id;
}
