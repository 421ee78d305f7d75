import { principalIdSchema } from '../../../shared/principals-api.js';
import type { ProviderRef } from './oidc-errors.js';
import type { UserClaims } from './oidc-client.js';
import { SsoError } from './sso-errors.js';

/**
 * The user id a sign-in's claims name (the key's owner), or the SsoError refusing the sign-in: the
 * user claim missing, not one value (a list's first element could be anyone's), unable to name a user
 * here, or, with `user_claim: email`, an address the provider has not verified.
 */
export function signInUser(provider: ProviderRef, claims: UserClaims): string {
  const claim = provider.settings.user_claim;
  const value = claims[claim];
  if (value === undefined || value === null)
    throw new SsoError(
      'authentication_error',
      `the provider's claims have no '${claim}' (sso.providers.${provider.id}.user_claim)`,
    );
  if (typeof value !== 'string' && typeof value !== 'number')
    throw new SsoError(
      'authentication_error',
      `the provider's '${claim}' claim is ${Array.isArray(value) ? `a list of ${value.length} values` : `a ${typeof value}`}, not a single value that can name the user; set sso.providers.${provider.id}.user_claim to a claim holding one string`,
    );
  const claimed = String(value);
  const user = userId(claimed, claim);
  if (!principalIdSchema.safeParse(user).success)
    throw new SsoError(
      'authentication_error',
      `the provider's '${claim}' claim, ${JSON.stringify(claimed.slice(0, 200))}, cannot name a user here (letters and digits of any script and . _ @ + - only, at most 200): set sso.providers.${provider.id}.user_claim to another claim`,
    );
  // An address the provider has not verified could be anyone's: it must not name the key's owner.
  // Some providers (Amazon Cognito's userinfo among them) write the flag as a string; some (Azure
  // AD) leave it out, which is not a denial.
  const verified = claims.email_verified;
  if (claim === 'email' && verified !== undefined && !isTrue(verified))
    throw new SsoError(
      'authentication_error',
      `${provider.label} has not verified the e-mail address ${user}; the key's owner is named by a verified address only`,
    );
  return user;
}

/**
 * The user id a claim names: trimmed and in Unicode's composed form, and an e-mail address in lower
 * case, as providers treat them (`Alice@Corp.example` and `alice@corp.example` are one account, and
 * must not become two users with two budgets).
 */
function userId(claimed: string, claim: string): string {
  const id = claimed.trim().normalize('NFC');
  return claim === 'email' ? id.toLowerCase() : id;
}

/** A claim that says yes: `true`, or the string `"true"` in any case. */
function isTrue(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.toLowerCase() === 'true');
}
