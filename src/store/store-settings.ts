import type { TraceRetention } from './trace-store.ts';
import type { TaskRetention } from './task-store.ts';

/** `store.traces:` in riverse.yaml: how long turn traces are kept, and how many (the oldest go first). */
export interface TraceRetentionSettings {
  /** Days a trace is kept (14). */
  max_age_days?: number;
  /** Traces kept at most (2,000). */
  max_count?: number;
}

/** `store:` in riverse.yaml: what the data folder's database keeps. */
export interface StoreSettings {
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
