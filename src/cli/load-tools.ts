import type { LoadedConfig } from '../config/load-config.ts';
import { loadCliConfig } from './cli-config.ts';
import { openMcp } from './open-mcp.ts';
import { defaultCacheDir } from '../tool-runtime/load-cache.ts';
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import type { Language } from '../core/language.ts';

export interface GlobalOptions {
  config?: string;
  /** The language the command speaks, chosen once for it (`commandLanguage`). */
  language: Language;
}

/** Loads the config and the tool registry (drop-in files and MCP servers, loaded side by side) the way every `riverse tools` command does. */
export async function loadTools(options: GlobalOptions): Promise<{ loaded: LoadedConfig; registry: ToolRegistry }> {
  const loaded = await loadCliConfig(options.config);
  // The servers start now; the registry waits for them once the files are loaded.
  const mcp = await openMcp(loaded.config, loaded.baseDir);
  const registry = await ToolRegistry.load({
    config: loaded.config,
    baseDir: loaded.baseDir,
    cacheDir: defaultCacheDir(),
    ...(mcp === undefined ? {} : { sources: [mcp] }),
  });
  return { loaded, registry };
}
