import pg from 'pg';
import type { Language } from '../../core/language.ts';
import { StoreError } from '../store-error.ts';
import { PG_TEXT } from './pg-text.ts';

/** The bounds of the pool (decision 038). */
export interface PgPoolOptions {
  /** Connections at most (`store.pool_max`; 10). */
  max?: number;
  /** How long a query waits for a free connection, or a new one, before it fails (5 s). */
  connectionTimeoutMs?: number;
  /** The server cancels a statement running longer (10 s): a slow database is a bounded wait. */
  statementTimeoutMs?: number;
  /** An idle connection is closed after this long (30 s). */
  idleTimeoutMs?: number;
}

const DEFAULT_POOL_MAX = 10;

/** `postgres://user:***@host/db`: a URL as it may be printed, without its password (the rest as written). */
export function redactUrl(url: string): string {
  // The user info runs to the last @ before the path: a password may hold an unencoded @.
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i, (whole, scheme: string, userInfo: string) => {
      const colon = userInfo.indexOf(':');
      return colon === -1 ? whole : `${scheme}${userInfo.slice(0, colon)}:***@`;
    })
    .replace(/([?&]password=)[^&#]*/i, '$1***');
}

// BIGINT (epoch milliseconds, identities) as numbers: they stay far below 2^53.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** A bounded pool for `url`; an idle connection the server drops (a restart) is discarded, not thrown. */
export function createPgPool(url: string, options: PgPoolOptions = {}): pg.Pool {
  const statementTimeout = options.statementTimeoutMs ?? 10_000;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? DEFAULT_POOL_MAX,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: options.idleTimeoutMs ?? 30_000,
    statement_timeout: statementTimeout,
    // The client's own bound, for a server that does not answer at all (a network cut).
    query_timeout: statementTimeout + 5_000,
    application_name: 'riverse',
    types,
  });
  // pg removes a broken idle client itself; without a listener the 'error' would end the process.
  pool.on('error', () => {});
  // A checked-out client has no listener of the pool's: a connection cut between two statements of a
  // transaction would be an uncaught 'error'. The statements under way reject with it anyway.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** SQLSTATE classes after which a retry cannot help: bad password, unknown database or role. */
const REFUSED = /^(28|3D)/;

export interface ConnectRetry {
  language?: Language;
  /** The whole wait before the start fails (30 s). */
  deadlineMs?: number;
  /** The first pause (1 s); each next one doubles. */
  firstDelayMs?: number;
  /** Where the retries are said (stderr). */
  say?: (line: string) => void;
}

/**
 * Checks that the database answers, retrying with back-off while it is unreachable (1 s, 2 s, 4 s …
 * up to `deadlineMs` in all), each retry said on stderr; then a StoreError naming the URL without
 * its password. A refusal (authentication, no such database) fails at once.
 */
export async function waitForDatabase(pool: pg.Pool, url: string, retry: ConnectRetry = {}): Promise<void> {
  const text = PG_TEXT[retry.language ?? 'en'];
  const shown = redactUrl(url);
  const deadline = retry.deadlineMs ?? 30_000;
  const say = retry.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  let delay = retry.firstDelayMs ?? 1_000;
  let waited = 0;
  for (;;) {
    try {
      const client = await pool.connect();
      client.release();
      return;
    } catch (error) {
      const reason = describeError(error);
      const code = (error as { code?: string }).code ?? '';
      if (REFUSED.test(code)) throw new StoreError(text.refused(shown, reason), { cause: error });
      const pause = Math.min(delay, deadline - waited);
      if (pause <= 0) {
        throw new StoreError(text.unreachable(shown, reason, Math.round(deadline / 1000)), { cause: error });
      }
      say(text.retrying(shown, reason, pause / 1000));
      await new Promise((resolve) => setTimeout(resolve, pause));
      waited += pause;
      delay *= 2;
    }
  }
}

/** An error of the driver in a few words (its SQLSTATE or system code, and message), never the URL's password. */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeError(error.errors[0]);
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const said =
    message === ''
      ? (code ?? 'unknown error')
      : code !== undefined && !message.includes(code)
        ? `${code}: ${message}`
        : message;
  return said.replace(/\/\/([^:/@]*):[^@]*@/g, '//$1:***@');
}
