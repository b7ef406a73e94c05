import { said, type Diagnostic } from '../../core/diagnostic.ts';
import { phrase } from '../../tool-runtime/runtime-phrases.ts';
import type { FileLoad } from '../../tool-runtime/load-files.ts';

/**
 * Past this, a file's load is worth a warning: a trivial tool loads in a few ms, and one that
 * imports a DOM or an SDK at its top level in hundreds, at every start that cannot reuse the cache.
 */
const SLOW_LOAD_MS = 100;

/** `tools check`'s warnings for the files whose load (in their loader, the last time they loaded) took long. */
export function slowLoads(files: readonly FileLoad[]): Diagnostic[] {
  return files.flatMap((load) =>
    load.loadMs === undefined || load.loadMs <= SLOW_LOAD_MS
      ? []
      : [
          {
            severity: 'warning' as const,
            code: 'slow-load' as const,
            file: load.file,
            ...said(phrase('load.slow', { ms: load.loadMs, limit: SLOW_LOAD_MS }), phrase('load.slow.hint')),
          },
        ],
  );
}
