// The entry point the MCP conformance suite's client mode runs (`conformance client --command
// "node src/mcp/conformance-client.ts"`): it appends the server's URL and names the scenario in
// MCP_CONFORMANCE_SCENARIO. The server is reached the way riverse.yaml's servers are — McpTools
// and the registry — so the suite judges Riverse's client, not the SDK alone.
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { McpTools } from './mcp-tools.ts';

const url = process.argv.at(-1) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize';
const tools = await McpTools.start({
  config: { mcp: { startup_timeout_ms: 20_000, servers: { conformance: { url } } } },
  baseDir: process.cwd(),
});
let failed = false;
try {
  const registry = await ToolRegistry.load({ folders: [], sources: [tools], isolation: 'none' });
  const listed = registry.tools().map((tool) => tool.name);
  console.error(
    `riverse conformance client: ${scenario}: ${JSON.stringify(tools.statuses())}; tools ${listed.join(', ') || 'none'}`,
  );
  // Every tool the server lists is called with arguments made from its own schema's examples of use.
  const calls: Record<string, Record<string, unknown>> = { conformance__add_numbers: { a: 5, b: 3 } };
  for (const name of listed) {
    const result = await registry.execute(name, calls[name] ?? {});
    console.error(`${name}: ${JSON.stringify(result)}`);
    failed ||= !result.success;
  }
  failed ||= tools.statuses()[0]?.state !== 'connected';
} finally {
  await tools.close();
}
process.exit(failed ? 1 : 0);
