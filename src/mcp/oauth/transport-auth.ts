import type { AuthProvider, FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { McpServerSettings } from '../mcp-settings.ts';
import { machineGrant } from './machine-grants.ts';
import { ServerOAuth } from './server-oauth.ts';
import { signIns } from './sign-ins.ts';
import { TokenStore } from './token-store.ts';
import type { OAuthTokenRepository } from '../../store/store.ts';

/** What a streamable HTTP transport is given to sign in to its server. */
export interface TransportAuth {
  authProvider: AuthProvider | OAuthClientProvider;
  fetch?: FetchLike;
  /** The interactive sign-in's provider (authorization code): undefined for a machine's own credentials. */
  interactive?: ServerOAuth;
}

/**
 * How Riverse signs in to one HTTP MCP server: none when `oauth: false`; a grant without a person
 * when the settings name one (machine-grants.ts); otherwise the authorization code grant with a person's sign-in, which costs nothing with a server that never
 * answers 401.
 */
export function transportAuth(
  server: string,
  settings: McpServerSettings,
  dataDir: string | undefined,
  /** The assistant's store, where sign-ins are kept (shared by replicas); the data folder's files without one. */
  tokens?: OAuthTokenRepository,
): TransportAuth | undefined {
  const oauth = settings.oauth;
  if (oauth === false || settings.url === undefined) return undefined;
  const options = oauth ?? {};
  const machine = machineGrant(options);
  if (machine !== undefined) return { authProvider: machine };
  const serverUrl = new URL(settings.url);
  const provider = new ServerOAuth({
    server,
    serverUrl,
    settings: options,
    store: new TokenStore(dataDir, tokens),
    signIns,
  });
  const fetchFn: FetchLike = async (input, init) => {
    const response = await fetch(input, init);
    if ((response.status === 401 || response.status === 403) && sameResource(input, serverUrl)) {
      // The callback page is opened before the SDK reads the redirect URI it will register and send.
      await signIns.listen();
      // A token the server no longer takes: its authorization server may have changed (SEP-2352), so discovery is made again.
      if (response.status === 401 && new Headers(init?.headers).has('authorization'))
        void provider.invalidateCredentials('discovery');
    }
    return response;
  };
  provider.fetchFn = fetchFn;
  return { authProvider: provider, fetch: fetchFn, interactive: provider };
}

function sameResource(input: string | URL | Request, serverUrl: URL): boolean {
  const url = new URL(input instanceof Request ? input.url : String(input));
  return url.origin === serverUrl.origin && url.pathname === serverUrl.pathname;
}
