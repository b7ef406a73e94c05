import { Hono } from 'hono';
import { MAX_TRACES, type TraceQuery } from '../../store/session-store.ts';
import { ApiError } from '../api-error.ts';
import type { ServerContext } from '../server-context.ts';

/** `GET /api/traces`: the tool calls of every session, newest first, filtered. */
export function traceRoutes(context: ServerContext): Hono {
  const routes = new Hono();
  routes.get('/traces', (c) => c.json({ traces: context.store.traces(traceQuery(c.req.query())) }));
  return routes;
}

/** The query string as a TraceQuery; a value that cannot be one is a 400 naming it. */
function traceQuery(query: Record<string, string>): TraceQuery {
  const result: TraceQuery = {};
  for (const key of ['tool', 'session'] as const)
    if (query[key] !== undefined && query[key] !== '') result[key] = query[key];
  const { outcome, since, until, limit } = query;
  if (outcome !== undefined && outcome !== '') {
    if (outcome !== 'success' && outcome !== 'failure')
      throw new ApiError(
        400,
        'invalid-request',
        `"outcome" must be success or failure, not ${JSON.stringify(outcome)}`,
        'outcome',
      );
    result.outcome = outcome;
  }
  for (const [key, value] of [
    ['since', since],
    ['until', until],
  ] as const) {
    if (value === undefined || value === '') continue;
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(Date.parse(value)))
      throw new ApiError(
        400,
        'invalid-request',
        `"${key}" must be an ISO 8601 time such as 2026-01-31T12:00:00Z, not ${JSON.stringify(value)}`,
        key,
      );
    result[key] = value;
  }
  if (limit !== undefined && limit !== '') {
    const number = Number(limit);
    if (!/^\d+$/.test(limit) || number > MAX_TRACES)
      throw new ApiError(
        400,
        'invalid-request',
        `"limit" must be a whole number from 0 to ${MAX_TRACES}, not ${JSON.stringify(limit)}`,
        'limit',
      );
    result.limit = number;
  }
  return result;
}
