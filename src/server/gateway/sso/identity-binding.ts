import type { PrincipalsService } from '../principals/principals.service.js';
import type { ProviderRef } from './oidc-errors.js';
import { SsoError } from './sso-errors.js';

/** The OpenID account a sign-in is from: the validated ID token's issuer and subject. */
export interface SignInAccount {
  readonly issuer: string;
  readonly subject: string;
}

/** Dependencies of the binding checks. */
export interface IdentityBindingDeps {
  readonly principals: Pick<PrincipalsService, 'user' | 'bindSsoAccount'>;
  readonly audit: (
    actor: string,
    action: string,
    target: string,
    requestId: string | null,
    details: Record<string, unknown>,
  ) => void;
}

/**
 * Which OpenID account a user id belongs to. The user claim (an e-mail address, by default) is what
 * names the user, but only the issuer and subject identify the account: another account whose claim
 * names the same id (a second account with the address, or a provider that does not verify it) must
 * not take over the first one's record, with its team, budgets and kept responses. The first sign-in
 * binds the id; later ones from another account are refused until an admin deletes the record.
 */
export class IdentityBindings {
  constructor(private readonly deps: IdentityBindingDeps) {}

  /** Refuses (and audits) a sign-in whose user id is bound to another account. */
  assertOwn(provider: ProviderRef, user: string, account: SignInAccount, requestId: string | null): void {
    const record = this.deps.principals.user(user);
    if (!record || record.ssoIssuer === null || record.ssoSubject === null) return;
    if (record.ssoIssuer === account.issuer && record.ssoSubject === account.subject) return;
    this.deps.audit(`sso:${provider.id}`, 'sso.sign_in.refuse', user, requestId, {
      provider: provider.id,
      issuer: account.issuer,
      subject: account.subject,
      bound_issuer: record.ssoIssuer,
      bound_subject: record.ssoSubject,
    });
    const owner =
      record.ssoIssuer === account.issuer
        ? `another account of ${provider.label}`
        : `an account of another provider (${record.ssoIssuer})`;
    throw new SsoError(
      'permission_error',
      `${user} is already bound to ${owner}, which signed in with it first; no key is issued to a second account. If this account is to own ${user} now, an admin deletes its record with its keys (DELETE /internal/users/${user}?revoke_keys=true), then this account signs in again`,
      `this account's user id is already bound to ${owner}, which signed in with it first; no key is issued to a second account. If this account is to own it now, an admin deletes that user's record with its keys (DELETE /internal/users/{user id}?revoke_keys=true; the gateway's log names the user), then this account signs in again`,
    );
  }

  /** Binds a user record that has no account yet to this one; `existed`: audited, as a record made now is by its creation. */
  bindIfFree(
    provider: ProviderRef,
    user: string,
    account: SignInAccount,
    existed: boolean,
    requestId: string | null,
  ): void {
    const record = this.deps.principals.user(user);
    if (!record || record.ssoSubject !== null) return;
    this.deps.principals.bindSsoAccount(user, account.issuer, account.subject);
    if (existed) this.deps.audit(`sso:${provider.id}`, 'sso.user.bind', user, requestId, { ...account });
  }
}
