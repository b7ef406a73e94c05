import { relative, resolve } from 'node:path';
import type { AppConfig } from './app-config.ts';
import type { Diagnostic } from './diagnostic.ts';
import { executeTool, executionLimits, failure, type ExecuteOptions, type ExecutionLimits } from './execute-tool.ts';
import { findToolFiles } from './find-tool-files.ts';
import { loadToolFile, type LoadedTool } from './load-tool-file.ts';
import { registerTool, type RegisteredTool } from './registered-tool.ts';
import type { ToolResult } from './tool-result.ts';
import { suggest } from './validate-manifest.ts';

export const DEFAULT_TOOL_FOLDER = 'agent/tools';

export interface ToolRegistryOptions {
  config?: AppConfig;
  /** Where relative folders are resolved from: the config file's folder. Default: the working directory. */
  baseDir?: string;
  /** Drop-in folders; default `config.tools.dirs`, else `agent/tools`. */
  folders?: string[];
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

/**
 * The tools found in the drop-in folders, by name. Build it with `ToolRegistry.load()`;
 * loading never throws for a bad tool file — faults are in `diagnostics`.
 */
export class ToolRegistry {
  readonly folders: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  readonly #available: ReadonlyMap<string, RegisteredTool>;
  readonly #unavailable: readonly LoadedTool[];
  readonly #limits: ExecutionLimits;

  private constructor(folders: string[], tools: LoadedTool[], diagnostics: Diagnostic[], limits: ExecutionLimits) {
    this.folders = folders;
    this.diagnostics = diagnostics;
    this.#available = new Map(tools.filter((tool) => tool.available).map((tool) => [tool.name, registerTool(tool)]));
    this.#unavailable = tools.filter((tool) => !tool.available);
    this.#limits = limits;
  }

  static async load(options: ToolRegistryOptions = {}): Promise<ToolRegistry> {
    const config = options.config ?? {};
    const baseDir = options.baseDir ?? process.cwd();
    const folders = (options.folders ?? config.tools?.dirs ?? [DEFAULT_TOOL_FOLDER]).map((folder) => resolve(baseDir, folder));
    const diagnostics: Diagnostic[] = [];
    const version = ++loadCount;

    const files: string[] = [];
    for (const folder of folders) {
      const found = await findToolFiles(folder);
      if (found === undefined) {
        diagnostics.push({ severity: 'warning', code: 'folder-missing', file: folder, message: 'the tool folder does not exist', hint: 'create it, or change tools.dirs in the config' });
      } else files.push(...found);
    }
    const loads = await Promise.all([...new Set(files)].map((file) => loadToolFile(file, config, version)));

    // Folders in order, files sorted: the first file to claim a name keeps it, on every machine.
    const byName = new Map<string, LoadedTool>();
    for (const load of loads) {
      diagnostics.push(...load.diagnostics);
      for (const tool of load.tools) {
        const first = byName.get(tool.name);
        if (first === undefined) {
          byName.set(tool.name, tool);
          continue;
        }
        const where = (file: string) => relative(baseDir, file) || file;
        diagnostics.push({
          severity: 'error',
          code: 'duplicate-name',
          file: tool.file,
          tool: tool.name,
          message: `the tool name "${tool.name}" is already taken by ${where(first.file)}; this one is not registered`,
          hint: `rename one of them (manifest().name) or delete the copy; ${where(first.file)} keeps the name`,
        });
      }
    }

    return new ToolRegistry(folders, [...byName.values()], diagnostics, executionLimits(config));
  }

  /** The available tools, by name. */
  tools(): RegisteredTool[] {
    return [...this.#available.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): RegisteredTool | undefined {
    return this.#available.get(name);
  }

  /** A tool found by name, available or not. */
  find(name: string): LoadedTool | undefined {
    return this.#available.get(name) ?? this.#unavailable.find((tool) => tool.name === name);
  }

  /** Says a name is unknown, with the closest match and the tools that do exist. */
  unknownToolMessage(name: string): string {
    const known = [...this.#available.keys()].sort();
    if (known.length === 0) return `Unknown tool "${name}": no tools are available.`;
    return `Unknown tool "${name}"${suggest(name, known)}. Available tools: ${known.join(', ')}.`;
  }

  /** Every tool found, available or not, by name. */
  list(): ToolListing[] {
    const rows: ToolListing[] = [
      ...[...this.#available.values()].map(({ name, file }) => ({ name, file, available: true })),
      ...this.#unavailable.map(({ name, file, reason }) => ({ name, file, available: false, ...(reason === undefined ? {} : { reason }) })),
    ];
    return rows.sort((a, b) => a.name.localeCompare(b.name));
  }

  get hasErrors(): boolean {
    return this.diagnostics.some((diagnostic) => diagnostic.severity === 'error');
  }

  /**
   * Runs a tool by name: parameters validated and coerced, time-limited, cancellable.
   * Never throws; every fault is a failed ToolResult.
   */
  async execute(name: string, params?: unknown, options?: ExecuteOptions): Promise<ToolResult> {
    const entry = this.#available.get(name);
    if (entry !== undefined) return executeTool(entry, params, options, this.#limits);
    const off = this.#unavailable.find((tool) => tool.name === name);
    if (off !== undefined) return failure('unavailable', `Tool "${name}" is unavailable: ${off.reason ?? 'isAvailable() returned false'}.`);
    return failure('unknown-tool', this.unknownToolMessage(name));
  }

  /** Runs calls concurrently; results come back in the order of the calls. */
  executeAll(calls: readonly ToolCall[], options?: ExecuteOptions): Promise<ToolResult[]> {
    return Promise.all(calls.map((call) => this.execute(call.name, call.params, options)));
  }
}
