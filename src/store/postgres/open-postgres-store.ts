import type { Store, StoreOptions } from '../store.ts';

/**
 * Opens the PostgreSQL store at `url` (migrated, its pool bounded). A stand-in until the pg-store
 * branch brings the real one: openStore (../open-store.ts) imports this file only for a postgres URL.
 */
export async function openPostgresStore(url: string, _options: StoreOptions = {}): Promise<Store> {
  void url;
  throw new Error(
    'PostgreSQL support is not built in this checkout (RIVERSE_DATABASE_URL or store.url names a postgres:// database); unset it to use the SQLite store in the data folder.',
  );
}
