import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { toolIsolation, type AppConfig, type Isolation } from '../tools/app-config.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import { said, type Diagnostic } from '../core/diagnostic.ts';
import { errorMessage } from './error-location.ts';
import { phrase } from './runtime-phrases.ts';
import type { SourceFile } from './isolation/load-in-workers.ts';
import type { FileInfo } from './isolation/worker-messages.ts';
import type { LoadCache } from './load-cache.ts';
import type { ToolInfo } from './load-tool-file.ts';
import { isDeclaredToolFile } from './declarative/declared-file-name.ts';
import { prepareJavaScript, withJavaScriptSnapshot } from './typescript-hooks.ts';

/** One file as loaded: its tools (with instances for those that run in this thread) and diagnostics. */
export interface FileLoad {
  file: string;
  version: number;
  /** The file's text as loaded (what its isolated tools run, whatever the file holds later). */
  source: string;
  tools: Array<ToolInfo & { tool?: BaseTool }>;
  diagnostics: Diagnostic[];
  /** The CPU time its load took in its loader, in ms (when it loaded in one: from the cache, the time it last did). */
  loadMs?: number;
}

/** How long one file's top-level code and isAvailable() may take in its loader (`tools.load_timeout_ms`). */
const DEFAULT_LOAD_TIMEOUT_MS = 10_000;

/**
 * Loads tool files. Isolated (the default), they are imported in loaders of the same kind as the
 * tools will run in, so no tool code runs in this thread; only the tools that run in-process
 * (`tools.<name>.isolation: none`, or `trusted: true`) are imported here too. With isolation
 * `none` everything is imported here.
 */
export async function loadFiles(
  files: readonly string[],
  config: AppConfig,
  isolation: Isolation,
  version: number,
  cache?: LoadCache,
): Promise<FileLoad[]> {
  const read = files.map((file) => ({ file, ...readSource(file) }));
  const sources = read.filter((entry): entry is SourceFile => entry.source !== undefined);
  // A file that cannot be read as a tool file (a link to a device, a pipe; too large) is reported, not loaded.
  const unreadable: FileLoad[] = read.flatMap((entry) =>
    entry.problem === undefined
      ? []
      : [{ file: entry.file, version, source: '', tools: [], diagnostics: [entry.problem] }],
  );
  // Declared tools run no code of their author's, so they are read here, not imported in loaders.
  const declaredFiles = sources.filter(({ file }) => isDeclaredToolFile(file));
  // The YAML parser is loaded only where there is YAML to read.
  const declared =
    declaredFiles.length === 0
      ? []
      : import('./declarative/declared-tool-file.ts').then(({ loadDeclaredToolFile }) =>
          Promise.all(
            declaredFiles.map(async ({ file, source }) => ({
              version,
              source,
              ...(await loadDeclaredToolFile(file, source, config)),
            })),
          ),
        );
  const code = loadSources(
    sources.filter(({ file }) => !isDeclaredToolFile(file)),
    config,
    isolation,
    version,
    cache,
  );
  // In the order of `files` (folder, then name), which decides who keeps a name claimed twice.
  const order = new Map(files.map((file, index) => [file, index]));
  return [...unreadable, ...(await declared), ...(await code)].sort((a, b) => order.get(a.file)! - order.get(b.file)!);
}

async function loadSources(
  sources: SourceFile[],
  config: AppConfig,
  isolation: Isolation,
  version: number,
  cache: LoadCache | undefined,
): Promise<FileLoad[]> {
  // The loading machinery is imported when there is something to load: a start the cache answers needs none of it.
  const loadToolFile = async (...args: Parameters<typeof import('./load-tool-file.ts').loadToolFile>) =>
    (await import('./load-tool-file.ts')).loadToolFile(...args);
  if (isolation === 'none') {
    return Promise.all(
      sources.map(async ({ file, source }) => ({ version, source, ...(await loadToolFile(file, config, version)) })),
    );
  }
  // What the cache still knows is not imported again; the rest loads in loaders, and is kept for next time.
  const infos = sources.map(({ file, source }) => cache?.lookup(file, source));
  const missing = sources.filter((_, index) => infos[index] === undefined);
  const loaded =
    missing.length === 0
      ? []
      : await (await import('./isolation/load-in-workers.ts')).loadInWorkers(missing, config, version, {
          kind: isolation,
          fileTimeoutMs: config.tools?.load_timeout_ms ?? DEFAULT_LOAD_TIMEOUT_MS,
          memoryMb: config.tools?.memory_mb ?? 256,
        });
  for (const [index, info] of loaded.entries()) cache?.store(missing[index]!.file, missing[index]!.source, info);
  let next = 0;
  for (const [index, info] of infos.entries()) if (info === undefined) infos[index] = loaded[next++];
  return Promise.all(
    (infos as FileInfo[]).map(async (info, index): Promise<FileLoad> => {
      const source = sources[index]!.source;
      const inProcess = (name: string) => toolIsolation(config, name, isolation) === 'none';
      if (!info.tools.some((tool) => tool.available && inProcess(tool.name))) return { version, source, ...info };
      // The loader's JavaScript of the file, when it sent it: no type stripper needed in this process.
      // Else made here, and kept with the file's load, so that the next start needs none either.
      const importHere = () => loadToolFile(info.file, config, version, { checkAvailability: false });
      let javascript = info.javascript;
      if (javascript === undefined && cache !== undefined) {
        javascript = prepareJavaScript(info.file, source);
        if (javascript !== undefined) cache.keepJavaScript(info.file, source, javascript);
      }
      const local = await (javascript === undefined
        ? importHere()
        : withJavaScriptSnapshot(info.file, javascript, importHere));
      const instances = new Map(local.tools.map((tool) => [tool.name, tool.tool]));
      // A tool that loaded in its loader but not here (an import that fails in Riverse's own process) is off, saying why.
      const failed = local.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
      const tools = info.tools.map((tool) => {
        if (!inProcess(tool.name) || !tool.available) return tool;
        const instance = instances.get(tool.name);
        if (instance !== undefined) return { ...tool, tool: instance };
        return {
          ...tool,
          available: false,
          reason: `it could not be loaded in Riverse's own process to run there: ${failed?.message ?? 'the file no longer defines it'}`,
        };
      });
      return {
        version,
        source,
        ...info,
        tools,
        diagnostics: [
          ...info.diagnostics,
          ...local.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
        ],
      };
    }),
  );
}

/** The most a tool file may hold: it is code, and its text is kept with every version loaded. */
const MAX_TOOL_FILE_BYTES = 4 * 1024 * 1024;

/**
 * A tool file's text, read at once (for a thousand small files, promises cost more than the reads).
 * Opened without blocking and checked to be a regular file of bounded size: a link to a pipe, a
 * device or an endless file must not hang or swell Riverse.
 */
function readSource(file: string): { source?: string; problem?: Diagnostic } {
  const unreadable = (error: string): { problem: Diagnostic } => ({
    problem: {
      severity: 'error',
      code: 'file-unreadable',
      file,
      ...said(phrase('load.file-unreadable', { error }), phrase('load.file-unreadable.hint')),
    },
  });
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return unreadable(errorMessage(error));
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return unreadable(stats.isDirectory() ? 'it is a folder' : 'it is not a regular file');
    if (stats.size > MAX_TOOL_FILE_BYTES) {
      const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
      return {
        problem: {
          severity: 'error',
          code: 'file-unreadable',
          file,
          ...said(
            phrase('load.file-too-large', { bytes: mb(stats.size), max: mb(MAX_TOOL_FILE_BYTES) }),
            phrase('load.file-too-large.hint'),
          ),
        },
      };
    }
    return { source: readFileSync(fd, 'utf8') };
  } catch (error) {
    return unreadable(errorMessage(error));
  } finally {
    closeSync(fd);
  }
}
