import { TOOLS_SETTINGS } from '../tools/app-config.ts';
import type { RiverseConfig } from './riverse-config.ts';

/**
 * The config with the dashboard's tool switches (kept in the store, shared by replicas) over
 * riverse.yaml's `tools.<name>.enabled`: the file's entries are the defaults, a stored switch wins.
 * The file itself is never written.
 */
export function withToolSwitches(config: RiverseConfig, switches: ReadonlyMap<string, boolean>): RiverseConfig {
  if (switches.size === 0) return config;
  const tools: Record<string, unknown> = { ...config.tools };
  for (const [name, enabled] of switches) {
    // tools.enabled, tools.dirs…: settings, never a tool's switch (the route refuses those names).
    if ((TOOLS_SETTINGS as readonly string[]).includes(name)) continue;
    const section = tools[name];
    tools[name] = { ...(typeof section === 'object' && section !== null ? section : {}), enabled };
  }
  return { ...config, tools };
}
