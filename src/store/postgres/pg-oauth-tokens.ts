import type { KeptTokens, OAuthClient } from '../store-records.ts';
import type { OAuthTokenRepository } from '../store.ts';
import type { PgDatabase } from './pg-database.ts';

interface TokenRow {
  issuer: string;
  tokens: string;
  saved_at: number;
  expires_at: number | null;
}

/** MCP servers' OAuth sign-ins in PostgreSQL: a replica uses the tokens another one was given. */
export class PgOAuthTokens implements OAuthTokenRepository {
  readonly #db: PgDatabase;

  constructor(db: PgDatabase) {
    this.#db = db;
  }

  async client(issuer: string): Promise<OAuthClient | undefined> {
    const [row] = await this.#db.rows<{ client: string }>('SELECT client FROM oauth_clients WHERE issuer = $1', [
      issuer,
    ]);
    return row === undefined ? undefined : (JSON.parse(row.client) as OAuthClient);
  }

  async saveClient(issuer: string, client: OAuthClient | undefined): Promise<void> {
    if (client === undefined) {
      await this.#db.run('DELETE FROM oauth_clients WHERE issuer = $1', [issuer]);
      return;
    }
    await this.#db.run(
      'INSERT INTO oauth_clients (issuer, client) VALUES ($1, $2) ON CONFLICT (issuer) DO UPDATE SET client = excluded.client',
      [issuer, JSON.stringify(client)],
    );
  }

  async tokens(issuer: string, resource: string): Promise<KeptTokens | undefined> {
    const [row] = await this.#db.rows<TokenRow>(
      'SELECT issuer, tokens, saved_at, expires_at FROM oauth_tokens WHERE issuer = $1 AND resource = $2',
      [issuer, resource],
    );
    return row === undefined ? undefined : toKept(row);
  }

  async saveTokens(issuer: string, resource: string, kept: KeptTokens | undefined): Promise<void> {
    if (kept === undefined) {
      await this.#db.run('DELETE FROM oauth_tokens WHERE issuer = $1 AND resource = $2', [issuer, resource]);
      return;
    }
    await this.#db.run(
      `INSERT INTO oauth_tokens (issuer, resource, tokens, saved_at, expires_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (issuer, resource) DO UPDATE SET tokens = excluded.tokens, saved_at = excluded.saved_at,
         expires_at = excluded.expires_at`,
      [issuer, resource, JSON.stringify(kept.tokens), kept.savedAt, kept.expiresAt ?? null],
    );
  }

  async latest(resource: string): Promise<(KeptTokens & { issuer: string }) | undefined> {
    const [row] = await this.#db.rows<TokenRow>(
      'SELECT issuer, tokens, saved_at, expires_at FROM oauth_tokens WHERE resource = $1 ORDER BY saved_at DESC LIMIT 1',
      [resource],
    );
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
