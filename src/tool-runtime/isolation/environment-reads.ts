// The environment variables a tool file's code reads while it loads, so that what its load found
// is kept only alongside their values (a key set later must load the file again). Installed in a
// loader before any tool file; only reads inside a file's window count, not Riverse's own.

/** What one file read: the names, or `listed` when it went through them all (`{ ...process.env }`). */
export interface EnvironmentReads {
  names: string[];
  listed: boolean;
}

let names: Set<string> | undefined;
let listed = false;

/** Puts a recording view in front of `process.env` (once, in a loader). */
export function recordEnvironmentReads(): void {
  const env = process.env;
  process.env = new Proxy(env, {
    get(target, key, receiver) {
      if (typeof key === 'string') names?.add(key);
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      if (typeof key === 'string') names?.add(key);
      return Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      if (typeof key === 'string') names?.add(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      if (names !== undefined) listed = true;
      return Reflect.ownKeys(target);
    },
  });
}

/** Runs one file's load, and says what of the environment it read meanwhile. */
export async function withEnvironmentReads<T>(load: () => Promise<T>): Promise<[T, EnvironmentReads]> {
  names = new Set();
  listed = false;
  try {
    const value = await load();
    return [value, { names: [...names].sort(), listed }];
  } finally {
    names = undefined;
  }
}
