import {
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  PrivateKeyJwtProvider,
  requestJwtAuthorizationGrant,
  type OAuthClientInformation,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import type { McpOAuthSettings } from '../mcp-settings.ts';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * The grants where no person signs in, each the SDK's own provider: `client_credentials` (a
 * secret, or a private key for `private_key_jwt`), `cross_app_access` (an enterprise IdP's ID
 * token traded for an ID-JAG, then for the server's token: SEP-990), `jwt_bearer` (a workload's
 * own JWT as the assertion: workload identity federation, RFC 7523).
 */
export function machineGrant(settings: McpOAuthSettings): OAuthClientProvider | undefined {
  const clientId = settings.client_id ?? '';
  const scope = settings.scope === undefined ? {} : { scope: settings.scope };
  switch (settings.grant) {
    case 'client_credentials':
      return settings.private_key !== undefined
        ? new PrivateKeyJwtProvider({
            clientId,
            privateKey: settings.private_key,
            algorithm: settings.signing_algorithm ?? 'RS256',
            clientName: 'Riverse',
            ...scope,
          })
        : new ClientCredentialsProvider({
            clientId,
            clientSecret: settings.client_secret ?? '',
            clientName: 'Riverse',
            ...scope,
          });
    case 'cross_app_access':
      return new CrossAppAccessProvider({
        clientId,
        clientSecret: settings.client_secret ?? '',
        clientName: 'Riverse',
        assertion: async (context) =>
          (
            await requestJwtAuthorizationGrant({
              tokenEndpoint: settings.idp_token_endpoint ?? '',
              audience: context.authorizationServerUrl,
              resource: context.resourceUrl,
              idToken: settings.id_token ?? '',
              clientId: settings.idp_client_id ?? clientId,
              ...(context.scope === undefined ? {} : { scope: context.scope }),
              fetchFn: context.fetchFn,
            })
          ).jwtAuthGrant,
      });
    case 'jwt_bearer':
      return new WorkloadIdentity(clientId, settings.assertion ?? '', settings.scope);
    default:
      return undefined;
  }
}

/** A workload's JWT (from its platform: Kubernetes, a CI's OIDC token) traded for the server's token; a public client, no secret. */
class WorkloadIdentity implements OAuthClientProvider {
  #tokens: OAuthTokens | undefined;
  readonly #client: OAuthClientInformation;
  readonly #assertion: string;
  readonly #scope: string | undefined;

  constructor(clientId: string, assertion: string, scope: string | undefined) {
    this.#client = { client_id: clientId };
    this.#assertion = assertion;
    this.#scope = scope;
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Riverse',
      redirect_uris: [],
      grant_types: [JWT_BEARER],
      token_endpoint_auth_method: 'none',
      ...(this.#scope === undefined ? {} : { scope: this.#scope }),
    };
  }

  clientInformation(): OAuthClientInformation {
    return this.#client;
  }

  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
  }

  redirectToAuthorization(): never {
    throw new Error('a workload signs in with its own JWT, not through a person');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): never {
    throw new Error('a workload signs in with its own JWT: there is no PKCE verifier');
  }

  prepareTokenRequest(scope?: string): URLSearchParams {
    const params = new URLSearchParams({ grant_type: JWT_BEARER, assertion: this.#assertion });
    if (scope) params.set('scope', scope);
    return params;
  }
}
