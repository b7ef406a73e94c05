import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

/** Tokens as kept: the server's, with when they were saved and (from `expires_in`) when they expire. */
export interface KeptTokens {
  tokens: StoredOAuthTokens;
  savedAt: number;
  /** Milliseconds since the epoch; absent when the server gave no `expires_in`. */
  expiresAt?: number;
}

/** One issuer's file: the client registered with it (dynamic registration) and the tokens it gave, per MCP server URL. */
interface IssuerFile {
  issuer: string;
  client?: StoredOAuthClientInformation;
  tokens: Record<string, KeptTokens>;
}

/**
 * The sign-ins of MCP servers, kept in the data folder (`<data>/mcp-oauth/`): one file per
 * authorization server (issuer), readable by the owner only — 0600 files in a 0700 folder, as
 * OpenSSH keeps keys. A file is written whole to a temporary name and renamed, so a crash never
 * leaves half a token. Without a data folder (a test, an embedding), sign-ins last as long as the process.
 */
export class TokenStore {
  readonly folder: string | undefined;
  readonly #memory = new Map<string, IssuerFile>();
  #lastSave = 0;

  constructor(dataDir: string | undefined) {
    this.folder = dataDir === undefined ? undefined : join(dataDir, 'mcp-oauth');
  }

  client(issuer: string): StoredOAuthClientInformation | undefined {
    return this.#read(issuer)?.client;
  }

  saveClient(issuer: string, client: StoredOAuthClientInformation | undefined): void {
    const file = this.#read(issuer) ?? { issuer, tokens: {} };
    if (client === undefined) delete file.client;
    else file.client = client;
    this.#write(file);
  }

  tokens(issuer: string, resource: string): KeptTokens | undefined {
    return this.#read(issuer)?.tokens[resource];
  }

  saveTokens(issuer: string, resource: string, tokens: StoredOAuthTokens | undefined): void {
    const file = this.#read(issuer) ?? { issuer, tokens: {} };
    if (tokens === undefined) delete file.tokens[resource];
    else {
      // Strictly later than the last save of this process: "the newest" is never a tie.
      const savedAt = Math.max(Date.now(), this.#lastSave + 1);
      this.#lastSave = savedAt;
      file.tokens[resource] = {
        tokens,
        savedAt,
        ...(typeof tokens.expires_in === 'number' ? { expiresAt: savedAt + tokens.expires_in * 1000 } : {}),
      };
    }
    this.#write(file);
  }

  /** The tokens last saved for this MCP server, whichever issuer gave them (what a request carries before discovery has run). */
  latest(resource: string): (KeptTokens & { issuer: string }) | undefined {
    let best: (KeptTokens & { issuer: string }) | undefined;
    for (const file of this.#files()) {
      const kept = file.tokens[resource];
      if (kept !== undefined && (best === undefined || kept.savedAt > best.savedAt))
        best = { ...kept, issuer: file.issuer };
    }
    return best;
  }

  #path(issuer: string): string {
    return join(this.folder!, `${createHash('sha256').update(issuer).digest('hex').slice(0, 32)}.json`);
  }

  #files(): IssuerFile[] {
    if (this.folder === undefined) return [...this.#memory.values()];
    let names: string[];
    try {
      names = readdirSync(this.folder).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
    return names.flatMap((name) => {
      const file = readJson(join(this.folder!, name));
      return file === undefined ? [] : [file];
    });
  }

  #read(issuer: string): IssuerFile | undefined {
    if (this.folder === undefined) return structuredClone(this.#memory.get(issuer));
    const file = readJson(this.#path(issuer));
    return file?.issuer === issuer ? file : undefined;
  }

  #write(file: IssuerFile): void {
    if (this.folder === undefined) return void this.#memory.set(file.issuer, structuredClone(file));
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    // mkdir's mode applies only to a folder it creates: one made before (by hand, by an older copy) is narrowed too.
    chmodSync(this.folder, 0o700);
    const path = this.#path(file.issuer);
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  }
}

function readJson(path: string): IssuerFile | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as IssuerFile;
    return typeof value?.issuer === 'string' && typeof value.tokens === 'object' && value.tokens !== null
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}
