import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import {
  DEFAULT_ISOLATION,
  toolIsolation,
  toolSection,
  turnedOff,
  withBaseDir,
  type AppConfig,
  type Isolation,
} from '../tools/app-config.ts';
import { formatDiagnostic, said, type Diagnostic } from '../core/diagnostic.ts';
import { errorMessage } from './error-location.ts';
import { executeTool, executionLimits, failure, type ExecuteOptions, type ExecutionLimits } from './execute-tool.ts';
import { BUILTIN_TOOL_FOLDER, BUILTINS_BY_DEFAULT } from './builtin-tools.ts';
import { findToolFiles } from './find-tool-files.ts';
import { isDeclaredToolFile } from './declarative/declared-file-name.ts';
import { isolatedRunner } from './isolation/isolated-runner.ts';
import { ToolWorkers, type HostChoice } from './isolation/tool-workers.ts';
import { warmParamsCheckers } from './check-params.ts';
import { keepValidatorsIn } from './kept-validators.ts';
import { LoadCache } from './load-cache.ts';
import { loadFiles, type FileLoad } from './load-files.ts';
import type { ToolInfo } from './load-tool-file.ts';
import { registerTool, type RegisteredTool } from './registered-tool.ts';
import { compareToolNames } from './tool-name-order.ts';
import type { CheckedToolResult } from '../tools/tool-result.ts';
import type { ToolSource } from './tool-source.ts';
import { closestWord } from '../core/closest-word.ts';
import { english, localizeReason, renderPhrase } from '../core/phrase.ts';
import { phrase } from './runtime-phrases.ts';
import type { Language } from '../core/language.ts';

export const DEFAULT_TOOL_FOLDER = 'agent/tools';

export interface ToolRegistryOptions {
  config?: AppConfig;
  /** Where relative folders are resolved from: the config file's folder. Default: the working directory. */
  baseDir?: string;
  /** Drop-in folders; default `config.tools.dirs`, else `agent/tools`. */
  folders?: string[];
  /**
   * Whether the built-in tools are loaded after the folders. Default: false when `folders` names
   * them or `config.tools.builtins` is false; else true in the package (in a checkout, they are its
   * default folder).
   */
  builtins?: boolean;
  /** `process` (default; `tools.isolation` in the config): tools load and run in child processes; `worker`: in worker threads. */
  isolation?: Isolation;
  /** @internal The workers that run isolated calls; successive registries of a live catalog share them. */
  workers?: ToolWorkers;
  /**
   * Where to keep what loading found, so that unchanged files are not imported at the next start
   * (the CLI uses `defaultCacheDir()`), and the argument validators compiled for them (030); no cache when left out.
   */
  cacheDir?: string;
  /** Tools from elsewhere (MCP servers), taken into every snapshot beside the files' tools. */
  sources?: readonly ToolSource[];
}

/** What every registry of one set-up shares: where tools come from, and how they run. */
export interface RegistrySetup {
  config: AppConfig;
  baseDir: string;
  folders: string[];
  /** The built-in tools' folder, when it is one of `folders`: an app's tool of the same name replaces a built-in one. */
  builtins?: string;
  isolation: Isolation;
  workers: ToolWorkers;
  /** What earlier loads found, when a cache folder was given. */
  cache?: LoadCache;
  /** Tools from elsewhere (ToolSource), beside the files' tools. */
  sources: readonly ToolSource[];
}

/** One row of `riverse tools list`. */
export interface ToolListing {
  name: string;
  file: string;
  available: boolean;
  reason?: string;
}

export interface ToolCall {
  name: string;
  params?: unknown;
}

let loadCount = 0;
let paramsCheckersWarmed = false;

/**
 * The tools found in the drop-in folders, by name: a snapshot that never changes (a reload makes
 * a new one). Build it with `ToolRegistry.load()`; loading never throws for a bad tool file —
 * faults are in `diagnostics`.
 */
export class ToolRegistry {
  readonly folders: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  /** @internal The files this snapshot was built from. */
  readonly files: readonly FileLoad[];
  readonly #available: ReadonlyMap<string, RegisteredTool>;
  readonly #unavailable: readonly ToolInfo[];
  readonly #limits: ExecutionLimits;
  readonly #workers: ToolWorkers;
  /** The kind of spare host prewarm() keeps ready ('none': every tool runs in-process). */
  #spareKind: Isolation | undefined;

  private constructor(setup: RegistrySetup, files: FileLoad[], tools: FileLoad['tools'], diagnostics: Diagnostic[]) {
    this.folders = setup.folders;
    this.files = files;
    this.diagnostics = diagnostics;
    const byFile = new Map(files.map((load) => [load.file, load]));
    const hosts = hostChoices(setup, tools);
    const available = new Map(
      tools
        .filter((tool) => tool.available)
        .map((tool) => [tool.name, register(tool, setup, byFile.get(tool.file)!, hosts.get(tool.file))]),
    );
    const unavailable: ToolInfo[] = tools.filter((tool) => !tool.available);
    // A source's tool whose name a file holds is left out (the source names its tools so that this is rare).
    const holder = (name: string) => available.get(name)?.file ?? unavailable.find((tool) => tool.name === name)?.file;
    const admit = (tool: { name: string; file: string }) => {
      const file = holder(tool.name);
      if (file === undefined) return true;
      const where = relative(setup.baseDir, file) || file;
      diagnostics.push({
        severity: 'error',
        code: 'duplicate-name',
        file: tool.file,
        tool: tool.name,
        ...said(
          phrase('load.name-taken', { name: tool.name, holder: where }),
          phrase('load.name-taken.hint', { holder: where, first: true }),
        ),
      });
      return false;
    };
    for (const source of setup.sources) {
      const found = source.snapshot();
      for (const tool of found.tools) {
        if (!admit(tool)) continue;
        // Switched off in riverse.yaml like any tool (the dashboard's switch included).
        const off = turnedOff(setup.config.tools)
          ? phrase('reason.all-off')
          : turnedOff(toolSection(setup.config, tool.name))
            ? phrase('reason.turned-off', { name: tool.name })
            : undefined;
        if (off === undefined) available.set(tool.name, tool);
        else
          unavailable.push({
            name: tool.name,
            file: tool.file,
            manifest: tool.manifest,
            available: false,
            reason: english(off),
            reasonText: off,
          });
      }
      for (const tool of found.unavailable) if (admit(tool)) unavailable.push(tool);
      diagnostics.push(...found.diagnostics);
    }
    this.#available = available;
    this.#unavailable = unavailable;
    this.#limits = executionLimits(setup.config);
    this.#workers = setup.workers;
  }

  static async load(options: ToolRegistryOptions = {}): Promise<ToolRegistry> {
    const setup = registrySetup(options);
    const { files, diagnostics } = await scanFolders(setup.folders);
    const loads = await loadFiles(files, setup.config, setup.isolation, ++loadCount, setup.cache);
    setup.cache?.save(files);
    await Promise.all(setup.sources.map((source) => source.ready?.()));
    return ToolRegistry.compose(setup, loads, diagnostics);
  }

  /**
   * @internal
   * A registry from loaded files. A name claimed twice goes to the file in `holders` (name → file:
   * the registry in use, on a reload), so a running tool keeps its name and the newcomer gets the
   * diagnostic; else to the first claimant, folders in order and files sorted, the same on every machine.
   */
  static compose(
    setup: RegistrySetup,
    loads: FileLoad[],
    folderDiagnostics: readonly Diagnostic[] = [],
    holders: ReadonlyMap<string, string> = new Map(),
  ): ToolRegistry {
    const diagnostics = [...folderDiagnostics];
    const claims = new Map<string, Array<FileLoad['tools'][number]>>();
    for (const load of loads) {
      diagnostics.push(...load.diagnostics);
      for (const tool of load.tools) claims.set(tool.name, [...(claims.get(tool.name) ?? []), tool]);
    }
    const where = (file: string) => relative(setup.baseDir, file) || file;
    const kept: Array<FileLoad['tools'][number]> = [];
    for (const [name, claimants] of claims) {
      const held = claimants.find((tool) => tool.file === holders.get(name));
      // A built-in holding the name yields it to an app's tool saved meanwhile, as at a start.
      const holder =
        held !== undefined && isBuiltin(setup, held.file)
          ? claimants.find((tool) => !isBuiltin(setup, tool.file))
          : held;
      const winner = holder ?? held ?? claimants[0]!;
      kept.push(winner);
      for (const tool of claimants) {
        if (tool === winner || replacedBuiltin(setup, tool.file, winner.file)) continue;
        diagnostics.push({
          severity: 'error',
          code: 'duplicate-name',
          file: tool.file,
          tool: name,
          ...said(
            phrase('load.name-taken', { name, holder: where(winner.file) }),
            phrase('load.name-taken.hint', { holder: where(winner.file), first: holder !== undefined }),
          ),
        });
      }
    }
    return new ToolRegistry(setup, loads, kept, diagnostics);
  }

  /** The available tools, by name. */
  tools(): RegisteredTool[] {
    return [...this.#available.values()].sort((a, b) => compareToolNames(a.name, b.name));
  }

  get(name: string): RegisteredTool | undefined {
    return this.#available.get(name);
  }

  /** A tool found by name, available or not. */
  find(name: string): ToolInfo | undefined {
    const entry = this.#available.get(name);
    if (entry !== undefined) return { name, file: entry.file, manifest: entry.manifest, available: true };
    return this.#unavailable.find((tool) => tool.name === name);
  }

  /**
   * Why a name that is not registered did not load: the errors of a tool of that name, else of the
   * file or class named after it (`weather` → `weather.ts`, `WeatherTool`), whose manifest, and so
   * whose name, may never have been read.
   */
  loadFailures(name: string): Diagnostic[] {
    if (this.find(name) !== undefined) return [];
    const errors = this.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
    const named = errors.filter((diagnostic) => diagnostic.tool === name);
    if (named.length > 0) return named;
    const key = nameKey(name);
    return errors.filter(
      (diagnostic) =>
        nameKey(basename(diagnostic.file, extname(diagnostic.file))) === key ||
        (diagnostic.tool !== undefined && nameKey(diagnostic.tool) === key),
    );
  }

  /**
   * Says a name is unknown: why its file did not load, if one by that name failed; else the closest
   * match and the tools that do exist. In English unless `language` says otherwise (a model reads
   * it in English; a person at the command line, in theirs).
   */
  unknownToolMessage(name: string, language: Language = 'en'): string {
    const failures = this.loadFailures(name);
    if (failures.length > 0) {
      return renderPhrase(
        phrase('registry.did-not-load', {
          name,
          diagnostics: failures.map((diagnostic) => formatDiagnostic(diagnostic, process.cwd(), language)).join('\n'),
        }),
        language,
      )!;
    }
    const known = [...this.#available.keys()].sort();
    // A file whose tools are not known (it did not get as far as naming them) may be the one meant.
    const listed = new Set(this.list().map((tool) => tool.file));
    const unread = new Map<string, Diagnostic>();
    for (const diagnostic of this.diagnostics) {
      if (
        diagnostic.severity === 'error' &&
        UNNAMED_FAULTS.has(diagnostic.code) &&
        !listed.has(diagnostic.file) &&
        !unread.has(diagnostic.file)
      )
        unread.set(diagnostic.file, diagnostic);
    }
    const where = (diagnostic: Diagnostic) =>
      `${relative(process.cwd(), diagnostic.file) || diagnostic.file}${diagnostic.line === undefined ? '' : `:${diagnostic.line}`} (${diagnostic.code})`;
    const unknown = phrase('registry.unknown', {
      name,
      near: known.length === 0 ? undefined : closestWord(name, known),
      known: known.join(', '),
      unread: [...unread.values()].map(where).join(', '),
    });
    return renderPhrase(unknown, language)!;
  }

  /** Says why a tool that was found is off (undefined for any other name), in English unless `language` says otherwise. */
  unavailableMessage(name: string, language: Language = 'en'): string | undefined {
    const off = this.#unavailable.find((tool) => tool.name === name);
    if (off === undefined) return undefined;
    const reason = localizeReason(off, language) ?? renderPhrase(phrase('reason.returned-false'), language)!;
    return renderPhrase(phrase('registry.unavailable', { name, reason }), language);
  }

  /** Every tool found, available or not, by name. */
  list(): ToolListing[] {
    const rows: ToolListing[] = [
      ...[...this.#available.values()].map(({ name, file }) => ({ name, file, available: true })),
      ...this.#unavailable.map(({ name, file, reason }) => ({
        name,
        file,
        available: false,
        ...(reason === undefined ? {} : { reason }),
      })),
    ];
    return rows.sort((a, b) => compareToolNames(a.name, b.name));
  }

  get hasErrors(): boolean {
    return this.diagnostics.some((diagnostic) => diagnostic.severity === 'error');
  }

  /**
   * Runs a tool by name: parameters validated and coerced, time-limited, cancellable.
   * Never throws; every fault is a failed ToolResult.
   */
  async execute(name: string, params?: unknown, options?: ExecuteOptions): Promise<CheckedToolResult> {
    const entry = this.#available.get(name);
    if (entry !== undefined) return executeTool(entry, params, options, this.#limits);
    const off = this.#unavailable.find((tool) => tool.name === name);
    if (off !== undefined) return failure('unavailable', this.unavailableMessage(name)!);
    return failure('unknown-tool', this.unknownToolMessage(name));
  }

  /**
   * Starts a spare tool host ahead of the first call of an isolated tool, so that the call pays
   * only for its file's import (the assistant does this at the start of every turn). Cheap when
   * one is ready already; nothing when every tool runs in-process.
   */
  prewarm(): void {
    if (this.#available.size === 0) return;
    // Worked out once per snapshot: this runs at the start of every turn.
    if (this.#spareKind === undefined) {
      const kinds = new Set([...this.#available.values()].map((tool) => tool.isolation));
      this.#spareKind = kinds.has('process') ? 'process' : kinds.has('worker') ? 'worker' : 'none';
    }
    if (this.#spareKind !== 'none') this.#workers.prewarm(this.#spareKind);
    // The argument validators too, once, a moment later: after the model request has gone out.
    if (!paramsCheckersWarmed) {
      paramsCheckersWarmed = true;
      setTimeout(warmParamsCheckers, 10).unref();
    }
  }

  /** Runs calls concurrently; results come back in the order of the calls. */
  executeAll(calls: readonly ToolCall[], options?: ExecuteOptions): Promise<CheckedToolResult[]> {
    return Promise.all(calls.map((call) => this.execute(call.name, call.params, options)));
  }
}

/** Faults that keep a file from naming its tools. */
const UNNAMED_FAULTS: ReadonlySet<Diagnostic['code']> = new Set([
  'syntax-error',
  'import-failed',
  'load-timeout',
  'load-crashed',
  'constructor-threw',
  'manifest-threw',
  'invalid-manifest',
]);

/** A name as files, classes and tools spell it alike: `my-tool.ts`, `MyToolTool`, `my_tool` → `mytool`. */
function nameKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/(.)tool$/, '$1');
}

/** The set-up from options and config: folders resolved, isolation chosen, workers created. */
export function registrySetup(options: ToolRegistryOptions): RegistrySetup {
  const baseDir = options.baseDir ?? process.cwd();
  const config = withBaseDir(options.config ?? {}, baseDir);
  const named = (options.folders ?? config.tools?.dirs ?? [DEFAULT_TOOL_FOLDER]).map((folder) =>
    resolve(baseDir, folder),
  );
  const off = options.builtins === false || (options.builtins === undefined && config.tools?.builtins === false);
  const builtins = !off && (options.builtins === true || (options.folders === undefined && BUILTINS_BY_DEFAULT));
  // Turned off, they are left out even where a folder names them: in a checkout they are its agent/tools.
  const folders = builtins
    ? [...new Set([...named, BUILTIN_TOOL_FOLDER])]
    : named.filter((folder) => !off || folder !== BUILTIN_TOOL_FOLDER);
  const isolation = options.isolation ?? config.tools?.isolation ?? DEFAULT_ISOLATION;
  // The process's argument validators are kept there too (one set for the process, as Ajv is).
  if (options.cacheDir !== undefined) keepValidatorsIn(join(options.cacheDir, 'validators'));
  return {
    config,
    baseDir,
    folders,
    ...(builtins ? { builtins: BUILTIN_TOOL_FOLDER } : {}),
    isolation,
    workers: options.workers ?? new ToolWorkers(config, ToolWorkers.optionsFor(config)),
    sources: options.sources ?? [],
    ...(options.cacheDir === undefined ? {} : { cache: LoadCache.open(options.cacheDir, folders, config, isolation) }),
  };
}

/** A file of the built-in tools' folder, when the built-ins are loaded beside the app's own. */
function isBuiltin(setup: RegistrySetup, file: string): boolean {
  return setup.builtins !== undefined && dirname(file) === setup.builtins;
}

/** A built-in tool whose name a tool of the app's own folders took: replaced, as the app meant, with no fault. */
function replacedBuiltin(setup: RegistrySetup, file: string, winner: string): boolean {
  return isBuiltin(setup, file) && !isBuiltin(setup, winner);
}

/** The tool files of every folder, in order; a missing folder is a warning. */
export async function scanFolders(folders: readonly string[]): Promise<{ files: string[]; diagnostics: Diagnostic[] }> {
  const files: string[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const folder of folders) {
    let found: string[] | undefined;
    try {
      found = await findToolFiles(folder);
    } catch (error) {
      diagnostics.push({
        severity: 'error',
        code: 'folder-unreadable',
        file: folder,
        ...said(
          phrase('load.folder-unreadable', { error: errorMessage(error) }),
          phrase('load.folder-unreadable.hint'),
        ),
      });
      continue;
    }
    if (found === undefined) {
      diagnostics.push({
        severity: 'warning',
        code: 'folder-missing',
        file: folder,
        ...said(phrase('load.folder-missing'), phrase('load.folder-missing.hint')),
      });
    } else files.push(...found);
  }
  return { files: [...new Set(files)], diagnostics };
}

/**
 * Where each file's isolated tools run. A file's tools share one host: the strongest isolation any
 * of them asks for (a process over a worker), and the largest memory limit.
 */
function hostChoices(setup: RegistrySetup, tools: FileLoad['tools']): Map<string, HostChoice> {
  const hosts = new Map<string, HostChoice>();
  for (const tool of tools) {
    const isolation = toolIsolation(setup.config, tool.name, setup.isolation);
    // A declared tool (*.tools.yaml) runs no user code: its instance runs here.
    if (isolation === 'none' || isDeclaredToolFile(tool.file)) continue;
    const limit = toolSection(setup.config, tool.name).memory_mb;
    const host = hosts.get(tool.file) ?? { kind: isolation };
    if (isolation === 'process') host.kind = 'process';
    if (typeof limit === 'number') host.memoryMb = Math.max(limit, host.memoryMb ?? 0);
    hosts.set(tool.file, host);
  }
  return hosts;
}

function register(
  tool: FileLoad['tools'][number],
  setup: RegistrySetup,
  load: FileLoad,
  host: HostChoice | undefined,
): RegisteredTool {
  const instance = tool.tool;
  // A tool asking for a host runs in one even when everything was loaded here (`tools.isolation: none`).
  if (host !== undefined || instance === undefined) {
    const choice: HostChoice = host ?? { kind: 'process' };
    return registerTool(
      tool,
      setup.config,
      isolatedRunner(setup.workers, load, load.version, tool.name, choice),
      choice.kind,
    );
  }
  return registerTool(tool, setup.config, (params, context) => instance.execute(params, context), 'none');
}
