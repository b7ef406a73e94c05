import { resolve } from 'node:path';
import type { RiverseConfig } from '../config/riverse-config.ts';
import { defaultDataDir } from '../store/data-dir.ts';
import { enabledServers } from '../mcp/mcp-settings.ts';
import type { McpTools } from '../mcp/mcp-tools.ts';

const opened = new Set<McpTools>();

/**
 * The MCP servers of the config, starting, as a tool source (`ready()` waits for them, within the
 * bound); undefined when none is configured, so that commands without servers never load the SDK.
 */
export async function openMcp(config: RiverseConfig, baseDir: string): Promise<McpTools | undefined> {
  if (enabledServers(config).length === 0) return undefined;
  const { McpTools } = await import('../mcp/mcp-tools.ts');
  // Sign-ins are kept in the data folder, as the sessions are (data_dir, else the platform's place).
  const dataDir = config.data_dir !== undefined ? resolve(baseDir, config.data_dir) : defaultDataDir();
  const tools = McpTools.open({ config, baseDir, dataDir });
  opened.add(tools);
  return tools;
}

/** openMcp, waited for (`mcp.startup_timeout_ms` at most): for the commands that take one snapshot of the tools. */
export async function startMcp(config: RiverseConfig, baseDir: string): Promise<McpTools | undefined> {
  const tools = await openMcp(config, baseDir);
  await tools?.ready();
  return tools;
}

/** Stops every server started by this command (the program does this before it exits). */
export async function closeMcp(): Promise<void> {
  const closing = [...opened].map((tools) => tools.close());
  opened.clear();
  await Promise.all(closing);
}
