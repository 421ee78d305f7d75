import * as oidc from 'openid-client';
import { describe, discoveryFailure, isUnknownSigningKey, refreshFailure, signInFailure } from './oidc-errors.js';
import { OidcFailure } from './oidc-failure.js';
import { grantFetch, refreshTokenIn, withGrantCall, type GrantCall } from './oidc-fetch.js';
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
  /** The configuration in use once the JWKS was read afresh (see renewKeys). */
  private current?: oidc.Configuration;

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
          // openid-client lets the discovery request itself use http only when it sees this function here.
          execute: [
            ...(this.settings.allow_insecure_http ? [oidc.allowInsecureRequests] : []),
            (config) => this.prepare(config),
          ],
          // The discovery request itself waits as long, through the same fetch.
          timeout: this.settings.timeout_seconds,
          [oidc.customFetch]: grantFetch,
        },
      )
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw discoveryFailure(this, error);
      });
    return this.configuration;
  }

  private prepare(config: oidc.Configuration): void {
    // TLS alone would let openid-client skip the ID token's signature (OIDC Core 3.1.3.7); the
    // signature is checked against the provider's JWKS all the same, and plain http has no TLS.
    oidc.enableNonRepudiationChecks(config);
    if (this.settings.allow_insecure_http) oidc.allowInsecureRequests(config);
    // Every call of this configuration (tokens, refresh, revocation) waits as long.
    config.timeout = this.settings.timeout_seconds;
    config[oidc.customFetch] = grantFetch;
  }

  /**
   * The configuration to use once `failed` met an ID token its cached JWKS cannot verify. openid-client reads the JWKS again on its own only once its copy is a minute old, and keeps
   * it per configuration: a new one, from the same metadata, reads it now. Checks that failed at once
   * share the first replacement.
   */
  private renewKeys(failed: oidc.Configuration): oidc.Configuration {
    if (this.current !== undefined && this.current !== failed) return this.current;
    const renewed = new oidc.Configuration(
      failed.serverMetadata(),
      this.settings.client_id,
      { client_secret: this.clientSecret },
      oidc.ClientSecretBasic(this.clientSecret),
    );
    this.prepare(renewed);
    this.current = renewed;
    this.configuration = Promise.resolve(renewed);
    return renewed;
  }

  /**
   * Runs a grant, recording the token endpoint's answer in `call`. An ID token signed by a key the
   * cached JWKS lacks, or whose signature fails against the cached key of its `kid` (a key replaced
   * under the same `kid`), is checked once more, from the same answer, against the JWKS read afresh.
   */
  private async grant<T>(
    config: oidc.Configuration,
    call: GrantCall,
    run: (config: oidc.Configuration) => Promise<T>,
  ): Promise<T> {
    try {
      return await withGrantCall(call, () => run(config));
    } catch (error) {
      if (!isUnknownSigningKey(error) || call.answer === undefined) throw error;
      return withGrantCall({ answer: call.answer, replay: call.answer }, () => run(this.renewKeys(config)));
    }
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
    try {
      const tokens = await this.grant(config, {}, (used) =>
        oidc.authorizationCodeGrant(used, callbackUrl, {
          pkceCodeVerifier: request.codeVerifier,
          expectedState: request.state,
          expectedNonce: request.nonce,
          idTokenExpected: true,
        }),
      );
      return await this.result(config, tokens, undefined);
    } catch (error) {
      throw signInFailure(this, error);
    }
  }

  /**
   * Uses a refresh token: new tokens and the user's current claims. Fails `rejected` only when the
   * provider refuses the refresh token (invalid_grant); a failure carries the refresh token the
   * provider rotated before it, if it did.
   */
  async refresh(refreshToken: string, subject: string): Promise<TokenResult> {
    const config = await this.config();
    const call: GrantCall = {};
    let tokens;
    try {
      tokens = await this.grant(config, call, (used) => oidc.refreshTokenGrant(used, refreshToken));
    } catch (error) {
      throw refreshFailure(this, error, refreshTokenIn(call.answer));
    }
    try {
      return await this.result(config, tokens, subject);
    } catch (error) {
      throw refreshFailure(this, error, tokens.refresh_token);
    }
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
    if (idClaims !== undefined) refuseFutureIssue(idClaims.iat, Date.now());
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
      const info = await oidc.fetchUserInfo(config, tokens.access_token, subject);
      claims = { ...info, ...claims };
    }
    return {
      claims: claims as UserClaims,
      refreshToken: tokens.refresh_token,
      idToken: tokens.id_token,
    };
  }
}

/** The clock tolerance openid-client applies to `exp` and `nbf`, in seconds (its default; the gateway keeps it). */
const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * Refuses an ID token issued (`iat`) later than now plus the clock tolerance. openid-client checks
 * `exp`, and `nbf` where present, but not a future `iat`: a provider whose clock runs ahead would go
 * unnoticed. At sign-in this refuses the sign-in; at a refresh it counts as an answer that failed the
 * checks (the session stays open).
 */
function refuseFutureIssue(iat: number | undefined, nowMs: number): void {
  if (iat === undefined) return;
  const ahead = iat - Math.floor(nowMs / 1000);
  if (ahead > CLOCK_TOLERANCE_SECONDS)
    throw new OidcFailure(
      'rejected',
      `the ID token's iat (issued at ${new Date(iat * 1000).toISOString()}) is ${ahead} s in the future, beyond the clock tolerance of ${CLOCK_TOLERANCE_SECONDS} s: the provider's clock may be ahead of the gateway's`,
    );
}
