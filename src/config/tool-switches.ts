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

/**
 * The stored switches `config` does not carry yet (a tool's `enabled` differs): what a switch made
 * by another replica changes here. Settings' names are left out, as `withToolSwitches` leaves them.
 */
export function switchesToApply(config: RiverseConfig, switches: ReadonlyMap<string, boolean>): Map<string, boolean> {
  const tools = (config.tools ?? {}) as Record<string, unknown>;
  const changed = new Map<string, boolean>();
  for (const [name, enabled] of switches) {
    if ((TOOLS_SETTINGS as readonly string[]).includes(name)) continue;
    const section = tools[name];
    const current =
      typeof section === 'object' && section !== null ? (section as { enabled?: unknown }).enabled : undefined;
    if (current !== enabled) changed.set(name, enabled);
  }
  return changed;
}
