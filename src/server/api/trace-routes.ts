import { Hono } from 'hono';
import { MAX_TRACES, MAX_TURN_TRACES, type TraceQuery, type TurnTraceQuery } from '../../store/store-records.ts';
import { MAX_STAT_BUCKETS, type ToolStatsQuery } from '../../store/tool-call-stats.ts';
import { ApiError } from '../api-error.ts';
import { wholeNumberParam } from './whole-number-param.ts';
import type { ServerContext } from '../server-context.ts';

/**
 * `GET /api/traces`: the tool calls of every session, newest first, filtered. `GET
 * /api/traces/turns`: the turns' traces (a tree each), filtered; `GET /api/traces/:id`: one whole.
 * `GET /api/traces/tools`: per tool, calls over time with p50/p95 run time and failures (the charts).
 */
export function traceRoutes(context: ServerContext): Hono {
  const routes = new Hono();
  routes.get('/traces', async (c) => c.json({ traces: await context.store.traces(traceQuery(c.req.query())) }));
  routes.get('/traces/turns', async (c) =>
    c.json({ traces: await context.store.turnTraces.list(turnQuery(c.req.query())) }),
  );
  routes.get('/traces/tools', async (c) => c.json(await context.store.toolStats(statsQuery(c.req.query()))));
  routes.get('/traces/:id', async (c) => {
    const id = c.req.param('id');
    const trace = id === 'last' ? await context.store.turnTraces.last() : await context.store.turnTraces.get(id);
    if (trace === undefined)
      throw new ApiError(404, 'trace-not-found', `No turn has a trace with the id ${JSON.stringify(id)}.`);
    return c.json({ trace });
  });
  return routes;
}

/** The query string as a TraceQuery; a value that cannot be one is a 400 naming it. */
function traceQuery(query: Record<string, string>): TraceQuery {
  const result: TraceQuery = { ...commonFilters(query, MAX_TRACES) };
  for (const key of ['tool', 'session'] as const)
    if (query[key] !== undefined && query[key] !== '') result[key] = query[key];
  return result;
}

/** The query string as a TurnTraceQuery (the same filters, and `turn`, `byHand`). */
function turnQuery(query: Record<string, string>): TurnTraceQuery {
  const result: TurnTraceQuery = { ...commonFilters(query, MAX_TURN_TRACES) };
  for (const key of ['tool', 'session', 'turn'] as const)
    if (query[key] !== undefined && query[key] !== '') result[key] = query[key];
  const { byHand } = query;
  if (byHand !== undefined && byHand !== '') {
    if (byHand !== 'true' && byHand !== 'false')
      throw new ApiError(
        400,
        'invalid-request',
        `"byHand" must be true or false, not ${JSON.stringify(byHand)}`,
        'byHand',
      );
    result.byHand = byHand === 'true';
  }
  return result;
}

/** The query string as a ToolStatsQuery: since, until, tool, buckets. */
function statsQuery(query: Record<string, string>): ToolStatsQuery {
  const { since, until } = commonFilters({ since: query.since ?? '', until: query.until ?? '' }, 0);
  const result: ToolStatsQuery = {
    ...(since === undefined ? {} : { since }),
    ...(until === undefined ? {} : { until }),
  };
  if (query.tool !== undefined && query.tool !== '') result.tool = query.tool;
  const buckets = wholeNumberParam('buckets', query.buckets, 1, MAX_STAT_BUCKETS);
  if (buckets !== undefined) result.buckets = buckets;
  return result;
}

/** outcome, since, until and limit, read alike for both lists. */
function commonFilters(
  query: Record<string, string>,
  max: number,
): Pick<TraceQuery, 'outcome' | 'since' | 'until' | 'limit'> {
  const result: Pick<TraceQuery, 'outcome' | 'since' | 'until' | 'limit'> = {};
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
  const count = wholeNumberParam('limit', limit, 0, max);
  if (count !== undefined) result.limit = count;
  return result;
}
