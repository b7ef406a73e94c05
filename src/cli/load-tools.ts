import { loadConfig, type LoadedConfig } from '../config/load-config.ts';
import { ToolRegistry } from '../tools/tool-registry.ts';

export interface GlobalOptions {
  config?: string;
}

/** Loads the config and the tool registry the way every `riverse tools` command does. */
export async function loadTools(options: GlobalOptions): Promise<{ loaded: LoadedConfig; registry: ToolRegistry }> {
  const loaded = await loadConfig(options.config === undefined ? {} : { path: options.config });
  const registry = await ToolRegistry.load({ config: loaded.config, baseDir: loaded.baseDir });
  return { loaded, registry };
}
