// Whether a tool's own isAvailable() answered from what the load cache keys on (its file, the
// config, the environment variables it read) and nothing else. While it runs, the functions of
// Node's modules that reach outside (files, programs, the machine) and the clocks and chance (an
// availability by the hour) are wrapped to notice a call; an answer that is a promise could do
// anything later. Either way the answer is not kept.
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
  const { Date: OriginalDate, Math: math } = globalThis;
  const random = math.random;
  const hrtime = process.hrtime;
  const uptime = process.uptime;
  const now = () => ((outside = true), OriginalDate.now());
  // `new Date()` and `Date()` read the clock, `new Date(2020, 0)` does not; everything else is Date's own.
  globalThis.Date = new Proxy(OriginalDate, {
    construct: (target, args, newTarget) => (
      (outside ||= args.length === 0), Reflect.construct(target, args, newTarget)
    ),
    apply: (target, self, args) => ((outside = true), Reflect.apply(target, self, args)),
    get: (target, key, receiver) => (key === 'now' ? now : Reflect.get(target, key, receiver)),
  });
  math.random = () => ((outside = true), random());
  process.hrtime = Object.assign((time?: [number, number]) => ((outside = true), hrtime(time)), {
    bigint: () => ((outside = true), hrtime.bigint()),
  });
  process.uptime = () => ((outside = true), uptime());
  const performanceNow = Object.getOwnPropertyDescriptor(performance, 'now');
  const sinceStart = performance.now.bind(performance);
  performance.now = () => ((outside = true), sinceStart());
  // `import { existsSync } from 'node:fs'` sees the wrappers only once the named exports are synced.
  syncBuiltinESMExports();
  try {
    return { value: call(), outside };
  } finally {
    for (const [module, name, original] of saved) module[name] = original;
    process.cwd = cwd;
    globalThis.Date = OriginalDate;
    math.random = random;
    process.hrtime = hrtime;
    process.uptime = uptime;
    if (performanceNow === undefined) delete (performance as { now?: unknown }).now;
    else Object.defineProperty(performance, 'now', performanceNow);
    syncBuiltinESMExports();
  }
}
