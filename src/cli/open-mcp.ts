import { resolve } from 'node:path';
import type { RiverseConfig } from '../config/riverse-config.ts';
import { renderPhrase } from '../core/phrase.ts';
import type { Language } from '../core/language.ts';
import { defaultDataDir } from '../store/data-dir.ts';
import { interfaceLanguage } from './cli-text.ts';
import { enabledServers } from '../mcp/mcp-settings.ts';
import type { McpTools } from '../mcp/mcp-tools.ts';
import type { OAuthTokenRepository } from '../store/store.ts';
import { closeCommandStore, commandStore, lazyOAuthTokens } from './command-store.ts';

const opened = new Set<McpTools>();

/**
 * The MCP servers of the config, starting, as a tool source (`ready()` waits for them, within the
 * bound); undefined when none is configured, so that commands without servers never load the SDK.
 */
export async function openMcp(
  config: RiverseConfig,
  baseDir: string,
  options: { canAsk?: boolean; tokens?: OAuthTokenRepository } = {},
): Promise<McpTools | undefined> {
  if (enabledServers(config).length === 0) return undefined;
  const { McpTools } = await import('../mcp/mcp-tools.ts');
  // The data folder, as the sessions' (data_dir, else the platform's place): a sign-in an older Riverse kept there as a file.
  const dataDir = config.data_dir !== undefined ? resolve(baseDir, config.data_dir) : defaultDataDir();
  const language = await printedLanguage(config);
  // A server may ask the person for input only where one can answer (chat, serve): elsewhere it is not offered.
  const tools = McpTools.open({
    config,
    baseDir,
    dataDir,
    canAsk: options.canAsk ?? false,
    // Sign-ins are kept in the store, shared by replicas; a command that opened none opens it for the first.
    tokens: options.tokens ?? lazyOAuthTokens(() => commandStore(dataDir, config, language)),
  });
  opened.add(tools);
  await showSignIns(language);
  return tools;
}

/** The language the command's printed lines are in: the assistant's, when fixed; else the interface's. */
async function printedLanguage(config: RiverseConfig): Promise<Language> {
  // Imported here: assistant-options.ts brings the model adapters, which `tools list` never needs.
  const { assistantLanguage } = await import('../config/assistant-options.ts');
  const chosen = assistantLanguage(config);
  return chosen === 'auto' ? interfaceLanguage(undefined) : chosen;
}

let showing = false;

/** Every sign-in link a server asks for is printed in the terminal (stderr: stdout may be a protocol, as in `riverse mcp`). */
async function showSignIns(language: Language): Promise<void> {
  if (showing) return;
  showing = true;
  const [{ signIns }, { mcpPhrase }] = await Promise.all([
    import('../mcp/oauth/sign-ins.ts'),
    import('../mcp/mcp-client-text.ts'),
  ]);
  signIns.onSignIn((sign) =>
    process.stderr.write(
      `\n${renderPhrase(mcpPhrase('mcp.sign-in.needed', { server: sign.server, url: sign.url }), language)}\n`,
    ),
  );
}

/** openMcp, waited for (`mcp.startup_timeout_ms` at most): for the commands that take one snapshot of the tools. */
export async function startMcp(config: RiverseConfig, baseDir: string): Promise<McpTools | undefined> {
  const tools = await openMcp(config, baseDir);
  await tools?.ready();
  return tools;
}

/** Stops every server started by this command (the program does this before it exits), then the store their sign-ins opened. */
export async function closeMcp(): Promise<void> {
  const closing = [...opened].map((tools) => tools.close());
  opened.clear();
  await Promise.all(closing);
  await closeCommandStore();
}
