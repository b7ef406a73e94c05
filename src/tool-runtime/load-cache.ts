// What loading found (manifests, availability, diagnostics), kept between starts so that unchanged
// tool files need not be imported again. An entry is used only while the file's text, the text of
// every project file it imported, the environment variables its code read, the config and Riverse
// itself are all as they were. A tool's own isAvailable() is kept only when the loader saw it answer
// at once from those alone (availability-watch.ts); one that reached further is imported every time.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from '../tools/app-config.ts';
import type { FileInfo } from './isolation/worker-messages.ts';

interface Entry {
  hash: string;
  dependencies: Array<{ path: string; hash: string }>;
  /** The environment variables its code read, with their values then (null: unset). */
  environment?: Record<string, string | null>;
  info: FileInfo;
}

interface CacheFile {
  key: string;
  entries: Record<string, Entry>;
}

/** Loads that failed for a reason of the moment (a hang, a crash) are loaded again next time. */
const TRANSIENT = new Set(['load-timeout', 'load-crashed']);

/** Where the cache lives: `$RIVERSE_CACHE_DIR`, else `$XDG_CACHE_HOME/riverse`, else `~/.cache/riverse`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.RIVERSE_CACHE_DIR) return env.RIVERSE_CACHE_DIR;
  if (env.XDG_CACHE_HOME && posix.isAbsolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, 'riverse');
  return join(env.HOME || homedir(), '.cache', 'riverse');
}

export class LoadCache {
  readonly #path: string;
  readonly #key: string;
  #entries: Record<string, Entry>;
  #changed = false;
  /** Hashes of files read during one lookup pass. */
  readonly #hashes = new Map<string, string | undefined>();

  private constructor(path: string, key: string, entries: Record<string, Entry>) {
    this.#path = path;
    this.#key = key;
    this.#entries = entries;
  }

  /** The cache for these folders and this config (an empty one when there is none yet, or it is unreadable). */
  static open(dir: string, folders: readonly string[], config: AppConfig, isolation: string): LoadCache {
    const key = hash(JSON.stringify({ riverse: riverseFingerprint(), node: process.version, isolation, config }));
    const path = join(dir, 'tools', `${hash(folders.join('\n')).slice(0, 16)}.json`);
    try {
      const file = JSON.parse(readFileSync(path, 'utf8')) as CacheFile;
      if (file.key === key && typeof file.entries === 'object' && file.entries !== null)
        return new LoadCache(path, key, file.entries);
    } catch {
      // missing or unreadable: start empty
    }
    return new LoadCache(path, key, {});
  }

  /** What loading `file` found last time, if that still holds for `source`. */
  lookup(file: string, source: string): FileInfo | undefined {
    const entry = this.#entries[file];
    if (entry === undefined || entry.hash !== hash(source)) return undefined;
    if (entry.dependencies.some((dependency) => this.#hashOf(dependency.path) !== dependency.hash)) return undefined;
    for (const [name, value] of Object.entries(entry.environment ?? {}))
      if ((process.env[name] ?? null) !== value) return undefined;
    return entry.info;
  }

  /** Keeps what loading `file` (with text `source`) found, unless it cannot be reused. */
  store(file: string, source: string, info: FileInfo): void {
    if (
      info.diagnostics.some((diagnostic) => TRANSIENT.has(diagnostic.code)) ||
      info.tools.some((tool) => tool.ownAvailability === true) ||
      info.environment?.listed === true
    ) {
      if (this.#entries[file] !== undefined) delete this.#entries[file], (this.#changed = true);
      return;
    }
    const dependencies: Entry['dependencies'] = [];
    for (const path of info.dependencies ?? []) {
      const dependencyHash = this.#hashOf(path);
      if (dependencyHash === undefined) return; // gone already: nothing to key it on
      dependencies.push({ path, hash: dependencyHash });
    }
    const { environment: read, ...kept } = info;
    const environment = Object.fromEntries((read?.names ?? []).map((name) => [name, process.env[name] ?? null]));
    this.#entries[file] = {
      hash: hash(source),
      dependencies,
      ...(read === undefined ? {} : { environment }),
      info: kept,
    };
    this.#changed = true;
  }

  /** Drops the entries of files no longer found, and writes the cache if it changed (atomically; a failure only costs speed). */
  save(files: readonly string[]): void {
    const kept = new Set(files);
    for (const file of Object.keys(this.#entries))
      if (!kept.has(file)) delete this.#entries[file], (this.#changed = true);
    if (!this.#changed) return;
    try {
      mkdirSync(dirname(this.#path), { recursive: true });
      const temporary = `${this.#path}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify({ key: this.#key, entries: this.#entries } satisfies CacheFile));
      renameSync(temporary, this.#path);
      this.#changed = false;
    } catch {
      // a read-only home: loading still works, only without the cache
    }
  }

  #hashOf(path: string): string | undefined {
    if (!this.#hashes.has(path)) {
      let value: string | undefined;
      try {
        value = hash(readFileSync(path));
      } catch {
        value = undefined;
      }
      this.#hashes.set(path, value);
    }
    return this.#hashes.get(path);
  }
}

function hash(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

let fingerprint: string | undefined;

/**
 * Riverse's version, and in a checkout (sources, not the package) when its loading code last
 * changed: an edit to how manifests are checked must not be hidden by what the old code found.
 */
function riverseFingerprint(): string {
  if (fingerprint !== undefined) return fingerprint;
  const src = fileURLToPath(new URL('..', import.meta.url));
  const { version } = JSON.parse(readFileSync(join(src, '..', 'package.json'), 'utf8')) as { version: string };
  let newest = 0;
  if (import.meta.url.endsWith('.ts')) {
    // The loading code itself (this room, its loaders), the contract and the schemas: all of what a load's result depends on.
    const rooms = [
      'tool-runtime',
      join('tool-runtime', 'isolation'),
      join('tool-runtime', 'declarative'),
      'tools',
      'schema',
      'core',
    ];
    for (const folder of rooms.map((room) => join(src, room))) {
      try {
        for (const name of readdirSync(folder)) newest = Math.max(newest, statSync(join(folder, name)).mtimeMs);
      } catch {
        // a folder that is not there
      }
    }
  }
  return (fingerprint = `${version}:${newest}`);
}
