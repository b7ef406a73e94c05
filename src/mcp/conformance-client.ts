// The entry point the MCP conformance suite's client mode runs (`conformance client --command
// "node src/mcp/conformance-client.ts"`): it appends the server's URL, names the scenario in
// MCP_CONFORMANCE_SCENARIO and gives what a scenario needs (pre-registered credentials, keys) in
// MCP_CONFORMANCE_CONTEXT. The server is reached the way riverse.yaml's servers are — McpTools
// and the registry, the context turned into the server's `oauth:` settings — so the suite judges
// Riverse's client, not the SDK alone. Only the person is played here: the sign-in link is opened
// as a browser would (following the authorization server's redirect to Riverse's loopback page),
// and a server's questions are answered by accepting, leaving each field at its default.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import type { McpOAuthSettings } from './mcp-settings.ts';
import { McpTools } from './mcp-tools.ts';
import { signIns } from './oauth/sign-ins.ts';

/** The client ID metadata document URL the suite's authorization servers accept (basic-cimd). */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';
/** How long the first connection may take, sign-in included. */
const CONNECT_MS = 20_000;

const url = process.argv.at(-1) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string | undefined>;

/** The scenario's context as riverse.yaml would say it. */
function oauthSettings(): McpOAuthSettings {
  const settings: McpOAuthSettings = { client_metadata_url: CIMD_URL };
  if (context.client_id !== undefined) settings.client_id = context.client_id;
  if (context.client_secret !== undefined) settings.client_secret = context.client_secret;
  if (scenario.startsWith('auth/client-credentials')) {
    settings.grant = 'client_credentials';
    if (context.private_key_pem !== undefined) settings.private_key = context.private_key_pem;
    if (context.signing_algorithm !== undefined) settings.signing_algorithm = context.signing_algorithm;
  }
  if (context.idp_token_endpoint !== undefined) {
    settings.grant = 'cross_app_access';
    settings.idp_token_endpoint = context.idp_token_endpoint;
    if (context.idp_client_id !== undefined) settings.idp_client_id = context.idp_client_id;
    if (context.idp_id_token !== undefined) settings.id_token = context.idp_id_token;
  }
  if (context.valid_jwt !== undefined) {
    settings.grant = 'jwt_bearer';
    settings.assertion = context.valid_jwt;
  }
  return settings;
}

// The person's browser: opens each sign-in link; the authorization server sends it on to Riverse's callback page.
signIns.onSignIn((sign) => {
  void fetch(sign.url)
    .then((response) => response.text())
    .catch((error: unknown) => console.error(`opening the sign-in link failed: ${String(error)}`));
});

const dataDir = await mkdtemp(join(tmpdir(), 'riverse-conformance-'));
const tools = McpTools.open({
  config: { mcp: { startup_timeout_ms: CONNECT_MS, servers: { conformance: { url, oauth: oauthSettings() } } } },
  baseDir: process.cwd(),
  dataDir,
});
let failed = false;
try {
  await connected(tools);
  const registry = await ToolRegistry.load({ folders: [], sources: [tools], isolation: 'none' });
  const listed = registry.tools().map((tool) => tool.name);
  console.error(
    `riverse conformance client: ${scenario}: ${JSON.stringify(tools.statuses())}; tools ${listed.join(', ') || 'none'}`,
  );
  // Every tool the server lists is called, with the arguments its scenario expects.
  const calls: Record<string, Record<string, unknown>> = { conformance__add_numbers: { a: 5, b: 3 } };
  // Calls the scenario expects to fail (a result the client must refuse), not counted as the client's failure.
  const refused = new Set(['conformance__test_mrtr_no_result_type']);
  for (const name of listed) {
    const result = await registry.execute(name, calls[name] ?? {}, {
      // The person accepts a server's request for input and leaves every field to its default.
      ask: async (question) => ({ answered: true, text: question.choices?.includes('Answer') ? 'Answer' : 'skip' }),
    });
    console.error(`${name}: ${JSON.stringify(result)}`);
    failed ||= !result.success && !refused.has(name);
  }
  failed ||= tools.statuses()[0]?.state !== 'connected';
} finally {
  await tools.close();
  await signIns.close();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

/** Resolves once the server is connected, or once its first failure that is not a sign-in waiting for the person. */
async function connected(source: McpTools): Promise<void> {
  await source.ready();
  await new Promise<void>((resolve) => {
    const check = () => {
      const status = source.statuses()[0];
      if (status === undefined || status.state === 'connected') return done();
      if (status.state === 'retrying' && signIns.stateOf('conformance') === undefined && status.failures > 0) done();
    };
    const timer = setTimeout(() => done(), CONNECT_MS);
    const stop = source.onChange(check);
    function done() {
      clearTimeout(timer);
      stop();
      resolve();
    }
    check();
  });
}
