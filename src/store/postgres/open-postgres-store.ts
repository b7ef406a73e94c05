import type { Language } from '../../core/language.ts';
import type { Store, StoreOptions } from '../store.ts';
import { StoreError } from '../store-error.ts';
import { PgDatabase } from './pg-database.ts';
import {
  type ConnectRetry,
  createPgPool,
  describeError,
  type PgPoolOptions,
  redactUrl,
  waitForDatabase,
} from './pg-pool.ts';
import { migratePg } from './pg-schema.ts';
import { PostgresStore } from './postgres-store.ts';

/** What opening a PostgreSQL store takes beyond any store's options. */
export interface PostgresStoreOptions extends StoreOptions {
  /** The pool's bounds: `max` is `store.pool_max` (10). */
  pool?: PgPoolOptions;
  /** The language the retries at start are said in (the service's). */
  language?: Language;
  /** How the start waits for a database that is not up yet (1 s, 2 s, 4 s … 30 s in all). */
  retry?: Omit<ConnectRetry, 'language'>;
}

/**
 * Opens the PostgreSQL store at `url`: a bounded pool, the database waited for with back-off,
 * then migrated once under an advisory lock (replicas starting together do not race). Loaded by
 * openStore (../open-store.ts) only for a postgres URL, so that the SQLite default loads no `pg`.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  const pool = createPgPool(url, options.pool);
  try {
    await waitForDatabase(pool, url, {
      ...options.retry,
      ...(options.language === undefined ? {} : { language: options.language }),
    });
    const client = await pool.connect();
    try {
      await migratePg(client);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => {});
    if (error instanceof StoreError) throw error;
    throw new StoreError(`Preparing the PostgreSQL database at ${redactUrl(url)} failed: ${describeError(error)}`, {
      cause: error,
    });
  }
  return new PostgresStore(new PgDatabase(pool), url, options);
}
