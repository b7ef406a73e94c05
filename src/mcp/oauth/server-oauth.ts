import {
  auth,
  DPOP_SUPPORTED_ALGS,
  DpopSession,
  type DpopAlg,
  type FetchLike,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { McpOAuthSettings } from '../mcp-settings.ts';
import type { SignIns } from './sign-ins.ts';
import type { TokenStore } from './token-store.ts';

/** Tokens this close to their end are refreshed before the request that would carry them (or within the last half of a shorter life: a 30 s token is not refreshed on every request). */
const REFRESH_AHEAD_MS = 60_000;

export interface ServerOAuthOptions {
  server: string;
  serverUrl: URL;
  settings: McpOAuthSettings;
  store: TokenStore;
  signIns: SignIns;
}

/**
 * One MCP server's side of OAuth 2.1, for the SDK's `auth()` (which does the protocol: discovery
 * of the protected resource and its authorization server, PKCE, client ID metadata documents or
 * dynamic registration, resource indicators, `iss` checks, refresh). This class keeps what it
 * asks for: the client and tokens per issuer in the data folder (TokenStore), the PKCE verifier
 * and discovery in memory for the one sign-in under way, and the sign-in link, handed to
 * SignIns for the person to open.
 */
export class ServerOAuth implements OAuthClientProvider {
  readonly #options: ServerOAuthOptions;
  readonly #resource: string;
  /** The issuer of the last discovery or saved tokens: where a call without `ctx` reads. */
  #issuer: string | undefined;
  #issuerRead = false;
  #verifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  /** Clients given by the settings (pre-registered), with the issuer the SDK stamped on them: kept in memory, never written. */
  readonly #configured = new Map<string, StoredOAuthClientInformation>();
  #refreshing: Promise<unknown> | undefined;
  /** Set while refreshing ahead of expiry: a refresh that fails must not start a sign-in by itself. */
  #quiet = false;
  /** The proof key of DPoP-bound tokens (RFC 9449), made once the authorization server says it takes them. In memory: after a restart such tokens are refused and a new sign-in binds a new key. */
  #dpop: Promise<DpopSession> | undefined;
  /** The transport's fetch, for the refresh made ahead of expiry. */
  fetchFn: FetchLike | undefined;

  constructor(options: ServerOAuthOptions) {
    this.#options = options;
    this.#resource = options.serverUrl.href;
    // The issuer of the saved tokens is read at the first use (the store is async): #knownIssuer.
  }

  /** The issuer of the last discovery, else of the newest saved tokens (read once). */
  async #knownIssuer(): Promise<string | undefined> {
    if (this.#issuer === undefined && !this.#issuerRead) {
      this.#issuerRead = true;
      this.#issuer ??= (await this.#options.store.latest(this.#resource))?.issuer;
    }
    return this.#issuer;
  }

  get redirectUrl(): string {
    return this.#options.signIns.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.#options.settings.client_metadata_url;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { scope } = this.#options.settings;
    return {
      client_name: 'Riverse',
      redirect_uris: [this.redirectUrl],
      ...(scope === undefined ? {} : { scope }),
    };
  }

  state(): string {
    return this.#options.signIns.newState();
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const issuer = ctx?.issuer ?? (await this.#knownIssuer());
    const { client_id: clientId, client_secret: clientSecret } = this.#options.settings;
    if (clientId !== undefined)
      return (
        (issuer === undefined ? undefined : this.#configured.get(issuer)) ?? {
          client_id: clientId,
          ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
          redirect_uris: [this.redirectUrl],
        }
      );
    if (issuer === undefined) return undefined;
    const stored = await this.#options.store.client(issuer);
    // A registration made for another callback port is not used: registering again is cheaper than a refused redirect.
    const registered = stored as (StoredOAuthClientInformation & { redirect_uris?: string[] }) | undefined;
    if (
      registered !== undefined &&
      !registered.client_id.startsWith('https://') &&
      Array.isArray(registered.redirect_uris) &&
      registered.redirect_uris.length > 0 &&
      !registered.redirect_uris.includes(this.redirectUrl)
    )
      return undefined;
    return stored;
  }

  async saveClientInformation(
    client: StoredOAuthClientInformation,
    ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    const issuer = ctx?.issuer ?? client.issuer ?? (await this.#knownIssuer());
    if (issuer === undefined) return;
    this.#issuer = issuer;
    if (this.#options.settings.client_id !== undefined) this.#configured.set(issuer, client);
    else await this.#options.store.saveClient(issuer, client);
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    if (ctx !== undefined) {
      this.#issuer = ctx.issuer;
      return (await this.#options.store.tokens(ctx.issuer, this.#resource))?.tokens;
    }
    // The transport's read before each request: the newest tokens, refreshed first when they are about to end.
    let kept = await this.#options.store.latest(this.#resource);
    if (
      kept?.expiresAt !== undefined &&
      kept.expiresAt - Date.now() < Math.min(REFRESH_AHEAD_MS, (kept.expiresAt - kept.savedAt) / 2) &&
      kept.tokens.refresh_token !== undefined &&
      this.#refreshing === undefined
    ) {
      this.#refreshing = this.#refreshAhead().finally(() => (this.#refreshing = undefined));
      await this.#refreshing;
      kept = await this.#options.store.latest(this.#resource);
    }
    return kept?.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? tokens.issuer ?? (await this.#knownIssuer());
    if (issuer === undefined) return;
    this.#issuer = issuer;
    await this.#options.store.saveTokens(issuer, this.#resource, tokens);
  }

  redirectToAuthorization(url: URL): void {
    if (this.#quiet) return;
    this.#options.signIns.begin(this.#options.server, url, url.searchParams.get('state') ?? '');
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    if (this.#verifier === undefined) throw new Error('no sign-in is under way (no PKCE verifier)');
    return this.#verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
    this.#issuer = state.authorizationServerMetadata?.issuer ?? state.authorizationServerUrl;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  /** DPoP where the authorization server advertises an algorithm the SDK signs with; Bearer tokens elsewhere. */
  dpop(): Promise<DpopSession> | undefined {
    if (this.#dpop !== undefined) return this.#dpop;
    const advertised = (this.#discovery?.authorizationServerMetadata as { dpop_signing_alg_values_supported?: unknown })
      ?.dpop_signing_alg_values_supported;
    if (!Array.isArray(advertised)) return undefined;
    const alg = (DPOP_SUPPORTED_ALGS as readonly string[]).find((known) => advertised.includes(known));
    if (alg === undefined) return undefined;
    this.#dpop = DpopSession.create({ alg: alg as DpopAlg });
    return this.#dpop;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    // What is in memory goes at once (a caller may not wait: the transport's 401); the store's after.
    if (scope === 'all' || scope === 'verifier') this.#verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
    if (scope === 'verifier' || scope === 'discovery') return;
    const issuer = await this.#knownIssuer();
    if ((scope === 'all' || scope === 'client') && issuer !== undefined) {
      this.#configured.delete(issuer);
      if (this.#options.settings.client_id === undefined) await this.#options.store.saveClient(issuer, undefined);
    }
    if ((scope === 'all' || scope === 'tokens') && issuer !== undefined)
      await this.#options.store.saveTokens(issuer, this.#resource, undefined);
  }

  async #refreshAhead(): Promise<void> {
    this.#quiet = true;
    try {
      await this.#options.signIns.listen();
      await auth(this, {
        serverUrl: this.#options.serverUrl,
        ...(this.fetchFn === undefined ? {} : { fetchFn: this.fetchFn }),
      });
    } catch {
      // The request goes with the old token; a 401 then takes the usual way (refresh, else a sign-in).
    } finally {
      this.#quiet = false;
    }
  }
}
