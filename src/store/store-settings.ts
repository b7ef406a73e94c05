import type { TraceRetention } from './trace-store.ts';

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
}

export interface StoreConfig {
  store?: StoreSettings | null;
}

/** The retention riverse.yaml sets (the store's defaults fill the rest). */
export function traceRetention(config: StoreConfig): Partial<TraceRetention> {
  const traces = config.store?.traces;
  return {
    ...(traces?.max_age_days === undefined ? {} : { maxAgeDays: traces.max_age_days }),
    ...(traces?.max_count === undefined ? {} : { maxCount: traces.max_count }),
  };
}
