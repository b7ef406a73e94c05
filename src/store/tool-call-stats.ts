import type { StatementSync } from 'node:sqlite';

/**
 * Per tool, its calls over a window of time: how many, how many failed, the median and 95th
 * percentile of their run time (an approval's wait is not run time), for the whole window and per
 * bucket. Read from the flat rows of `tool_calls` (a number per call, not a tree of spans per turn),
 * so that a chart of weeks costs one scan of four columns.
 */
export interface ToolStatsQuery {
  /** ISO 8601; default: seven days before `until`. The window starts at its first call when that is later. */
  since?: string;
  /** ISO 8601; default: now. */
  until?: string;
  /** Buckets in the window (1 to MAX_STAT_BUCKETS; default 24). */
  buckets?: number;
  /** Only this tool. */
  tool?: string;
}

export interface ToolStats {
  /** The window the buckets cover (ISO 8601), and each bucket's length. */
  since: string;
  until: string;
  bucketMs: number;
  /** The tools called in the window, the most called first. */
  tools: ToolSeries[];
}

export interface ToolFigures {
  calls: number;
  failures: number;
  /** Run time in ms (nearest rank); absent for a bucket without calls. */
  p50Ms?: number;
  p95Ms?: number;
}

export interface ToolSeries extends ToolFigures {
  tool: string;
  /** One per bucket, oldest first: `start` is the bucket's start (ISO 8601). */
  buckets: (ToolFigures & { start: string })[];
}

export const MAX_STAT_BUCKETS = 96;
const DEFAULT_BUCKETS = 24;
const DEFAULT_WINDOW_MS = 7 * 86_400_000;
/** Tools in one answer at most (the most called). */
const MAX_TOOLS = 50;

/** The figures of `query`'s window; `prepare` is the store's. */
export function toolCallStats(prepare: (sql: string) => StatementSync, query: ToolStatsQuery = {}): ToolStats {
  const buckets = query.buckets ?? DEFAULT_BUCKETS;
  if (!Number.isInteger(buckets) || buckets < 1 || buckets > MAX_STAT_BUCKETS)
    throw new RangeError(`buckets must be a whole number from 1 to ${MAX_STAT_BUCKETS}, not ${buckets}.`);
  const until = query.until === undefined ? Date.now() : time(query.until);
  const since = query.since === undefined ? until - DEFAULT_WINDOW_MS : time(query.since);
  const rows = prepare(
    `SELECT tool, success, duration_ms, started_at FROM tool_calls
      WHERE started_at >= ? AND started_at < ? ${query.tool === undefined ? '' : 'AND tool = ?'}`,
  ).all(
    new Date(since).toISOString(),
    new Date(until).toISOString(),
    ...(query.tool === undefined ? [] : [query.tool]),
  ) as unknown as { tool: string; success: number; duration_ms: number; started_at: string }[];
  // A window with calls only in its last hours draws them across the chart, not in its last bar.
  let first = until;
  for (const row of rows) first = Math.min(first, Date.parse(row.started_at));
  const start = rows.length === 0 ? since : Math.max(since, first);
  const bucketMs = Math.max(1, Math.ceil((until - start) / buckets));
  const byTool = new Map<string, { durations: number[]; failures: number; buckets: { d: number[]; f: number }[] }>();
  for (const row of rows) {
    let entry = byTool.get(row.tool);
    if (entry === undefined) {
      entry = { durations: [], failures: 0, buckets: Array.from({ length: buckets }, () => ({ d: [], f: 0 })) };
      byTool.set(row.tool, entry);
    }
    const index = Math.min(buckets - 1, Math.floor((Date.parse(row.started_at) - start) / bucketMs));
    const bucket = entry.buckets[index]!;
    entry.durations.push(row.duration_ms);
    bucket.d.push(row.duration_ms);
    if (row.success !== 1) {
      entry.failures++;
      bucket.f++;
    }
  }
  const tools = [...byTool]
    .map(
      ([tool, entry]): ToolSeries => ({
        tool,
        ...figures(entry.durations, entry.failures),
        buckets: entry.buckets.map((bucket, index) => ({
          start: new Date(start + index * bucketMs).toISOString(),
          ...figures(bucket.d, bucket.f),
        })),
      }),
    )
    .sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool))
    .slice(0, MAX_TOOLS);
  return {
    since: new Date(start).toISOString(),
    until: new Date(until).toISOString(),
    bucketMs,
    tools,
  };
}

function figures(durations: number[], failures: number): ToolFigures {
  if (durations.length === 0) return { calls: 0, failures: 0 };
  const sorted = durations.sort((a, b) => a - b);
  return { calls: sorted.length, failures, p50Ms: rank(sorted, 0.5), p95Ms: rank(sorted, 0.95) };
}

/** The nearest-rank percentile of sorted values. */
function rank(sorted: readonly number[], share: number): number {
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)]!;
}

function time(value: string): number {
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed)) throw new RangeError(`Not an ISO 8601 time: ${JSON.stringify(value)}.`);
  return parsed;
}
