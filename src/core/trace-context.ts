/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` a caller sends with a
 * request (`/v1`, `/api`, an MCP call's `_meta`), read so that a turn continues the caller's trace,
 * and the one a model request carries on. Plain text work: no OpenTelemetry module is needed for it.
 */
export interface TraceContext {
  /** 32 lowercase hex digits, not all zeros. */
  traceId: string;
  /** The caller's span: 16 lowercase hex digits, not all zeros. */
  spanId: string;
  /** The caller's sampling decision (the `01` flag): a trace the caller does not sample is not exported. */
  sampled: boolean;
  /** The caller's `tracestate`, passed on as it came (at most 512 characters, else dropped). */
  traceState?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZEROS = /^0+$/;

/**
 * The context in a `traceparent` (and `tracestate`) header; undefined when there is none or it is
 * malformed, as the standard says (a bad header starts a new trace rather than failing the request).
 */
export function parseTraceparent(traceparent: unknown, tracestate?: unknown): TraceContext | undefined {
  if (typeof traceparent !== 'string' || traceparent.length > 256) return undefined;
  const match = TRACEPARENT.exec(traceparent.trim());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  // Version ff is invalid; version 00 has nothing after the flags; a later version may have more.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (ZEROS.test(traceId) || ZEROS.test(spanId)) return undefined;
  const state = typeof tracestate === 'string' ? tracestate.trim() : '';
  return {
    traceId,
    spanId,
    sampled: (Number.parseInt(flags, 16) & 1) === 1,
    ...(state !== '' && state.length <= 512 ? { traceState: state } : {}),
  };
}

/** The `traceparent` header naming `spanId` in `traceId`. */
export function formatTraceparent(traceId: string, spanId: string, sampled: boolean): string {
  return `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`;
}
