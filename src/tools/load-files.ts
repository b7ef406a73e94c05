import { readFile } from 'node:fs/promises';
import type { AppConfig } from './app-config.ts';
import { toolSection } from './app-config.ts';
import type { BaseTool } from './base-tool.ts';
import type { Diagnostic } from './diagnostic.ts';
import { loadInWorkers } from './isolation/load-in-workers.ts';
import { loadToolFile, type ToolInfo } from './load-tool-file.ts';

export type Isolation = 'worker' | 'none';

/** One file as loaded: its tools (with instances for those that run in this thread) and diagnostics. */
export interface FileLoad {
  file: string;
  version: number;
  /** The file's text as loaded (what its isolated tools run, whatever the file holds later). */
  source: string;
  tools: Array<ToolInfo & { tool?: BaseTool }>;
  diagnostics: Diagnostic[];
}

/** How long one file's top-level code and isAvailable() may take in the loader worker. */
const FILE_TIMEOUT_MS = 10_000;

/**
 * Loads tool files. Isolated (the default), they are imported in loader workers, so no tool code
 * runs in this thread; only trusted tools (`tools.<name>.trusted: true`) are imported here too, to
 * run in-process. With isolation `none` everything is imported here.
 */
export async function loadFiles(files: readonly string[], config: AppConfig, isolation: Isolation, version: number): Promise<FileLoad[]> {
  const sources = await Promise.all(files.map(async (file) => ({ file, source: await readFile(file, 'utf8').catch(() => '') })));
  if (isolation === 'none') {
    return Promise.all(sources.map(async ({ file, source }) => ({ version, source, ...(await loadToolFile(file, config, version)) })));
  }
  const infos = await loadInWorkers(sources, config, version, { fileTimeoutMs: FILE_TIMEOUT_MS, memoryMb: config.tools?.memory_mb ?? 256 });
  return Promise.all(
    infos.map(async (info, index): Promise<FileLoad> => {
      const source = sources[index]!.source;
      if (!info.tools.some((tool) => tool.available && toolSection(config, tool.name).trusted === true)) return { version, source, ...info };
      const local = await loadToolFile(info.file, config, version, { checkAvailability: false });
      const instances = new Map(local.tools.map((tool) => [tool.name, tool.tool]));
      return { version, source, ...info, tools: info.tools.map((tool) => (toolSection(config, tool.name).trusted === true && instances.has(tool.name) ? { ...tool, tool: instances.get(tool.name)! } : tool)) };
    }),
  );
}
