import { existsSync, readdirSync, watch, type Dirent, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { TOOLS_SETTINGS, withBaseDir, type AppConfig } from '../tools/app-config.ts';
import type { Diagnostic } from '../core/diagnostic.ts';
import { isToolFileName } from './find-tool-files.ts';
import { loadFiles, type FileLoad } from './load-files.ts';
import {
  registrySetup,
  scanFolders,
  ToolRegistry,
  type RegistrySetup,
  type ToolRegistryOptions,
} from './tool-registry.ts';

export type ToolChangeEvent = 'added' | 'changed' | 'removed' | 'broken' | 'fixed';

/** What one reload did to one file. */
export interface ToolChange {
  event: ToolChangeEvent;
  file: string;
  /** The file's tools after the change (before it, for `removed`). */
  tools: string[];
  /** The file's diagnostics now; for `broken`, why its last good version is still the one in use. */
  diagnostics: Diagnostic[];
}

export type ToolChangeListener = (changes: ToolChange[], registry: ToolRegistry) => void;

interface FileState {
  signature: string;
  load: FileLoad;
  /** The last version without errors, kept in use while the file is broken. */
  good: FileLoad | undefined;
}

/** How long to wait for an editor's burst of writes to settle before reloading. */
const SETTLE_MS = 60;
/** How often a tool folder that does not exist yet is looked for. */
const MISSING_FOLDER_POLL_MS = 1_000;

/**
 * The tool folders, kept loaded: watched, and reloaded file by file when one is added, changed,
 * renamed or deleted. Each reload builds a new ToolRegistry and swaps it in at once, so a turn in
 * flight finishes with the registry it started with while the next turn gets the new one. A broken
 * edit keeps the file's last good version (with the diagnostic) until it is fixed.
 */
export class LiveToolRegistry {
  /** @internal */
  setup: RegistrySetup;
  /** What the first load found, as changes (`added`, or `broken`), for tools that report every file. */
  initial: ToolChange[] = [];
  #current!: ToolRegistry;
  readonly #files = new Map<string, FileState>();
  readonly #listeners = new Set<ToolChangeListener>();
  /** Watched folders, each with its watcher; kept in step with the folders on disk after every reload. */
  readonly #watchers = new Map<string, FSWatcher>();
  #watching = false;
  #poll: NodeJS.Timeout | undefined;
  #timer: NodeJS.Timeout | undefined;
  #reloading: Promise<ToolChange[]> | undefined;
  #pending = false;
  #forceAll = false;
  /** Files to reload on the next reload although unchanged on disk (their tool's section changed). */
  readonly #forced = new Set<string>();
  #version = 0;
  /** What the last reload put in the registry, kept to compose again when a tool source changes. */
  #inUse: FileLoad[] = [];
  #folderDiagnostics: Diagnostic[] = [];
  #stopSources: Array<() => void> = [];

  private constructor(setup: RegistrySetup) {
    this.setup = setup;
  }

  /** Loads the folders and, unless `watch` is false, starts watching them. */
  static async open(options: ToolRegistryOptions & { watch?: boolean } = {}): Promise<LiveToolRegistry> {
    const live = new LiveToolRegistry(registrySetup(options));
    live.initial = await live.reload();
    live.#stopSources = live.setup.sources.map((source) => source.onChange((file) => live.#sourceChanged(file)));
    if (options.watch !== false) {
      live.#watching = true;
      live.#syncWatchers();
    }
    return live;
  }

  /** The registry now in use. Take it once per turn. */
  get current(): ToolRegistry {
    return this.#current;
  }

  /** Calls `listener` after every reload that changed something; returns a function that stops it. */
  onChange(listener: ToolChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Rescans now and reloads what changed on disk. Reloads never overlap; a request during one runs after it. */
  reload(): Promise<ToolChange[]> {
    if (this.#reloading !== undefined) {
      this.#pending = true;
      return this.#reloading;
    }
    this.#reloading = this.#reloadOnce().finally(() => {
      this.#reloading = undefined;
      if (this.#pending) {
        this.#pending = false;
        void this.reload();
      }
    });
    return this.#reloading;
  }

  /**
   * Takes a new config (a tool switched on or off in riverse.yaml) and tells the listeners, as a
   * save does. When only tools' own sections changed (`tools.<name>`: a switch), only the files
   * holding those tools are reloaded; any other change reloads every file. A reloaded file's new
   * version gets new hosts, which construct its tools with the new config. The folders stay; the
   * load cache is left out from now on, since what it knows was found with the old config.
   */
  async reconfigure(config: AppConfig): Promise<ToolChange[]> {
    const { cache: _stale, ...setup } = this.setup;
    config = withBaseDir(config, setup.baseDir);
    const sections = changedToolSections(this.setup.config, config);
    this.setup = { ...setup, config };
    setup.workers.reconfigure(config);
    if (sections === undefined) this.#forceAll = true;
    else
      for (const [file, state] of this.#files)
        if ([state.load, state.good].some((load) => load?.tools.some((tool) => sections.has(tool.name))))
          this.#forced.add(file);
    // A reload under way may have read the old config: this one starts after it.
    while (this.#reloading !== undefined) await this.#reloading.catch(() => {});
    return this.reload();
  }

  async close(): Promise<void> {
    this.#watching = false;
    clearTimeout(this.#timer);
    clearInterval(this.#poll);
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    this.#listeners.clear();
    for (const stop of this.#stopSources) stop();
    await this.setup.workers.close();
  }

  async #reloadOnce(): Promise<ToolChange[]> {
    const forceAll = this.#forceAll;
    const forced = new Set(this.#forced);
    this.#forceAll = false;
    this.#forced.clear();
    const { files, diagnostics } = await scanFolders(this.setup.folders);
    const signatures = await Promise.all(files.map(signature));
    const changed = files.filter(
      (file, index) => forceAll || forced.has(file) || this.#files.get(file)?.signature !== signatures[index],
    );
    const loads =
      changed.length === 0
        ? []
        : await loadFiles(changed, this.setup.config, this.setup.isolation, ++this.#version, this.setup.cache);
    if (loads.length > 0) this.setup.cache?.save(files);

    const changes: ToolChange[] = [];
    for (const load of loads) {
      const previous = this.#files.get(load.file);
      const broken = load.diagnostics.some((diagnostic) => diagnostic.severity === 'error');
      const event: ToolChangeEvent = broken
        ? 'broken'
        : previous === undefined
          ? 'added'
          : previous.good !== previous.load
            ? 'fixed'
            : 'changed';
      const good = broken ? previous?.good : load;
      this.#files.set(load.file, { signature: signatures[files.indexOf(load.file)]!, load, good });
      if (previous !== undefined && !broken) this.setup.workers.retire(load.file, load.version);
      changes.push({
        event,
        file: load.file,
        tools: (good ?? load).tools.map((tool) => tool.name),
        diagnostics: load.diagnostics,
      });
    }
    for (const [file, state] of this.#files) {
      if (files.includes(file)) continue;
      this.#files.delete(file);
      this.setup.workers.retire(file);
      changes.push({
        event: 'removed',
        file,
        tools: (state.good ?? state.load).tools.map((tool) => tool.name),
        diagnostics: [],
      });
    }

    // A broken file contributes its last good tools, with its current diagnostics.
    const inUse = files.map((file) => {
      const state = this.#files.get(file)!;
      return state.good === undefined || state.good === state.load
        ? state.load
        : { ...state.good, diagnostics: state.load.diagnostics };
    });
    const first = this.#current === undefined;
    // A name in use stays with its file: a newcomer that claims it is the one told, not the tool
    // that was working (whichever sorts first).
    const holders = new Map((this.#current?.list() ?? []).map((tool) => [tool.name, tool.file]));
    const outNamed = new Set(
      (this.#current?.diagnostics ?? [])
        .filter((diagnostic) => diagnostic.code === 'duplicate-name')
        .map((diagnostic) => diagnostic.file),
    );
    this.#inUse = inUse;
    this.#folderDiagnostics = diagnostics;
    this.#current = ToolRegistry.compose(this.setup, inUse, diagnostics, holders);
    // A file that lost a name and now has it (its rival was renamed or removed) is fixed, unchanged itself.
    for (const file of outNamed) {
      const state = this.#files.get(file);
      if (
        state === undefined ||
        changes.some((change) => change.file === file) ||
        this.#current.diagnostics.some((diagnostic) => diagnostic.file === file && diagnostic.severity === 'error')
      )
        continue;
      changes.push({
        event: 'fixed',
        file,
        tools: (state.good ?? state.load).tools.map((tool) => tool.name),
        diagnostics: state.load.diagnostics,
      });
    }
    for (const change of changes) {
      const lost = this.#current.diagnostics.filter(
        (diagnostic) =>
          diagnostic.code === 'duplicate-name' &&
          diagnostic.file === change.file &&
          !change.diagnostics.includes(diagnostic),
      );
      if (lost.length === 0) continue;
      change.diagnostics = [...change.diagnostics, ...lost];
      if (change.event === 'removed') continue;
      change.event = 'broken';
      change.tools = change.tools.filter((name) => this.#current.find(name)?.file === change.file);
    }
    if (this.#watching) this.#syncWatchers();
    if (!first && changes.length > 0) for (const listener of this.#listeners) listener(changes, this.#current);
    return changes;
  }

  /**
   * A tool source's tools changed (an MCP server connected, went away, or changed its list): the
   * files stay as they are, the registry is composed again, and listeners hear of it as of a file.
   */
  #sourceChanged(file: string): void {
    if (this.#current === undefined) return;
    const before = this.#current;
    const holders = new Map(before.list().map((tool) => [tool.name, tool.file]));
    this.#current = ToolRegistry.compose(this.setup, this.#inUse, this.#folderDiagnostics, holders);
    const toolsOf = (registry: ToolRegistry) =>
      registry
        .tools()
        .filter((tool) => tool.file === file)
        .map((tool) => tool.name);
    const errorsOf = (registry: ToolRegistry) => registry.diagnostics.filter((diagnostic) => diagnostic.file === file);
    const [was, now] = [toolsOf(before), toolsOf(this.#current)];
    const diagnostics = errorsOf(this.#current);
    const broken = diagnostics.some((diagnostic) => diagnostic.severity === 'error');
    const wasBroken = errorsOf(before).some((diagnostic) => diagnostic.severity === 'error');
    const event: ToolChangeEvent = broken
      ? 'broken'
      : wasBroken
        ? 'fixed'
        : was.length === 0
          ? 'added'
          : now.length === 0
            ? 'removed'
            : 'changed';
    const change: ToolChange = { event, file, tools: event === 'removed' ? was : now, diagnostics };
    for (const listener of this.#listeners) listener([change], this.#current);
  }

  /**
   * Watches every tool folder that exists and each of its subfolders, new ones included, and stops
   * watching those that are gone. One plain (non-recursive) watcher per folder: it sees files
   * replaced by a rename (editors' safe writes, `sed -i`), which Node's recursive watcher loses
   * track of. A tool folder that does not exist (yet) is looked for every second.
   */
  #syncWatchers(): void {
    const wanted = new Map<string, boolean>(); // folder → holds helpers only
    let missing = false;
    for (const folder of this.setup.folders) {
      let entries: Dirent[];
      try {
        entries = readdirSync(folder, { withFileTypes: true });
      } catch {
        missing = true; // reported as a diagnostic by the scan
        continue;
      }
      wanted.set(folder, false);
      for (const entry of entries)
        if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
          wanted.set(join(folder, entry.name), true);
    }
    for (const [folder, watcher] of this.#watchers) {
      if (wanted.has(folder)) continue;
      watcher.close();
      this.#watchers.delete(folder);
    }
    for (const [folder, helpersOnly] of wanted) if (!this.#watchers.has(folder)) this.#watchFolder(folder, helpersOnly);
    if (missing && this.#poll === undefined) {
      this.#poll = setInterval(() => {
        if (this.setup.folders.some((folder) => !this.#watchers.has(folder) && existsSync(folder)))
          this.#scheduleReload();
      }, MISSING_FOLDER_POLL_MS);
      this.#poll.unref();
    } else if (!missing && this.#poll !== undefined) {
      clearInterval(this.#poll);
      this.#poll = undefined;
    }
  }

  #watchFolder(folder: string, helpersOnly: boolean): void {
    try {
      const watcher = watch(folder, { persistent: false }, (_event, name) => {
        // A helper (`_x.ts`, a file in a subfolder) may be imported by any tool: reload them all.
        const file = typeof name === 'string' ? name : '';
        if (/\.[mc]?[jt]s$/.test(file) && (helpersOnly || !isToolFileName(file))) this.#forceAll = true;
        this.#scheduleReload();
      });
      watcher.on('error', () => {
        watcher.close();
        if (this.#watchers.get(folder) === watcher) this.#watchers.delete(folder);
      });
      this.#watchers.set(folder, watcher);
    } catch {
      // Gone already: the next reload looks again.
    }
  }

  /** Reloads once the burst of events has settled. */
  #scheduleReload(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.reload(), SETTLE_MS);
    this.#timer.unref();
  }
}

/**
 * The tools whose own sections (`tools.<name>`) differ between two configs, or undefined when
 * anything else differs too (a setting every tool reads, another section of the file).
 */
function changedToolSections(before: AppConfig, after: AppConfig): Set<string> | undefined {
  const text = (value: unknown) => JSON.stringify(value) ?? '';
  const { tools: toolsBefore = {}, ...restBefore } = before;
  const { tools: toolsAfter = {}, ...restAfter } = after;
  if (text(restBefore) !== text(restAfter)) return undefined;
  const changed = new Set<string>();
  for (const key of new Set([...Object.keys(toolsBefore), ...Object.keys(toolsAfter)])) {
    const [was, now] = [(toolsBefore as Record<string, unknown>)[key], (toolsAfter as Record<string, unknown>)[key]];
    if (text(was) === text(now)) continue;
    if ((TOOLS_SETTINGS as readonly string[]).includes(key)) return undefined;
    changed.add(key);
  }
  return changed;
}

/** Changes when the file is saved: its modification time and size. */
async function signature(file: string): Promise<string> {
  try {
    const info = await stat(file);
    return `${info.mtimeMs}:${info.size}`;
  } catch {
    return 'missing';
  }
}
