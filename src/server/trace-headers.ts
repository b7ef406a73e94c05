import type { Context } from 'hono';
import { parseTraceparent, type TraceContext } from '../core/trace-context.ts';

/**
 * The caller's W3C trace context (`traceparent`, `tracestate`), for the turn to continue its trace;
 * nothing when there is none or it is malformed (a new trace starts, the request goes on).
 */
export function requestTraceContext(c: Context): { traceContext?: TraceContext } {
  const context = parseTraceparent(c.req.header('traceparent'), c.req.header('tracestate'));
  return context === undefined ? {} : { traceContext: context };
}
