import type { StatementSync } from 'node:sqlite';
import type { KeptTokens, OAuthClient } from './store-records.ts';
import type { OAuthTokenRepository } from './store.ts';

interface TokenRow {
  issuer: string;
  tokens: string;
  saved_at: number;
  expires_at: number | null;
}

/**
 * MCP OAuth sign-ins in the session database (tables `oauth_clients`, `oauth_tokens`, schema step
 * 7). The database file is the owner's (the data folder's mode), as the token files were.
 */
export class SqliteOAuthTokens implements OAuthTokenRepository {
  readonly #prepare: (sql: string) => StatementSync;

  /** `prepare`: the store's statements, prepared once per SQL text. */
  constructor(prepare: (sql: string) => StatementSync) {
    this.#prepare = prepare;
  }

  async client(issuer: string): Promise<OAuthClient | undefined> {
    const row = this.#prepare('SELECT client FROM oauth_clients WHERE issuer = ?').get(issuer) as
      | { client: string }
      | undefined;
    return row === undefined ? undefined : (JSON.parse(row.client) as OAuthClient);
  }

  async saveClient(issuer: string, client: OAuthClient | undefined): Promise<void> {
    if (client === undefined) {
      this.#prepare('DELETE FROM oauth_clients WHERE issuer = ?').run(issuer);
      return;
    }
    this.#prepare(
      'INSERT INTO oauth_clients (issuer, client) VALUES (?, ?) ON CONFLICT (issuer) DO UPDATE SET client = excluded.client',
    ).run(issuer, JSON.stringify(client));
  }

  async tokens(issuer: string, resource: string): Promise<KeptTokens | undefined> {
    const row = this.#prepare(
      'SELECT issuer, tokens, saved_at, expires_at FROM oauth_tokens WHERE issuer = ? AND resource = ?',
    ).get(issuer, resource) as TokenRow | undefined;
    return row === undefined ? undefined : toKept(row);
  }

  async saveTokens(issuer: string, resource: string, kept: KeptTokens | undefined): Promise<void> {
    if (kept === undefined) {
      this.#prepare('DELETE FROM oauth_tokens WHERE issuer = ? AND resource = ?').run(issuer, resource);
      return;
    }
    this.#prepare(
      `INSERT INTO oauth_tokens (issuer, resource, tokens, saved_at, expires_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (issuer, resource) DO UPDATE SET tokens = excluded.tokens, saved_at = excluded.saved_at,
         expires_at = excluded.expires_at`,
    ).run(issuer, resource, JSON.stringify(kept.tokens), kept.savedAt, kept.expiresAt ?? null);
  }

  async latest(resource: string): Promise<(KeptTokens & { issuer: string }) | undefined> {
    const row = this.#prepare(
      'SELECT issuer, tokens, saved_at, expires_at FROM oauth_tokens WHERE resource = ? ORDER BY saved_at DESC LIMIT 1',
    ).get(resource) as TokenRow | undefined;
    return row === undefined ? undefined : { ...toKept(row), issuer: row.issuer };
  }
}

function toKept(row: TokenRow): KeptTokens {
  return {
    tokens: JSON.parse(row.tokens) as KeptTokens['tokens'],
    savedAt: row.saved_at,
    ...(row.expires_at === null ? {} : { expiresAt: row.expires_at }),
  };
}
