import { createRequire } from 'node:module';
import type * as Sqlite from 'node:sqlite';

const require = createRequire(import.meta.url);
const SQLITE_WARNING = 'SQLite is an experimental feature';
let sqlite: typeof Sqlite | undefined;

/**
 * `node:sqlite`, loaded without its ExperimentalWarning (Node 22 and 24 print one on first load),
 * because the CLI's output must stay clean.
 *
 * The warning is emitted synchronously through `process.emitWarning` while the module first loads,
 * so we load it with `require` (a static import would load it before any of our code runs) and
 * drop that one warning during that one call. Every other warning passes through untouched. A
 * `process.on('warning')` listener could not do this: Node's own printer is a listener too.
 * Once loaded, Node never emits the warning again, so nothing leaks out later either.
 */
export function loadSqlite(): typeof Sqlite {
  if (sqlite) return sqlite;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    if (isSqliteWarning(warning, rest[0])) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    sqlite = require('node:sqlite') as typeof Sqlite;
  } finally {
    process.emitWarning = emitWarning;
  }
  return sqlite;
}

function isSqliteWarning(warning: string | Error, typeOrOptions: unknown): boolean {
  const message = typeof warning === 'string' ? warning : warning.message;
  const type =
    typeof warning !== 'string'
      ? warning.name
      : typeof typeOrOptions === 'string'
        ? typeOrOptions
        : (typeOrOptions as { type?: string } | undefined)?.type;
  return type === 'ExperimentalWarning' && message.startsWith(SQLITE_WARNING);
}
