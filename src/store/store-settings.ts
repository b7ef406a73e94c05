import type { TaskRetention, TraceRetention } from './store-records.ts';

/** `store.traces:` in riverse.yaml: how long turn traces are kept, and how many (the oldest go first). */
export interface TraceRetentionSettings {
  /** Days a trace is kept (14). */
  max_age_days?: number;
  /** Traces kept at most (2,000). */
  max_count?: number;
}

/** `store:` in riverse.yaml: which database, and what it keeps. */
export interface StoreSettings {
  /** A PostgreSQL database shared by replicas (`postgres://…`); RIVERSE_DATABASE_URL wins over it. Absent: SQLite in the data folder. */
  url?: string;
  /** PostgreSQL: connections each replica keeps to it at most (10; decision 038). */
  pool_max?: number;
  traces?: TraceRetentionSettings | null;
  tasks?: TaskRetentionSettings | null;
}

/** `store.tasks:` in riverse.yaml: how long ended tasks are kept (a task's own `ttlMs` wins), and how many. */
export interface TaskRetentionSettings {
  /** Days an ended task is kept (7). */
  max_age_days?: number;
  /** Ended tasks kept at most (1,000). */
  max_count?: number;
}

export interface StoreConfig {
  store?: StoreSettings | null;
}

/** The tasks' retention riverse.yaml sets (the store's defaults fill the rest). */
export function taskRetention(config: StoreConfig): Partial<TaskRetention> {
  const tasks = config.store?.tasks;
  return {
    ...(tasks?.max_age_days === undefined ? {} : { ttlMs: tasks.max_age_days * 24 * 60 * 60 * 1000 }),
    ...(tasks?.max_count === undefined ? {} : { maxEnded: tasks.max_count }),
  };
}

/** The retention riverse.yaml sets (the store's defaults fill the rest). */
export function traceRetention(config: StoreConfig): Partial<TraceRetention> {
  const traces = config.store?.traces;
  return {
    ...(traces?.max_age_days === undefined ? {} : { maxAgeDays: traces.max_age_days }),
    ...(traces?.max_count === undefined ? {} : { maxCount: traces.max_count }),
  };
}

/** A URL the PostgreSQL store takes: `postgres://` or `postgresql://`, parseable. */
export function isPostgresUrl(value: string): boolean {
  if (!/^postgres(ql)?:\/\//i.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** A URL as it may be shown: its password replaced by `***`. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}
