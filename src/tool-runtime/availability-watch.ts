// Whether a tool's own isAvailable() answered from what the load cache keys on (its file, the
// config, the environment variables it read) and nothing else. While it runs, the functions of
// Node's modules that reach outside (files, programs, the machine) are wrapped to notice a call;
// an answer that is a promise could do anything later. Either way the answer is not kept.
import childProcess from 'node:child_process';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';

const WATCHED: Array<Record<string, unknown>> = [
  fs as unknown as Record<string, unknown>,
  childProcess as unknown as Record<string, unknown>,
  os as unknown as Record<string, unknown>,
];

/** Calls `call` (synchronously) and says whether it reached outside the config while it ran. */
export function callWatched<T>(call: () => T): { value: T; outside: boolean } {
  let outside = false;
  const saved: Array<[Record<string, unknown>, string, unknown]> = [];
  for (const module of WATCHED)
    for (const [name, value] of Object.entries(module)) {
      if (typeof value !== 'function' || /^[A-Z]/.test(name)) continue; // classes (fs.Stats) stay as they are
      const original = value as (...args: unknown[]) => unknown;
      saved.push([module, name, original]);
      module[name] = function (this: unknown, ...args: unknown[]) {
        outside = true;
        return original.apply(this, args);
      };
    }
  const cwd = process.cwd;
  process.cwd = () => ((outside = true), cwd());
  // `import { existsSync } from 'node:fs'` sees the wrappers only once the named exports are synced.
  syncBuiltinESMExports();
  try {
    return { value: call(), outside };
  } finally {
    for (const [module, name, original] of saved) module[name] = original;
    process.cwd = cwd;
    syncBuiltinESMExports();
  }
}
