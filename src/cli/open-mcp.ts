import type { RiverseConfig } from '../config/riverse-config.ts';
import { enabledServers } from '../mcp/mcp-settings.ts';
import type { McpTools } from '../mcp/mcp-tools.ts';

const opened = new Set<McpTools>();

/**
 * The MCP servers of the config, started (waiting `mcp.startup_timeout_ms` at most), as a tool
 * source; undefined when none is configured, so that commands without servers never load the SDK.
 */
export async function startMcp(config: RiverseConfig, baseDir: string): Promise<McpTools | undefined> {
  if (enabledServers(config).length === 0) return undefined;
  const { McpTools } = await import('../mcp/mcp-tools.ts');
  const tools = await McpTools.start({ config, baseDir });
  opened.add(tools);
  return tools;
}

/** Stops every server started by this command (the program does this before it exits). */
export async function closeMcp(): Promise<void> {
  const closing = [...opened].map((tools) => tools.close());
  opened.clear();
  await Promise.all(closing);
}
