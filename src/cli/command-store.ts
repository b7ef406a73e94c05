import type { RiverseConfig } from '../config/riverse-config.ts';
import type { Language } from '../core/language.ts';
import type { OAuthTokenRepository, Store } from '../store/store.ts';

let opening: Promise<Store> | undefined;

/**
 * The store of a command that opens none at start (`riverse tools …`, `riverse mcp`, `mcp list`, an
 * `ask` without a session): opened by the first thing that needs it — a sign-in read or written,
 * a task started — once per process, and closed with the command (`closeCommandStore`). So `tools
 * list` opens no database (issue 25 measures its start), and a sign-in made here lands where
 * `riverse serve` on the same store reads it: SQLite in the data folder, or PostgreSQL when
 * RIVERSE_DATABASE_URL or `store.url` names one (then every replica uses it).
 */
export function commandStore(dataDir: string, config: RiverseConfig, language: Language): Promise<Store> {
  opening ??= import('../store/open-store.ts').then(({ openStore }) => openStore(dataDir, config, { language }));
  return opening;
}

/** Closes the command's store, if it was opened (the program's end). */
export async function closeCommandStore(): Promise<void> {
  const opened = opening;
  opening = undefined;
  await (await opened?.catch(() => undefined))?.close();
}

/** MCP sign-ins kept in a store that opens with the first one read or written. */
export function lazyOAuthTokens(store: () => Promise<Store>): OAuthTokenRepository {
  const oauth = async () => (await store()).oauth;
  return {
    client: async (issuer) => (await oauth()).client(issuer),
    saveClient: async (issuer, client) => (await oauth()).saveClient(issuer, client),
    tokens: async (issuer, resource) => (await oauth()).tokens(issuer, resource),
    saveTokens: async (issuer, resource, kept) => (await oauth()).saveTokens(issuer, resource, kept),
    latest: async (resource) => (await oauth()).latest(resource),
  };
}
