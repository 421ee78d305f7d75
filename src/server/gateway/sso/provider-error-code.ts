/**
 * The gateway's words for the OAuth and OpenID Connect error codes a provider answers with
 * (RFC 6749 4.1.2.1 and 5.2, OpenID Connect Core 3.1.2.6, RFC 6750 3.1).
 */
const MEANINGS: ReadonlyMap<string, string> = new Map([
  ['access_denied', 'the user or the provider refused the sign-in'],
  ['login_required', 'the provider needs the user to sign in there first'],
  ['interaction_required', 'the provider needs the user to act there first'],
  ['consent_required', 'the provider needs the user to consent there first'],
  ['account_selection_required', 'the provider needs the user to choose an account there first'],
  ['invalid_request', "the provider refused the gateway's request"],
  ['invalid_scope', 'the provider refused the scopes asked for (sso.providers.<id>.scopes)'],
  ['unsupported_response_type', 'the provider does not offer the authorization code flow to this client'],
  ['invalid_request_uri', "the provider refused the gateway's request"],
  ['invalid_request_object', "the provider refused the gateway's request"],
  ['request_not_supported', "the provider refused the gateway's request"],
  ['request_uri_not_supported', "the provider refused the gateway's request"],
  ['registration_not_supported', "the provider refused the gateway's request"],
  ['server_error', 'the provider failed'],
  ['temporarily_unavailable', 'the provider is temporarily unavailable'],
  ['invalid_grant', 'the code or refresh token is invalid, expired, revoked or was issued to another client'],
  ['invalid_client', "the provider does not accept the gateway's client"],
  ['unauthorized_client', 'the provider does not allow this client that flow'],
  ['unsupported_grant_type', 'the provider does not offer that grant to this client'],
  ['invalid_token', 'the provider refused the access token'],
  ['insufficient_scope', 'the access token lacks a scope the provider wants'],
]);

// Registered codes are lower-case words joined by `_`; anything else is not repeated.
const ERROR_CODE = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * A provider's error in the gateway's words: its code, checked to be a code, with what it means.
 * The provider's `error_description` is left out on purpose, whatever it says: it reaches the gateway
 * through the browser's address on a failed sign-in (anyone can write one), it is free text in the
 * provider's language and markup, and the gateway's failure text (`GET /sso/failures/{ref}`, a
 * loopback program's `error_description`, a session's end reason) is to hold the gateway's own
 * reason only. The provider's own logs keep its description for whoever needs it.
 */
export function providerError(code: unknown): string {
  if (typeof code !== 'string' || !ERROR_CODE.test(code)) return 'an error whose code is not an OAuth error code';
  const meaning = MEANINGS.get(code);
  return meaning === undefined ? code : `${code}: ${meaning}`;
}
