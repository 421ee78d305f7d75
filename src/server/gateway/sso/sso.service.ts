import type { SsoProviderConfig } from '../../config/sso-schema.js';
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { SsoFailure, SsoIssuedKey, SsoLogoutResult, SsoProviderInfo } from '../../../shared/sso-api.js';
import type { AuditRepository } from '../accounting/audit.repository.js';
import { newId } from '../keys/key-secret.js';
import { toKeyRecord } from '../keys/key-view.js';
import { KEY_REJECTION_MESSAGES, type KeysService } from '../keys/keys.service.js';
import type { PrincipalsService } from '../principals/principals.service.js';
import type { GatewayEventBus } from '../traffic/event-bus.js';
import { mapClaims, type ClaimGrant } from './claim-mapping.js';
import { IdentityBindings, type SignInAccount } from './identity-binding.js';
import { CONSENT_PATH, LoopbackConsents } from './loopback-consent.js';
import type { OidcClient, UserClaims } from './oidc-client.js';
import { OidcFailure } from './oidc-failure.js';
import { PendingStore } from './pending-store.js';
import { parseReturnTarget, type ReturnTarget } from './return-target.js';
import { signInUser } from './sign-in-user.js';
import { SsoError } from './sso-errors.js';
import { SsoSessions } from './sso-sessions.js';
import type { SsoRepository } from './sso.repository.js';
import type { TokenCipher } from './token-cipher.js';
import { recordAction } from '../accounting/record-action.js';
import { principalCreations } from '../principals/principal-creations.js';

/** A sign-in between the button and the provider's answer. */
interface LoginTransaction {
  readonly provider: string;
  readonly binding: string;
  readonly codeVerifier: string;
  readonly nonce: string;
  readonly redirectUri: string;
  readonly returnTo: URL;
  readonly returnKind: ReturnTarget['kind'];
  readonly challenge: string;
}

/** A validated sign-in waiting for its starter to redeem the key. */
interface Handoff {
  readonly provider: string;
  readonly challenge: string;
  readonly user: string;
  readonly claims: UserClaims;
  readonly grant: ClaimGrant;
  readonly refreshToken?: string;
}

/** Where the browser goes after the provider answered. */
export interface CallbackOutcome {
  readonly redirect: string;
}

/** What the user is asked before a program on a loopback port gets a key: who, what, and which program. */
export interface LoopbackConsentView {
  readonly request: string;
  readonly token: string;
  /** The program's address as `host:port`: all the gateway knows of it. */
  readonly listener: string;
  readonly user: string;
  readonly providerName: string;
  readonly team: string | null;
  readonly scopes: readonly string[];
  /** null: every allowed model. */
  readonly models: readonly string[] | null;
  readonly keyTtlSeconds: number | null;
}

/** Dependencies of the SSO service. */
export interface SsoServiceDeps {
  readonly clients: ReadonlyMap<string, OidcClient>;
  readonly keys: KeysService;
  /** Makes the key's user and team records (as an admin-issued key's are). */
  readonly principals: Pick<PrincipalsService, 'ensureForKey' | 'user' | 'bindSsoAccount' | 'updateUser'>;
  readonly repository: SsoRepository;
  readonly cipher: TokenCipher;
  readonly audit: AuditRepository;
  readonly bus: GatewayEventBus;
  readonly loginTimeoutMs: number;
  readonly log: (message: string, details?: Record<string, unknown>) => void;
  readonly now?: () => number;
}

const HANDOFF_TTL_MS = 120_000;
/** A user record's e-mail, as the admin API takes it. */
const EMAIL = z.email().max(320);
/** How long the UI can look up why a sign-in failed (a reload of its page included). */
const FAILURE_TTL_MS = 600_000;
const MAX_PENDING = 10_000;

/** sha256, base64url: the S256 of PKCE, used for the hand-off's challenge too. */
export function s256(verifier: string): string {
  return hash('sha256', verifier, 'base64url');
}

/**
 * Single sign-on issuance of API keys: starts sign-ins (state, nonce, PKCE), finishes them (the code
 * exchanged and the ID token validated by openid-client), maps claims to a key, hands the key over
 * once to whoever started the sign-in, and signs its holder out.
 */
export class SsoService {
  private readonly logins: PendingStore<LoginTransaction>;
  private readonly handoffs: PendingStore<Handoff>;
  private readonly consents: LoopbackConsents<Handoff>;
  private readonly failures: PendingStore<SsoFailure>;
  private readonly now: () => number;
  /** The sessions behind issued keys: checks, sign-out, admin ends. */
  readonly sessions: SsoSessions;
  private readonly bindings: IdentityBindings;

  constructor(private readonly deps: SsoServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.sessions = new SsoSessions({ ...deps, now: this.now });
    this.logins = new PendingStore(deps.loginTimeoutMs, MAX_PENDING, this.now);
    this.handoffs = new PendingStore(HANDOFF_TTL_MS, MAX_PENDING, this.now);
    this.consents = new LoopbackConsents(deps.loginTimeoutMs, MAX_PENDING, this.now);
    this.failures = new PendingStore(FAILURE_TTL_MS, MAX_PENDING, this.now);
    this.bindings = new IdentityBindings({
      principals: deps.principals,
      audit: (actor, action, target, requestId, details) => this.audit(actor, action, target, requestId, details),
    });
  }

  /** The configured providers, for the sign-in buttons. */
  providers(): SsoProviderInfo[] {
    return [...this.deps.clients.values()].map((client) => ({ id: client.id, name: client.label }));
  }

  /** Starts a sign-in: the provider's authorization URL to send the browser to. */
  async startLogin(input: {
    provider: string;
    returnTo: string;
    challenge: string;
    binding: string;
    gatewayOrigin: string;
    /** Whether a host name is one of this gateway's (see parseReturnTarget). */
    ownName?: (hostname: string) => boolean;
  }): Promise<string> {
    const client = this.client(input.provider);
    const target = parseReturnTarget(input.returnTo, input.gatewayOrigin, input.ownName);
    if ('problem' in target) throw new SsoError('invalid_request_error', target.problem);
    const state = randomToken();
    const transaction: LoginTransaction = {
      provider: client.id,
      binding: input.binding,
      codeVerifier: randomToken(),
      nonce: randomToken(),
      redirectUri: client.settings.redirect_uri ?? `${input.gatewayOrigin}/sso/callback`,
      returnTo: target.url,
      returnKind: target.kind,
      challenge: input.challenge,
    };
    let url: URL;
    try {
      url = await client.authorizationUrl({ ...transaction, state });
    } catch (error) {
      // return_to is known to be safe by now: the browser goes back there, as from a failed callback,
      // rather than being left on an error document.
      const failure = asSsoError(error);
      this.deps.log('sso sign-in could not start', {
        provider: client.id,
        type: failure.type,
        reason: failure.message,
      });
      return this.failed(target.url, target.kind, failure);
    }
    this.logins.put(state, transaction);
    return url.toString();
  }

  /**
   * Finishes a sign-in. An unknown, used or expired state, or a browser other than the one that
   * started, is refused here (the error shape); once the sign-in is known, the browser goes back to
   * its starter with `handoff` or with `error` and `error_description`.
   */
  async callback(
    query: Record<string, unknown>,
    binding: string | undefined,
    requestId: string | null,
  ): Promise<CallbackOutcome> {
    const state = typeof query.state === 'string' ? query.state : undefined;
    if (state === undefined) throw new SsoError('invalid_request_error', 'state is missing from the callback');
    const transaction = this.logins.peek(state);
    if (transaction === undefined)
      throw new SsoError(
        'invalid_request_error',
        'state does not match a sign-in in progress (unknown, already used or expired)',
      );
    // Checked before the state is used up: whoever replays a callback they saw from another browser
    // gets nothing from it, and must not end the sign-in of the person it belongs to either.
    if (binding === undefined || !sameSecret(binding, transaction.binding))
      throw new SsoError(
        'invalid_request_error',
        'this sign-in was started in another browser (the sign-in cookie does not match)',
      );
    this.logins.take(state);
    const client = this.client(transaction.provider);
    try {
      const callbackUrl = new URL(transaction.redirectUri);
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) if (typeof value === 'string') search.set(name, value);
      callbackUrl.search = search.toString();
      const tokens = await client.exchange(callbackUrl, {
        state,
        nonce: transaction.nonce,
        codeVerifier: transaction.codeVerifier,
      });
      const user = signInUser(client, tokens.claims);
      this.bindings.assertOwn(client, user, accountOf(tokens.claims, client), requestId);
      const grant = mapClaims(client.settings, tokens.claims);
      if (grant === undefined)
        throw new SsoError(
          'permission_error',
          `${user} matches no claim mapping of ${client.label}, and the provider has no default_grant`,
          `this account matches no claim mapping of ${client.label}, and the provider has no default_grant`,
        );
      const pending: Handoff = {
        provider: client.id,
        challenge: transaction.challenge,
        user,
        claims: tokens.claims,
        grant,
        refreshToken: tokens.refreshToken,
      };
      // Whoever made the link chose the challenge, so PKCE cannot tell a program the user runs from
      // one that waits for their key: the user says which, on a page only the gateway serves.
      if (transaction.returnKind === 'loopback') {
        const request = this.consents.ask(transaction.binding, transaction.returnTo, pending);
        return { redirect: `${CONSENT_PATH}?${new URLSearchParams({ request })}` };
      }
      return { redirect: withParams(transaction.returnTo, { handoff: this.handOff(pending) }) };
    } catch (error) {
      const failure = asSsoError(error);
      this.deps.log('sso sign-in failed', { provider: client.id, type: failure.type, reason: failure.message });
      return { redirect: this.failed(transaction.returnTo, transaction.returnKind, failure) };
    }
  }

  /** The question of a confirmation, for the browser that signed in. */
  consent(request: string, binding: string | undefined): LoopbackConsentView {
    const { token, returnTo, handoff } = this.consents.show(request, binding);
    const { key } = handoff.grant;
    const client = this.client(handoff.provider);
    return {
      request,
      token,
      listener: returnTo.host,
      user: handoff.user,
      providerName: client.label,
      team: key.team ?? null,
      scopes: key.scopes ?? ['chat'],
      models: key.models ?? null,
      keyTtlSeconds: client.settings.key_ttl_seconds ?? null,
    };
  }

  /** The user's answer: Allow sends the program its hand-off, Deny sends it `error=access_denied`. */
  answerConsent(input: { request: string; token: string; allow: boolean }, binding: string | undefined): string {
    const { returnTo, handoff } = this.consents.answer(input.request, binding, input.token);
    if (input.allow) return withParams(returnTo, { handoff: this.handOff(handoff) });
    this.deps.log('sso key refused to a loopback program by the user', {
      provider: handoff.provider,
      listener: returnTo.host,
    });
    return withParams(returnTo, {
      error: 'access_denied',
      error_description: `the user did not allow a key for the program listening on ${returnTo.host}`,
    });
  }

  /** Issues the key of a finished sign-in to the holder of the verifier; the secret is in this answer only. */
  async redeem(input: { handoff: string; verifier: string }, requestId: string): Promise<SsoIssuedKey> {
    const pending = this.handoffs.take(input.handoff);
    if (pending === undefined)
      throw new SsoError('invalid_request_error', 'handoff is unknown, already redeemed or expired');
    if (!sameSecret(s256(input.verifier), pending.challenge))
      throw new SsoError('invalid_request_error', 'verifier does not match the challenge the sign-in was started with');
    const client = this.client(pending.provider);
    const account = accountOf(pending.claims, client);
    const issuer = account.issuer;
    // Checked again: another account's sign-in for the same id may have been redeemed since the callback.
    this.bindings.assertOwn(client, pending.user, account, requestId);
    const sessionId = newId('sso');
    const now = this.now();
    // The user record's id is the stable id from the claims; a mapped team becomes a team record.
    const ensured = this.deps.principals.ensureForKey(pending.user, pending.grant.key.team);
    const profile = this.fillProfile(pending.user, pending.claims);
    for (const event of principalCreations(ensured)) {
      const details = event.action === 'user.create' ? { ...event.details, ...profile } : event.details;
      this.audit(`sso:${client.id}`, event.action, event.target, requestId, details, event.changed);
    }
    if (ensured.createdUser === null && Object.keys(profile).length > 0)
      this.audit(`sso:${client.id}`, 'user.update', pending.user, requestId, profile, {
        topic: 'users',
        ids: [pending.user],
      });
    this.bindings.bindIfFree(client, pending.user, account, ensured.createdUser === null, requestId);
    const team = pending.grant.key.team ?? adminTeam(ensured.team, this.mappedTeams());
    const { row, secret } = this.deps.keys.issue(
      {
        ...pending.grant.key,
        ...(team !== null ? { team } : {}),
        name: `${client.id}: ${pending.user}`,
        user: pending.user,
        expires_in_seconds: client.settings.key_ttl_seconds,
        metadata: { sso_provider: client.id },
      },
      { issuer, subject: pending.claims.sub, ssoSessionId: sessionId },
    );
    this.deps.repository.insert({
      id: sessionId,
      provider: client.id,
      issuer,
      subject: pending.claims.sub,
      ownerUser: pending.user,
      keyId: row.id,
      groups: [...pending.grant.matched],
      refreshToken: pending.refreshToken ? this.deps.cipher.encrypt(pending.refreshToken) : null,
      createdAt: now,
      refreshedAt: null,
      endedAt: null,
      endReason: null,
    });
    this.audit(`sso:${client.id}`, 'api_key.create', row.id, requestId, {
      name: row.name,
      user: row.ownerUser,
      team: row.team,
      scopes: row.scopes,
      issuer: row.issuer,
      subject: row.subject,
      groups: pending.grant.matched,
    });
    this.deps.bus.invalidate('api-keys', [row.id]);
    await this.endOldestPastCap(client, pending.user, requestId);
    return {
      ...toKeyRecord(row, now),
      key: secret,
      provider: client.id,
      provider_name: client.label,
      session_id: sessionId,
      refreshable: Boolean(pending.refreshToken),
    };
  }

  /** Signs out the holder of an SSO key: the key is revoked, the refresh token revoked at the provider. */
  async logout(secret: string, requestId: string): Promise<SsoLogoutResult> {
    const check = this.deps.keys.check(secret);
    if (!check.ok) throw new SsoError('authentication_error', KEY_REJECTION_MESSAGES[check.reason]);
    const sessionId = check.key.row.ssoSessionId;
    const session = sessionId ? this.deps.repository.findById(sessionId) : undefined;
    if (!session)
      throw new SsoError('invalid_request_error', 'this API key was not issued by single sign-on; an admin revokes it');
    await this.sessions.end(session, 'signed out', requestId, `sso:${session.provider}`);
    const client = this.deps.clients.get(session.provider);
    return {
      key_id: session.keyId,
      session_id: session.id,
      revoked: true,
      end_session_url: client ? ((await client.endSessionUrl()) ?? null) : null,
    };
  }

  /** The origin of the provider's configured redirect_uri, where its sign-ins must start (the cookie is read there). */
  callbackOrigin(provider: string): string | undefined {
    const uri = this.client(provider).settings.redirect_uri;
    return uri === undefined ? undefined : new URL(uri).origin;
  }

  /** What a failed sign-in's `error_ref` stands for: the gateway's own words, never the address's. */
  failure(ref: string): SsoFailure | undefined {
    return this.failures.peek(ref);
  }

  /**
   * Where a failed sign-in goes. A program on a loopback port gets the description in the address;
   * the UI gets only a reference to it, so that a link to the UI's page cannot make it show
   * someone's text on the gateway's origin.
   */
  private failed(returnTo: URL, kind: ReturnTarget['kind'], failure: SsoError): string {
    const message = failure.publicMessage ?? failure.message;
    if (kind === 'loopback') return withParams(returnTo, { error: failure.type, error_description: message });
    const ref = randomBytes(18).toString('base64url');
    this.failures.put(ref, { type: failure.type, message });
    return withParams(returnTo, { error: failure.type, error_ref: ref });
  }

  /** Refuses a provider that is not configured, naming the ones that are. */
  assertProvider(id: string): void {
    this.client(id);
  }

  /**
   * Ends the user's oldest sessions of this provider past its max_active_keys_per_user: each sign-in
   * issues a key with the mapped rpm/tpm limits of its own, which signing in again must not multiply.
   */
  private async endOldestPastCap(client: OidcClient, user: string, requestId: string): Promise<void> {
    const open = this.deps.repository
      .list({ includeEnded: false, provider: client.id })
      .filter((session) => session.ownerUser === user);
    // Newest first: the ones past the cap are the oldest.
    for (const session of open.slice(client.settings.max_active_keys_per_user))
      await this.sessions.end(
        session,
        `more than ${client.settings.max_active_keys_per_user} active keys (max_active_keys_per_user)`,
        requestId,
        `sso:${client.id}`,
      );
  }

  /**
   * Fills the user record's name and e-mail from the claims where the record has none; returns what
   * it set. A value on
   * the record is kept: the gateway cannot tell an admin's from an earlier sign-in's, and an admin's
   * must not be overwritten; clearing it lets the next sign-in fill it again.
   */
  private fillProfile(user: string, claims: UserClaims): { name?: string; email?: string } {
    const record = this.deps.principals.user(user);
    if (record === undefined) return {};
    const patch: { name?: string; email?: string } = {};
    const name = profileText(claims.name);
    // An address the provider says it has not verified could be anyone's.
    const email = claims.email_verified === false ? undefined : profileText(claims.email)?.toLowerCase();
    if (record.name === null && name !== undefined) patch.name = name;
    if (record.email === null && email !== undefined && EMAIL.safeParse(email).success) patch.email = email;
    if (Object.keys(patch).length > 0) this.deps.principals.updateUser(user, patch);
    return patch;
  }

  /** Every team some configured provider maps: none of them is an admin's to keep on a user record. */
  private mappedTeams(): ReadonlySet<string> {
    return new Set([...this.deps.clients.values()].flatMap((client) => teamsOf(client.settings)));
  }

  /** Keeps a finished sign-in for its starter to redeem; returns the one-time hand-off. */
  private handOff(pending: Handoff): string {
    const handoff = randomBytes(24).toString('base64url');
    this.handoffs.put(handoff, pending);
    return handoff;
  }

  private client(id: string): OidcClient {
    const client = this.deps.clients.get(id);
    if (!client) {
      const known = [...this.deps.clients.keys()];
      throw new SsoError(
        'invalid_request_error',
        `provider '${id.slice(0, 100)}' is not configured${known.length ? `; configured: ${known.join(', ')}` : ' (sso.providers is empty)'}`,
      );
    }
    return client;
  }

  private audit(
    actor: string,
    action: string,
    target: string,
    requestId: string | null,
    details: Record<string, unknown>,
    changed?: Parameters<typeof recordAction>[3],
  ): void {
    const entry = { createdAt: this.now(), actor, action, target, requestId, details };
    recordAction(this.deps.audit, this.deps.bus, entry, changed);
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function withParams(base: URL, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

function asSsoError(error: unknown): SsoError {
  if (error instanceof SsoError) return error;
  if (error instanceof OidcFailure)
    return error.kind === 'rejected'
      ? new SsoError('authentication_error', `the sign-in was rejected: ${error.message}`)
      : new SsoError('upstream_error', `the identity provider could not be used: ${error.message}`);
  throw error;
}

/** A state, nonce or PKCE verifier: 32 random bytes in base64url, as openid-client makes them (43 characters). */
function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A profile claim fit for a user record: a non-empty string, trimmed, at most 200 characters. */
function profileText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim().normalize('NFC');
  return text === '' || text.length > 200 ? undefined : text;
}

/** The account a sign-in is from: the validated ID token's issuer (the configured one, as the provider spells it) and subject. */
function accountOf(claims: UserClaims, client: OidcClient): SignInAccount {
  return { issuer: typeof claims.iss === 'string' ? claims.iss : client.settings.issuer, subject: claims.sub };
}

/**
 * The user record's team for a sign-in whose matches set none, when an admin gave it: a team any
 * configured provider's mappings (or default grant) assign is that provider's to give or withhold,
 * and on the record it may be one mapped from a group the user has since left, which must not outlive
 * the group's removal (nor come back through a sign-in with another provider).
 */
function adminTeam(recordTeam: string | null, mappedTeams: ReadonlySet<string>): string | null {
  return recordTeam === null || mappedTeams.has(recordTeam) ? null : recordTeam;
}

/** The teams a provider's mappings (or default grant) assign. */
function teamsOf(provider: SsoProviderConfig): string[] {
  return [...provider.mappings, ...(provider.default_grant ? [provider.default_grant] : [])].flatMap((grant) =>
    grant.team === undefined ? [] : [grant.team],
  );
}
