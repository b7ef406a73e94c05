import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { KeptTokens } from '../../store/store-records.ts';
import type { OAuthTokenRepository } from '../../store/store.ts';

/** One issuer's file: the client registered with it (dynamic registration) and the tokens it gave, per MCP server URL. */
interface IssuerFile {
  issuer: string;
  client?: StoredOAuthClientInformation;
  tokens: Record<string, KeptTokens>;
}

/**
 * The sign-ins of MCP servers. With the assistant's store (`repository`: SQLite or PostgreSQL, so
 * that replicas share them), they are kept there; the files an older Riverse kept in the data
 * folder are read once and moved into it. Without a store (a command that opens none), they are
 * kept in the data folder (`<data>/mcp-oauth/`): one file per authorization server (issuer),
 * readable by the owner only — 0600 files in a 0700 folder, as OpenSSH keeps keys, each written
 * whole to a temporary name and renamed, so a crash never leaves half a token. Without either (a
 * test, an embedding), sign-ins last as long as the process.
 */
export class TokenStore {
  readonly folder: string | undefined;
  readonly #repository: OAuthTokenRepository | undefined;
  readonly #memory = new Map<string, IssuerFile>();
  #lastSave = 0;
  #moved: Promise<void> | undefined;

  constructor(dataDir: string | undefined, repository?: OAuthTokenRepository) {
    this.folder = dataDir === undefined ? undefined : join(dataDir, 'mcp-oauth');
    this.#repository = repository;
  }

  async client(issuer: string): Promise<StoredOAuthClientInformation | undefined> {
    const repository = await this.#stored();
    if (repository !== undefined) return repository.client(issuer);
    return this.#read(issuer)?.client;
  }

  async saveClient(issuer: string, client: StoredOAuthClientInformation | undefined): Promise<void> {
    const repository = await this.#stored();
    if (repository !== undefined) return repository.saveClient(issuer, client);
    const file = this.#read(issuer) ?? { issuer, tokens: {} };
    if (client === undefined) delete file.client;
    else file.client = client;
    this.#write(file);
  }

  async tokens(issuer: string, resource: string): Promise<KeptTokens | undefined> {
    const repository = await this.#stored();
    if (repository !== undefined) return repository.tokens(issuer, resource);
    return this.#read(issuer)?.tokens[resource];
  }

  async saveTokens(issuer: string, resource: string, tokens: StoredOAuthTokens | undefined): Promise<void> {
    const kept = tokens === undefined ? undefined : this.#kept(tokens);
    const repository = await this.#stored();
    if (repository !== undefined) return repository.saveTokens(issuer, resource, kept);
    const file = this.#read(issuer) ?? { issuer, tokens: {} };
    if (kept === undefined) delete file.tokens[resource];
    else file.tokens[resource] = kept;
    this.#write(file);
  }

  /** The tokens last saved for this MCP server, whichever issuer gave them (what a request carries before discovery has run). */
  async latest(resource: string): Promise<(KeptTokens & { issuer: string }) | undefined> {
    const repository = await this.#stored();
    if (repository !== undefined) return repository.latest(resource);
    let best: (KeptTokens & { issuer: string }) | undefined;
    for (const file of this.#files()) {
      const kept = file.tokens[resource];
      if (kept !== undefined && (best === undefined || kept.savedAt > best.savedAt))
        best = { ...kept, issuer: file.issuer };
    }
    return best;
  }

  #kept(tokens: StoredOAuthTokens): KeptTokens {
    // Strictly later than the last save of this process: "the newest" is never a tie.
    const savedAt = Math.max(Date.now(), this.#lastSave + 1);
    this.#lastSave = savedAt;
    return {
      tokens,
      savedAt,
      ...(typeof tokens.expires_in === 'number' ? { expiresAt: savedAt + tokens.expires_in * 1000 } : {}),
    };
  }

  /** The store's sign-ins, once the data folder's files are moved into it (the first use); undefined without a store. */
  async #stored(): Promise<OAuthTokenRepository | undefined> {
    const repository = this.#repository;
    if (repository === undefined) return undefined;
    this.#moved ??= this.#moveFiles(repository);
    await this.#moved;
    return repository;
  }

  /**
   * The sign-ins an older Riverse kept as files, into the store, each file removed once stored (a
   * sign-in already in the store is newer and stays). A file that cannot be read stays where it is.
   */
  async #moveFiles(repository: OAuthTokenRepository): Promise<void> {
    if (this.folder === undefined) return;
    let names: string[];
    try {
      names = readdirSync(this.folder).filter((name) => name.endsWith('.json'));
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(this.folder, name);
      const file = readJson(path);
      if (file === undefined) continue;
      if (file.client !== undefined && (await repository.client(file.issuer)) === undefined)
        await repository.saveClient(file.issuer, file.client);
      for (const [resource, kept] of Object.entries(file.tokens)) {
        if ((await repository.tokens(file.issuer, resource)) === undefined)
          await repository.saveTokens(file.issuer, resource, kept);
        this.#lastSave = Math.max(this.#lastSave, kept.savedAt);
      }
      rmSync(path, { force: true });
    }
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
