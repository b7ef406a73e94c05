import { loadCliConfig } from '../cli-config.ts';
import { printJson, table } from '../format.ts';
import type { GlobalOptions } from '../load-tools.ts';
import { MCP_TEXT } from './mcp-text.ts';
import { startMcp } from '../open-mcp.ts';

/** `riverse mcp list`: each configured MCP server, connected or why not, after the start-up wait. */
export async function mcpList(options: GlobalOptions & { json?: boolean }): Promise<number> {
  const loaded = await loadCliConfig(options.config);
  const mcp = await startMcp(loaded.config, loaded.baseDir);
  const servers = mcp?.statuses() ?? [];
  const text = MCP_TEXT[options.language];
  if (options.json === true) {
    printJson({ servers });
    return 0;
  }
  if (servers.length === 0) {
    console.log(text.noServers);
    return 0;
  }
  const detail = (server: (typeof servers)[number]) =>
    server.state === 'connected'
      ? (server.protocolVersion ?? '')
      : [server.reason, server.failures > 0 ? text.failures(server.failures) : undefined].filter(Boolean).join('; ');
  console.log(
    table([
      text.columns,
      ...servers.map((server) => [
        server.name,
        server.transport,
        text.states[server.state],
        String(server.tools),
        detail(server),
      ]),
    ]),
  );
  return servers.every((server) => server.state === 'connected') ? 0 : 1;
}
