import pg from 'pg';
import type { StoreEvents } from '../store.ts';
import { StoreError } from '../store-error.ts';
import type { PgDatabase } from './pg-database.ts';
import { describeError } from './pg-pool.ts';

/** NOTIFY refuses a payload of 8000 bytes or more: a larger one is kept in a row and sent as its id. */
const MAX_NOTIFY_BYTES = 7_900;
/** A payload sent by reference starts so (JSON never does). */
const BY_ID = '#';
/** Rows of large payloads are kept this long for the listeners to read them back. */
const KEEP_PAYLOADS_MS = 5 * 60_000;
const FIRST_RECONNECT_MS = 250;
const MAX_RECONNECT_MS = 5_000;

type Listener = (payload: unknown) => void;

export interface PgEventsOptions {
  /** Told when a listener threw or a payload could not be read; by default a line on stderr. */
  onError?: (error: unknown) => void;
}

/**
 * Events across replicas through PostgreSQL's LISTEN/NOTIFY: `publish` is a `pg_notify` on any
 * pooled connection; every replica's listeners hear it (this one's too, through the database, so
 * that all hear it in the same order) on one dedicated connection opened with the first
 * subscription. When the database restarts, that connection is made again with back-off and
 * listens to the same channels; what was published meanwhile is not heard (events are live, the
 * store's rows are the record).
 */
export class PgEvents implements StoreEvents {
  readonly #db: PgDatabase;
  readonly #url: string;
  readonly #onError: (error: unknown) => void;
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #relistens = new Set<() => void>();
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #retryMs = FIRST_RECONNECT_MS;
  #closed = false;
  #delivering: Promise<void> = Promise.resolve();
  /** Connections made for listening (a figure for the tests: a restart makes a second one). */
  connections = 0;

  constructor(db: PgDatabase, url: string, options: PgEventsOptions = {}) {
    this.#db = db;
    this.#url = url;
    this.#onError =
      options.onError ??
      ((error) => console.error(`[riverse] a store event was lost: ${error instanceof Error ? error.message : error}`));
  }

  async publish(channel: string, payload: unknown): Promise<void> {
    const text = JSON.stringify(payload) ?? 'null';
    if (Buffer.byteLength(text) <= MAX_NOTIFY_BYTES) {
      await this.#db.run('SELECT pg_notify($1, $2)', [channelName(channel), text]);
      return;
    }
    const [row] = await this.#db.rows<{ id: number }>('INSERT INTO event_payloads (payload) VALUES ($1) RETURNING id', [
      text,
    ]);
    await this.#db.run('SELECT pg_notify($1, $2)', [channelName(channel), `${BY_ID}${row!.id}`]);
    await this.#db.run("DELETE FROM event_payloads WHERE created_at < now() - $1 * interval '1 millisecond'", [
      KEEP_PAYLOADS_MS,
    ]);
  }

  /** Listens on `channel`; resolves once the database listens (so an event published after it is heard). */
  async subscribe(channel: string, listener: Listener): Promise<() => void> {
    if (this.#closed) throw new Error('The store is closed: no more subscriptions.');
    const name = channelName(channel);
    let listeners = this.#listeners.get(name);
    const first = listeners === undefined;
    if (listeners === undefined) this.#listeners.set(name, (listeners = new Set()));
    listeners.add(listener);
    try {
      await this.#connect();
      if (first && this.#client !== undefined) await this.#client.query(`LISTEN ${quoted(name)}`);
    } catch (error) {
      // Not connected: this subscription is not kept. Connected but cut meanwhile: the reconnection listens again.
      if (this.#client === undefined) this.#forget(name, listener);
      throw new StoreError(`listening for store events on ${channel} failed: ${describeError(error)}`, {
        cause: error,
      });
    }
    return () => this.#forget(name, listener);
  }

  #forget(name: string, listener: Listener): void {
    const set = this.#listeners.get(name);
    if (set === undefined || !set.delete(listener) || set.size > 0) return;
    this.#listeners.delete(name);
    this.#client?.query(`UNLISTEN ${quoted(name)}`).catch(() => {});
  }

  /**
   * Calls `listener` each time listening resumes on a connection made again (the database
   * restarted): what was published meanwhile was not heard, so what keeps a state read from the
   * store (the tool switches) reads it again. The function it gives stops it.
   */
  onRelisten(listener: () => void): () => void {
    this.#relistens.add(listener);
    return () => void this.#relistens.delete(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  #connect(): Promise<void> {
    if (this.#client !== undefined) return Promise.resolve();
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, application_name: 'riverse-events' });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (this.#client === client) this.#client = undefined;
      client.end().catch(() => {});
      this.#scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', onLost);
    // One after another: a payload read back by id does not let the next one overtake it.
    client.on('notification', (message) => {
      this.#delivering = this.#delivering.then(() => this.#deliver(message.channel, message.payload ?? 'null'));
    });
    await client.connect();
    for (const name of this.#listeners.keys()) await client.query(`LISTEN ${quoted(name)}`);
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#retryMs = FIRST_RECONNECT_MS;
    this.connections++;
    if (this.connections > 1)
      for (const listener of [...this.#relistens]) {
        try {
          listener();
        } catch (error) {
          this.#onError(error);
        }
      }
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#retryTimer !== undefined || this.#listeners.size === 0) return;
    const delay = this.#retryMs;
    this.#retryMs = Math.min(MAX_RECONNECT_MS, this.#retryMs * 2);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      if (this.#closed || this.#listeners.size === 0) return;
      this.#connect().catch(() => this.#scheduleReconnect());
    }, delay);
    this.#retryTimer.unref();
  }

  async #deliver(name: string, text: string): Promise<void> {
    const listeners = this.#listeners.get(name);
    if (listeners === undefined) return;
    let payload: unknown;
    try {
      if (text.startsWith(BY_ID)) {
        const [row] = await this.#db.rows<{ payload: string }>('SELECT payload FROM event_payloads WHERE id = $1', [
          Number(text.slice(BY_ID.length)),
        ]);
        if (row === undefined) throw new Error(`the payload ${text} on ${name} was no longer kept`);
        text = row.payload;
      }
      payload = JSON.parse(text);
    } catch (error) {
      this.#onError(error);
      return;
    }
    for (const listener of [...listeners]) {
      try {
        listener(payload);
      } catch (error) {
        this.#onError(error);
      }
    }
  }
}

/** A channel as PostgreSQL names it: ours are prefixed, and lower case (an identifier folds so). */
function channelName(channel: string): string {
  if (!/^[a-z0-9_.:-]{1,40}$/i.test(channel))
    throw new TypeError(`An event channel is 1 to 40 letters, digits or _ . : -, not ${JSON.stringify(channel)}.`);
  return `riverse:${channel.toLowerCase()}`;
}

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
