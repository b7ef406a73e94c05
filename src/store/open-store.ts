import { isPostgresUrl, withoutPassword, type StoreConfig } from './store-settings.ts';
import { storeCall } from './store-error.ts';
import { SqliteStore } from './sqlite-store.ts';
import type { Store, StoreOptions } from './store.ts';
import type { Language } from '../core/language.ts';

/** The environment variable that names a PostgreSQL database; it wins over riverse.yaml's `store.url`. */
export const DATABASE_URL_ENV = 'RIVERSE_DATABASE_URL';

/** Which store `openStore` opens: SQLite in the data folder, or PostgreSQL at a URL (and which setting named it). */
export type StoreChoice =
  | { kind: 'sqlite'; dataDir: string }
  | { kind: 'postgres'; url: string; setting: typeof DATABASE_URL_ENV | 'store.url' };

/**
 * RIVERSE_DATABASE_URL (wins), else `store.url` in riverse.yaml, else SQLite in `dataDir`. A URL
 * that is not postgres:// or postgresql:// is an error naming its setting, not a silent SQLite.
 */
export function chooseStore(dataDir: string, config: StoreConfig, env: NodeJS.ProcessEnv = process.env): StoreChoice {
  const fromEnv = env[DATABASE_URL_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return postgres(fromEnv.trim(), DATABASE_URL_ENV);
  const fromConfig = config.store?.url;
  if (fromConfig !== undefined && fromConfig !== null) return postgres(String(fromConfig), 'store.url');
  return { kind: 'sqlite', dataDir };
}

function postgres(url: string, setting: typeof DATABASE_URL_ENV | 'store.url'): StoreChoice {
  if (!isPostgresUrl(url)) {
    const where = setting === 'store.url' ? 'store.url in riverse.yaml' : `the environment variable ${setting}`;
    throw new TypeError(
      `${where} must be a PostgreSQL URL starting postgres:// or postgresql:// (like postgres://riverse:secret@db.local:5432/riverse), not ${JSON.stringify(withoutPassword(url))}; unset it to keep the SQLite store in the data folder.`,
    );
  }
  return { kind: 'postgres', url, setting };
}

/** The one way to open a store: the choice of `chooseStore`, opened (and migrated). */
export async function openStore(
  dataDir: string,
  config: StoreConfig,
  options: StoreOptions & { env?: NodeJS.ProcessEnv; language?: Language } = {},
): Promise<Store> {
  const { env, language, ...storeOptions } = options;
  const choice = chooseStore(dataDir, config, env);
  // A file that cannot be opened or brought up to date (unreadable, damaged, made by another
  // Riverse's schema) is said in a line that names it, not as a stack.
  if (choice.kind === 'sqlite')
    return storeCall(`Opening the database in ${choice.dataDir}`, () => SqliteStore.open(choice.dataDir, storeOptions));
  // Loaded only for a postgres URL: the SQLite default never loads the driver.
  const { openPostgresStore } = await import('./postgres/open-postgres-store.ts');
  const poolMax = config.store?.pool_max;
  return openPostgresStore(choice.url, {
    ...storeOptions,
    // The language its start's retries are said in; the pool's bound from store.pool_max.
    ...(language === undefined ? {} : { language }),
    ...(poolMax === undefined ? {} : { pool: { max: poolMax } }),
  });
}
