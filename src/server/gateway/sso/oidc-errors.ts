import * as oidc from 'openid-client';
import { OidcFailure } from './oidc-failure.js';
import { providerError } from './provider-error-code.js';
import type { SsoProviderConfig } from '../../config/sso-schema.js';

/** The provider a failure is about, to name it and its configuration in messages. */
export interface ProviderRef {
  readonly id: string;
  readonly label: string;
  readonly settings: SsoProviderConfig;
}

/**
 * An error of openid-client in words, with its cause where that adds something; never a secret, and
 * of a provider's error only its code (see providerError).
 */
export function describe(error: unknown): string {
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError)
    return providerError(error.error);
  if (error instanceof oidc.WWWAuthenticateChallengeError) {
    const challenge = error.cause[0]?.parameters;
    if (challenge?.error) return providerError(challenge.error);
  }
  const cause = (error as { cause?: unknown }).cause;
  const message = (error as Error).message ?? String(error);
  return cause instanceof Error && !message.includes(cause.message) ? `${message} (${cause.message})` : message;
}

/** The HTTP status behind an error about a provider's answer (an unexpected status is the error's cause). */
function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.WWWAuthenticateChallengeError)
    return error.status;
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Response ? cause.status : undefined;
}

/** The OAuth error code of a token endpoint's refusal, in its body or its WWW-Authenticate challenge. */
function oauthError(error: unknown): string | undefined {
  if (error instanceof oidc.ResponseBodyError) return error.error;
  if (error instanceof oidc.WWWAuthenticateChallengeError) return error.cause[0]?.parameters.error;
  return undefined;
}

/** Refusals of the gateway's own client: its registration or secret is wrong, which says nothing about the user. */
const CLIENT_REFUSALS: ReadonlySet<string> = new Set(['invalid_client', 'unauthorized_client']);

/** openid-client's codes for a provider that gave no answer about the user. */
const NOT_AN_ANSWER: ReadonlySet<string> = new Set([
  'OAUTH_TIMEOUT',
  'OAUTH_ABORT',
  'OAUTH_RESPONSE_IS_NOT_JSON',
  'OAUTH_PARSE_ERROR',
]);

/**
 * An ID token the cached JWKS cannot verify because the provider rotated its keys: signed with a key
 * the copy does not list, or with a new key published under an old key's `kid` (the signature then
 * fails against the old one).
 */
export function isUnknownSigningKey(error: unknown): boolean {
  const { code, cause } = error as { code?: string; cause?: { message?: unknown } };
  // openid-client words the signature's failure in the cause it wraps.
  return (
    code === 'OAUTH_KEY_SELECTION_FAILED' ||
    (code === 'OAUTH_INVALID_RESPONSE' && cause?.message === 'JWT signature verification failed')
  );
}

/** The provider refused the gateway's client: an operator's configuration to fix, named without its secret. */
function clientRefused(provider: ProviderRef, error: unknown): OidcFailure {
  return new OidcFailure(
    'unavailable',
    `${provider.label} refused the gateway's client (${describe(error)}): check the client registration at the provider against sso.providers.${provider.id}.client_id and the secret in client_secret_env (${provider.settings.client_secret_env})`,
  );
}

/** A failure that says nothing about the user, if it is one: the provider is down, slow, or refuses the client. */
function notAboutTheUser(provider: ProviderRef, error: unknown): OidcFailure | undefined {
  if (error instanceof OidcFailure) return error.kind === 'unavailable' ? error : undefined;
  const refusal = oauthError(error);
  if (refusal !== undefined && CLIENT_REFUSALS.has(refusal)) return clientRefused(provider, error);
  const status = httpStatusOf(error);
  // A provider that answers 5xx (or 429) is down or busy.
  if (status !== undefined && (status >= 500 || status === 429))
    return new OidcFailure('unavailable', `the provider answered ${status}: ${describe(error)}`);
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) return undefined;
  // openid-client wraps a timeout, an abort, an answer that is no JSON (a proxy's error page) and any
  // error it does not know (a refused connection) in a ClientError without a code or with one of these.
  const code = (error as { code?: string }).code;
  const unreached =
    error instanceof TypeError ||
    code === undefined ||
    NOT_AN_ANSWER.has(code) ||
    ['TimeoutError', 'AbortError'].includes((error as Error).name);
  return unreached
    ? new OidcFailure(
        'unavailable',
        `${provider.label} could not be reached or gave no usable answer: ${describe(error)}`,
      )
    : undefined;
}

/**
 * A failed sign-in step: the provider unavailable or refusing the gateway's client, or else a refusal
 * of this sign-in (the provider's error, or an ID token that fails a check: forged, expired, replayed).
 */
export function signInFailure(provider: ProviderRef, error: unknown): OidcFailure {
  if (error instanceof OidcFailure) return error;
  return notAboutTheUser(provider, error) ?? new OidcFailure('rejected', describe(error));
}

/**
 * A failed refresh. Only the provider's explicit `invalid_grant` speaks about the user's session;
 * anything else, an ID token that fails a check here included (keys rotated past the cached JWKS, a
 * clock off), must not end every session a round reaches: it is tried again at the next round.
 */
export function refreshFailure(provider: ProviderRef, error: unknown, rotated: string | undefined): OidcFailure {
  if (oauthError(error) === 'invalid_grant') return new OidcFailure('rejected', describe(error), rotated);
  if (error instanceof OidcFailure) return new OidcFailure('unavailable', error.message, rotated);
  // Another endpoint's refusal (userinfo refusing the new access token) says nothing about the grant.
  if (oauthError(error) !== undefined && notAboutTheUser(provider, error) === undefined)
    return new OidcFailure(
      'unavailable',
      `${provider.label} refused a request of the refresh: ${describe(error)}`,
      rotated,
    );
  const failure =
    notAboutTheUser(provider, error) ??
    new OidcFailure(
      'unavailable',
      `the provider's answer failed the gateway's checks (its ID token's signature, issuer, audience or times: the provider may have rotated its keys, or its clock may be off): ${describe(error)}`,
    );
  return new OidcFailure('unavailable', failure.message, rotated);
}

/** A failed discovery, naming both issuers when the document states another than the configured one. */
export function discoveryFailure(provider: ProviderRef, error: unknown): OidcFailure {
  const cause = (error as { cause?: { attribute?: string; expected?: string; body?: { issuer?: unknown } } }).cause;
  if (cause?.attribute === 'issuer')
    return new OidcFailure(
      'unavailable',
      `discovery of ${provider.settings.issuer} failed: the provider's discovery document states the issuer '${String(cause.body?.issuer)}', but sso.providers.${provider.id}.issuer is '${provider.settings.issuer}' (they must be the same URL)`,
    );
  return new OidcFailure('unavailable', `discovery of ${provider.settings.issuer} failed: ${describe(error)}`);
}
