// What loading found (manifests, availability, diagnostics), kept between starts so that unchanged
// tool files need not be imported again. An entry is used only while the file's text, the text of
// every project file it imported, the environment variables its code read, the config and Riverse
// itself are all as they were. A tool's own isAvailable() is kept only when the loader saw it answer
// at once from those alone (availability-watch.ts); one that reached further is imported every time.
// A file that cannot tell where it is is also kept by its content, for a copy of it elsewhere (030).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, extname, join, posix } from 'node:path';
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

/** A load kept by content: its key names Riverse, the config, the file's extension and text; `packageType`, how Node read it there. */
interface ContentEntry extends Omit<Entry, 'hash'> {
  packageType: string | null;
}

/** The most loads kept by content (the oldest go first): a copy of a folder of a few hundred tools fits many times. */
const MAX_CONTENT_ENTRIES = 4_000;

/**
 * Words through which a file's code can learn its own path or what lies around it: its URL, CommonJS's
 * names, a stack trace (which names the file), Node's report and module helpers, code made from text.
 * A text with any of them is not reused at another path, even where it only says the word.
 */
const KNOWS_ITS_PLACE =
  /import\s*\.\s*meta|__dirname|__filename|\brequire\b|stack|StackTrace|getBuiltinModule|\breport\b|inspector|['"](?:node:)?module['"]|\beval\b|Function\s*\(/;

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
  /** The loads kept by content, shared by every folder (read at the first file the folder's own entries miss). */
  readonly #contentPath: string;
  #contents: Record<string, ContentEntry> | undefined;
  #contentsChanged = false;
  /** The `type` of the package.json nearest to each folder asked about. */
  readonly #packageTypes = new Map<string, string | null>();

  private constructor(path: string, contentPath: string, key: string, entries: Record<string, Entry>) {
    this.#path = path;
    this.#contentPath = contentPath;
    this.#key = key;
    this.#entries = entries;
  }

  /** The cache for these folders and this config (an empty one when there is none yet, or it is unreadable). */
  static open(dir: string, folders: readonly string[], config: AppConfig, isolation: string): LoadCache {
    const key = hash(JSON.stringify({ riverse: riverseFingerprint(), node: process.version, isolation, config }));
    const path = join(dir, 'tools', `${hash(folders.join('\n')).slice(0, 16)}.json`);
    const contentPath = join(dir, 'tools-by-content', 'loads.json');
    try {
      const file = JSON.parse(readFileSync(path, 'utf8')) as CacheFile;
      if (file.key === key && typeof file.entries === 'object' && file.entries !== null)
        return new LoadCache(path, contentPath, key, file.entries);
    } catch {
      // missing or unreadable: start empty
    }
    return new LoadCache(path, contentPath, key, {});
  }

  /** What loading `file` found last time, if that still holds for `source`: here, or (by content) at another path. */
  lookup(file: string, source: string): FileInfo | undefined {
    const entry = this.#entries[file];
    if (entry !== undefined && entry.hash === hash(source)) return this.#current(entry) ? entry.info : undefined;
    return this.#lookupContent(file, source);
  }

  /** Whether what an entry's load read besides its text (its helpers, the environment) is as it was. */
  #current(entry: Omit<Entry, 'hash'>): boolean {
    if (entry.dependencies.some((dependency) => this.#hashOf(dependency.path) !== dependency.hash)) return false;
    for (const [name, value] of Object.entries(entry.environment ?? {}))
      if ((process.env[name] ?? null) !== value) return false;
    return true;
  }

  /**
   * A load of the same text at another path, when nothing of it depends on the path: the file
   * imported nothing by a specifier read from its place (`relocatable`), its text names none of
   * the ways to learn its place, Node reads it as the same kind of module here, and it is no link.
   */
  #lookupContent(file: string, source: string): FileInfo | undefined {
    const key = this.#contentKey(file, source);
    if (key === undefined) return undefined;
    this.#contents ??= readContents(this.#contentPath);
    const entry = this.#contents[key];
    if (entry === undefined || entry.packageType !== this.#packageType(dirname(file)) || !this.#current(entry))
      return undefined;
    // Not copied into the folder's own entries: the next start finds it here as quickly, and a folder
    // made for one run (a test's, a benchmark's) would cost a write of them all.
    return relocated(entry.info, file);
  }

  /** The key of `file`'s load by content, or undefined where its text or its place rules it out. */
  #contentKey(file: string, source: string): string | undefined {
    if (KNOWS_ITS_PLACE.test(source)) return undefined;
    try {
      if (realpathSync(file) !== file) return undefined;
    } catch {
      return undefined;
    }
    return hash(JSON.stringify([this.#key, extname(file), source]));
  }

  /** How Node reads a module there: the `type` of the nearest package.json (null: none, or none given). */
  #packageType(folder: string): string | null {
    let type = this.#packageTypes.get(folder);
    if (type !== undefined) return type;
    try {
      const read = (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { type?: unknown }).type;
      type = typeof read === 'string' ? read : null;
    } catch (error) {
      const missing =
        (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR';
      const parent = dirname(folder);
      // An unreadable package.json: a kind of its own, which matches nothing kept.
      type = !missing ? `unreadable:${folder}` : parent === folder ? null : this.#packageType(parent);
    }
    this.#packageTypes.set(folder, type);
    return type;
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
    const { environment: read, relocatable, ...kept } = info;
    const environment = Object.fromEntries((read?.names ?? []).map((name) => [name, process.env[name] ?? null]));
    const entry = { dependencies, ...(read === undefined ? {} : { environment }), info: kept };
    this.#entries[file] = { hash: hash(source), ...entry };
    this.#changed = true;
    // By content as well, where the load provably did not depend on the path.
    const key = relocatable === true && placeFreeDiagnostics(info) ? this.#contentKey(file, source) : undefined;
    if (key === undefined) return;
    this.#contents ??= readContents(this.#contentPath);
    delete this.#contents[key]; // re-added last: the newest
    this.#contents[key] = { ...entry, packageType: this.#packageType(dirname(file)) };
    const keys = Object.keys(this.#contents);
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_CONTENT_ENTRIES))) delete this.#contents[old];
    this.#contentsChanged = true;
  }

  /**
   * Keeps the JavaScript this process made of `file` (its text `source`) with the file's load, for
   * a tool that runs in Riverse's process: a start the cache answers then imports it with no type
   * stripper (oxc is ~10 MB of a process). Only where the load is kept for that very text.
   */
  keepJavaScript(file: string, source: string, javascript: string): void {
    // In the folder's own entries, not by content: its source map names this path. A load answered
    // by content is copied there for it (one file's entry, not the folder's).
    let entry = this.#entries[file];
    if (entry === undefined) {
      const key = this.#contents === undefined ? undefined : this.#contentKey(file, source);
      const kept = key === undefined ? undefined : this.#contents![key];
      if (kept === undefined) return;
      const { packageType: _packageType, ...load } = kept;
      entry = this.#entries[file] = { ...load, hash: hash(source), info: relocated(kept.info, file) };
    }
    if (entry.hash !== hash(source) || entry.info.javascript !== undefined) return;
    entry.info = { ...entry.info, javascript };
    this.#changed = true;
  }

  /** Drops the entries of files no longer found, and writes the cache if it changed (atomically; a failure only costs speed). */
  save(files: readonly string[]): void {
    const kept = new Set(files);
    for (const file of Object.keys(this.#entries))
      if (!kept.has(file)) delete this.#entries[file], (this.#changed = true);
    if (this.#contentsChanged && this.#contents !== undefined) {
      if (writeAtomically(this.#contentPath, { entries: this.#contents })) this.#contentsChanged = false;
    }
    if (!this.#changed) return;
    if (writeAtomically(this.#path, { key: this.#key, entries: this.#entries } satisfies CacheFile))
      this.#changed = false;
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

/** A load kept by content, as the load of `file`. */
function relocated(info: FileInfo, file: string): FileInfo {
  return {
    ...info,
    file,
    tools: info.tools.map((tool) => ({ ...tool, file })),
    diagnostics: info.diagnostics.map((diagnostic) => ({ ...diagnostic, file })),
  };
}

/** Only warnings about the file itself that say nothing of its place but its path (which a copy's own replaces). */
function placeFreeDiagnostics(info: FileInfo): boolean {
  const folder = dirname(info.file);
  return info.diagnostics.every(
    ({ file, ...rest }) => file === info.file && rest.severity === 'warning' && !JSON.stringify(rest).includes(folder),
  );
}

/** Writes `data` as JSON through a temporary file and a rename; false when it could not (a read-only home costs only speed). */
function writeAtomically(path: string, data: unknown): boolean {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(data));
    renameSync(temporary, path);
    return true;
  } catch {
    return false;
  }
}

/** The loads kept by content, for every Riverse, Node, isolation and config (each entry's key names its own). */
function readContents(path: string): Record<string, ContentEntry> {
  try {
    const file = JSON.parse(readFileSync(path, 'utf8')) as { entries: Record<string, ContentEntry> };
    if (typeof file.entries === 'object' && file.entries !== null) return file.entries;
  } catch {
    // missing or unreadable: none
  }
  return {};
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
