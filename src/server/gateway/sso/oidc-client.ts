import * as oidc from 'openid-client';
import { OidcFailure } from './oidc-failure.js';
import type { SsoProviderConfig } from '../../config/sso-schema.js';

/** Claims of a signed-in user: the validated ID token's, completed from userinfo where it lacks the mapped ones. */
export type UserClaims = Readonly<Record<string, unknown>> & { readonly sub: string };

/** Tokens and claims from a code exchange or a refresh. */
export interface TokenResult {
  readonly claims: UserClaims;
  readonly refreshToken?: string;
  readonly idToken?: string;
}

/** What the authorization request carries; the caller keeps the verifier, state and nonce. */
export interface AuthorizationRequest {
  readonly redirectUri: string;
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

/**
 * One configured OpenID provider through `openid-client`: discovery (lazily, on first use, retried
 * after a failure so that a provider down at start does not stop the gateway), the authorization
 * URL with PKCE (S256), the code exchange with ID token validation (signature against the provider's
 * JWKS, issuer, audience, expiry, nonce, at_hash where present), refresh and revocation.
 */
export class OidcClient {
  private configuration?: Promise<oidc.Configuration>;

  constructor(
    readonly id: string,
    readonly settings: SsoProviderConfig,
    private readonly clientSecret: string,
  ) {}

  /** The label of the sign-in button. */
  get label(): string {
    return this.settings.name ?? this.id;
  }

  private config(): Promise<oidc.Configuration> {
    this.configuration ??= oidc
      .discovery(
        new URL(this.settings.issuer),
        this.settings.client_id,
        { client_secret: this.clientSecret },
        oidc.ClientSecretBasic(this.clientSecret),
        {
          // TLS alone would let openid-client skip the ID token's signature (OIDC Core 3.1.3.7); the
          // signature is checked against the provider's JWKS all the same, and plain http has no TLS.
          execute: [
            oidc.enableNonRepudiationChecks,
            ...(this.settings.allow_insecure_http ? [oidc.allowInsecureRequests] : []),
          ],
          // Every later call of this configuration (tokens, refresh, revocation) waits as long.
          timeout: this.settings.timeout_seconds,
        },
      )
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw new OidcFailure('unavailable', `discovery of ${this.settings.issuer} failed: ${describe(error)}`);
      });
    return this.configuration;
  }

  /** The provider's authorization URL for this request. */
  async authorizationUrl(request: AuthorizationRequest): Promise<URL> {
    const config = await this.config();
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: request.redirectUri,
      scope: this.settings.scopes.join(' '),
      state: request.state,
      nonce: request.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
      code_challenge_method: 'S256',
      // offline_access (a refresh token) needs consent at most providers.
      ...(this.settings.scopes.includes('offline_access') ? { prompt: 'consent' } : {}),
      // Validated not to touch state, nonce, PKCE or the client's identity (sso-schema.ts).
      ...this.settings.authorization_params,
    });
  }

  /** Exchanges the code in `callbackUrl` (state, PKCE and nonce checked) and validates the ID token. */
  async exchange(callbackUrl: URL, request: Omit<AuthorizationRequest, 'redirectUri'>): Promise<TokenResult> {
    const config = await this.config();
    let tokens;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: request.codeVerifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw classify(error);
    }
    return this.result(config, tokens, undefined);
  }

  /** Uses a refresh token: new tokens and the user's current claims (the subject must not change). */
  async refresh(refreshToken: string, subject: string): Promise<TokenResult> {
    const config = await this.config();
    let tokens;
    try {
      tokens = await oidc.refreshTokenGrant(config, refreshToken);
    } catch (error) {
      // Only invalid_grant speaks about the user's session; a refused client (a rotated secret, a
      // changed registration) is the gateway's problem and must not revoke everyone's key.
      if (error instanceof oidc.ResponseBodyError && error.error !== 'invalid_grant')
        throw new OidcFailure('unavailable', `the provider refused the refresh request: ${describe(error)}`);
      if (!(error instanceof oidc.ResponseBodyError) && httpStatusOf(error) !== undefined)
        throw new OidcFailure('unavailable', `the provider answered ${httpStatusOf(error)}: ${describe(error)}`);
      throw classify(error);
    }
    return this.result(config, tokens, subject);
  }

  /** Revokes a refresh token at the provider, where it offers revocation; failures are reported, not thrown. */
  async revoke(refreshToken: string): Promise<string | undefined> {
    try {
      const config = await this.config();
      if (!config.serverMetadata().revocation_endpoint) return 'the provider offers no revocation endpoint';
      await oidc.tokenRevocation(config, refreshToken, { token_type_hint: 'refresh_token' });
      return undefined;
    } catch (error) {
      return describe(error);
    }
  }

  /** The provider's RP-initiated logout URL, when it has one. */
  async endSessionUrl(idTokenHint?: string): Promise<string | undefined> {
    const config = await this.config().catch(() => undefined);
    if (!config?.serverMetadata().end_session_endpoint) return undefined;
    return oidc
      .buildEndSessionUrl(config, {
        client_id: this.settings.client_id,
        ...(idTokenHint ? { id_token_hint: idTokenHint } : {}),
      })
      .toString();
  }

  private async result(
    config: oidc.Configuration,
    tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
    expectedSubject: string | undefined,
  ): Promise<TokenResult> {
    const idClaims = tokens.claims();
    const subject = idClaims?.sub ?? expectedSubject;
    if (subject === undefined) throw new OidcFailure('rejected', 'the provider returned no ID token');
    if (expectedSubject !== undefined && subject !== expectedSubject)
      throw new OidcFailure('rejected', 'the refreshed ID token names another subject');
    let claims: Record<string, unknown> = { ...(idClaims ?? {}), sub: subject };
    const wanted = [
      this.settings.user_claim,
      this.settings.groups_claim,
      ...this.settings.mappings.map((m) => m.claim),
    ];
    const missing = wanted.some((name) => name !== undefined && claims[name] === undefined);
    // Many providers put profile and group claims in userinfo only (and oidc-provider does, by default).
    if (missing && config.serverMetadata().userinfo_endpoint) {
      try {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, subject);
        claims = { ...info, ...claims };
      } catch (error) {
        throw classify(error);
      }
    }
    return {
      claims: claims as UserClaims,
      refreshToken: tokens.refresh_token,
      idToken: tokens.id_token,
    };
  }
}

function describe(error: unknown): string {
  if (error instanceof oidc.ResponseBodyError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
  if (error instanceof oidc.AuthorizationResponseError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
  const cause = (error as { cause?: unknown }).cause;
  const message = (error as Error).message ?? String(error);
  return cause instanceof Error && !message.includes(cause.message) ? `${message} (${cause.message})` : message;
}

/** The HTTP status behind an error about a provider's answer (an unexpected status is the error's cause). */
function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof oidc.ResponseBodyError) return error.status;
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Response ? cause.status : undefined;
}

/** openid-client's codes for a provider that gave no answer about the user. */
const NOT_AN_ANSWER: ReadonlySet<string> = new Set([
  'OAUTH_TIMEOUT',
  'OAUTH_ABORT',
  'OAUTH_RESPONSE_IS_NOT_JSON',
  'OAUTH_PARSE_ERROR',
]);

/** A provider's answer or a failed check is a refusal; a network failure or a server error means it is unavailable. */
function classify(error: unknown): OidcFailure {
  if (error instanceof OidcFailure) return error;
  const status = httpStatusOf(error);
  // A provider that answers 5xx (or 429) is down or busy: nothing is said about the user.
  if (status !== undefined && (status >= 500 || status === 429))
    return new OidcFailure('unavailable', `the provider answered ${status}: ${describe(error)}`);
  if (error instanceof oidc.ResponseBodyError) return new OidcFailure('rejected', describe(error));
  if (error instanceof oidc.AuthorizationResponseError) return new OidcFailure('rejected', describe(error));
  // openid-client wraps a timeout, an abort, an answer that is no JSON (a proxy's error page) and any
  // error it does not know (a refused connection) in a ClientError too: none of them says anything
  // about the user, and read as a refusal they would end every session a refresh round reached.
  if (error instanceof oidc.ClientError) {
    const code = (error as { code?: string }).code;
    return new OidcFailure(code === undefined || NOT_AN_ANSWER.has(code) ? 'unavailable' : 'rejected', describe(error));
  }
  if (error instanceof TypeError || (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError')
    return new OidcFailure('unavailable', describe(error));
  // openid-client's checks (claims, signature, nonce) throw its own errors with a code.
  return new OidcFailure((error as { code?: string }).code ? 'rejected' : 'unavailable', describe(error));
}
