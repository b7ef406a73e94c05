import pg from 'pg';
import { StoreError } from '../store-error.ts';
import { describeError } from './pg-pool.ts';

/** What a statement is given: pg's values. */
export type PgValue = string | number | boolean | null | Buffer;

/** One connection's way to run statements: the pool's (each on any free connection) or a transaction's. */
export interface PgQueries {
  rows<Row>(sql: string, params?: readonly PgValue[]): Promise<Row[]>;
  /** Rows changed. */
  run(sql: string, params?: readonly PgValue[]): Promise<number>;
}

/**
 * The pool as the store's parts use it: every failure (the database gone mid-turn, a statement past
 * its timeout) comes out as the StoreError the turn maps to `store-failed`, saying what was being
 * done. A connection that failed is destroyed, not given back, so the pool heals when the database
 * returns.
 */
export class PgDatabase implements PgQueries {
  readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  async rows<Row>(sql: string, params: readonly PgValue[] = []): Promise<Row[]> {
    return await guarded(async () => (await this.pool.query(sql, params as PgValue[])).rows as Row[]);
  }

  async run(sql: string, params: readonly PgValue[] = []): Promise<number> {
    return await guarded(async () => (await this.pool.query(sql, params as PgValue[])).rowCount ?? 0);
  }

  /** `body` in one transaction on one connection: all of it or none. */
  async transaction<T>(body: (queries: PgQueries) => Promise<T>): Promise<T> {
    return await guarded(async () => {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const queries: PgQueries = {
          rows: async <Row>(sql: string, params: readonly PgValue[] = []) =>
            (await client.query(sql, params as PgValue[])).rows as Row[],
          run: async (sql, params = []) => (await client.query(sql, params as PgValue[])).rowCount ?? 0,
        };
        const result = await body(queries);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollback: Error) => {
          broken = rollback;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** The store's own errors (a TypeError for a bad argument, a StoreError) pass; the driver's become StoreErrors. */
async function guarded<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof StoreError || error instanceof TypeError || error instanceof RangeError) throw error;
    if (error instanceof Error && !isDriverError(error)) throw error;
    throw new StoreError(`the PostgreSQL store failed: ${describeError(error)}`, { cause: error });
  }
}

/** An error of the database or the connection to it (pg's DatabaseError, a socket's, a timeout), not the store's own. */
function isDriverError(error: Error): boolean {
  return (
    error instanceof pg.DatabaseError ||
    error instanceof AggregateError ||
    'syscall' in error ||
    /Connection terminated|timeout|connection error|not queryable|Client was closed|Cannot use a pool/i.test(
      error.message,
    )
  );
}

/** The SQLSTATE of a driver's error a store call threw (wrapped in a StoreError), if any. */
export function sqlState(error: unknown): string | undefined {
  const inner = error instanceof StoreError ? error.cause : error;
  return inner instanceof pg.DatabaseError ? inner.code : undefined;
}
