import type { SsoRefreshResult, SsoSessionRecord } from '../../../shared/sso-api.js';
import type { AuditRepository } from '../accounting/audit.repository.js';
import type { ApiKeyRow } from '../keys/keys.repository.js';
import type { KeysService } from '../keys/keys.service.js';
import type { GatewayEventBus } from '../traffic/event-bus.js';
import { stillHolds } from './claim-mapping.js';
import type { OidcClient } from './oidc-client.js';
import { OidcFailure } from './oidc-failure.js';
import { SessionVerification, verifiedAt } from './session-verification.js';
import { SsoError } from './sso-errors.js';
import type { SsoRepository, SsoSessionRow } from './sso.repository.js';
import type { TokenCipher } from './token-cipher.js';
import { recordAction } from '../accounting/record-action.js';

/** Dependencies of the session lifecycle. */
export interface SsoSessionsDeps {
  readonly clients: ReadonlyMap<string, OidcClient>;
  readonly keys: KeysService;
  readonly repository: SsoRepository;
  readonly cipher: TokenCipher;
  readonly audit: AuditRepository;
  readonly bus: GatewayEventBus;
  readonly log: (message: string, details?: Record<string, unknown>) => void;
  readonly now: () => number;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** How many sessions a round checks at once: a hanging provider costs a round its timeout per batch, not per session. */
const ROUND_CONCURRENCY = 8;

/** What a check found: the session holds, ended (why), or could not be checked (why; it stays open). */
type CheckOutcome =
  | { readonly kind: 'held' }
  | { readonly kind: 'ended'; readonly reason: string }
  | { readonly kind: 'unavailable'; readonly reason: string };

const HELD: CheckOutcome = { kind: 'held' };

/**
 * The sessions behind SSO-issued keys: checked with their refresh token (the user must still hold
 * the mapped groups the key was granted for), ended on sign-out, by an admin, or when a check fails;
 * ending one revokes its key and its refresh token at the provider.
 */
export class SsoSessions {
  private readonly inFlight = new Map<string, Promise<CheckOutcome>>();
  private round: Promise<SsoRefreshResult> | undefined;
  private readonly now: () => number;

  /** Sessions whose own ending is revoking their key: that revocation is not one to end them for. */
  private readonly closing = new Set<string>();

  /** Which sessions the provider could not confirm lately, and which keys are suspended for it. */
  private readonly verification = new SessionVerification();

  constructor(private readonly deps: SsoSessionsDeps) {
    this.now = deps.now;
    deps.keys.onRevoked((row, requestId) => this.keyRevoked(row, requestId));
  }

  /**
   * A key revoked elsewhere (the admin API, the UI) ends its session at once, as a refresh round
   * would on finding it: the session shows as ended and its refresh token is revoked at the provider
   * now, not up to a refresh interval later. The provider's part runs on after the revocation returns.
   */
  private keyRevoked(row: ApiKeyRow, requestId: string | null): void {
    if (row.ssoSessionId === null || this.closing.has(row.ssoSessionId)) return;
    const session = this.deps.repository.findById(row.ssoSessionId);
    if (session === undefined || session.endedAt !== null) return;
    this.end(session, 'key revoked', requestId, `sso:${session.provider}`).catch((error: unknown) =>
      this.deps.log('sso session of a revoked key could not be ended', {
        session_id: session.id,
        reason: (error as Error).message,
      }),
    );
  }

  /** Ends a session as an admin: the key is revoked. */
  async endByAdmin(id: string, requestId: string): Promise<SsoSessionRecord> {
    const session = this.deps.repository.findById(id);
    if (!session) throw new SsoError('not_found_error', `no SSO session with id '${id}'`);
    if (session.endedAt === null) await this.end(session, 'ended by an admin', requestId, 'master');
    return this.session(id);
  }

  /**
   * What a request with a suspended key is told (its session's membership went unverified past the
   * provider's max_unverified_seconds), by key id; set by the refresh checks, so reading it costs a
   * map lookup.
   */
  get suspendedKeys(): ReadonlyMap<string, string> {
    return this.verification.suspendedKeys;
  }

  /**
   * Why a key is suspended (the 401's message), or undefined: for every place that accepts an API key
   * for something other than signing out. An admin-issued key costs no lookup.
   */
  suspensionOf(row: { readonly id: string; readonly ssoSessionId: string | null }): string | undefined {
    return row.ssoSessionId === null ? undefined : this.verification.suspendedKeys.get(row.id);
  }

  /** Sessions, never their refresh tokens. */
  listSessions(filter: { provider?: string; includeEnded: boolean }): SsoSessionRecord[] {
    return this.deps.repository.list(filter).map((row) => this.toRecord(row));
  }

  /** One session. */
  session(id: string): SsoSessionRecord {
    const session = this.deps.repository.findById(id);
    if (!session) throw new SsoError('not_found_error', `no SSO session with id '${id}'`);
    return this.toRecord(session);
  }

  /** Checks one session now (refresh token, mapped groups); the session as it is afterwards. */
  async refreshSession(id: string, requestId: string): Promise<SsoSessionRecord> {
    const session = this.deps.repository.findById(id);
    if (!session) throw new SsoError('not_found_error', `no SSO session with id '${id}'`);
    const outcome = await this.check(session, requestId);
    if (outcome.kind === 'unavailable')
      throw new SsoError('upstream_error', `the session could not be checked: ${outcome.reason}; it stays open`);
    return this.session(id);
  }

  /** The timer's round: the sessions whose interval has passed; a round still running is not started again. */
  refreshDue(): Promise<SsoRefreshResult> {
    this.round ??= this.refreshAll(null, true).finally(() => (this.round = undefined));
    return this.round;
  }

  /** Checks every open session (`dueOnly`: those whose refresh interval has passed), a few at a time. */
  async refreshAll(requestId: string | null, dueOnly: boolean): Promise<SsoRefreshResult> {
    const now = this.now();
    const due = this.deps.repository.list({ includeEnded: false }).filter((session) => {
      const client = this.deps.clients.get(session.provider);
      if (!client) return false;
      return (
        !dueOnly || (session.refreshedAt ?? session.createdAt) + client.settings.refresh_interval_seconds * 1000 <= now
      );
    });
    const outcomes = await inBatches(due, ROUND_CONCURRENCY, (session) => this.checkAlone(session, requestId));
    const result: SsoRefreshResult = { checked: due.length, ended: [], unavailable: 0 };
    due.forEach((session, index) => {
      const outcome = outcomes[index]!;
      if (outcome.kind === 'unavailable') result.unavailable++;
      else if (outcome.kind === 'ended')
        result.ended.push({ session_id: session.id, key_id: session.keyId, reason: outcome.reason });
    });
    return result;
  }

  /** A check within a round: an unexpected error in one session's check leaves it open and the others unaffected. */
  private async checkAlone(session: SsoSessionRow, requestId: string | null): Promise<CheckOutcome> {
    try {
      return await this.check(session, requestId);
    } catch (error) {
      const reason = (error as Error).message;
      this.deps.log('sso refresh of a session failed; it stays open', {
        provider: session.provider,
        session: session.id,
        reason,
      });
      this.unverified(session, reason);
      return { kind: 'unavailable', reason };
    }
  }

  /** One check at a time per session: a rotated refresh token must not be used twice. */
  private check(session: SsoSessionRow, requestId: string | null): Promise<CheckOutcome> {
    let running = this.inFlight.get(session.id);
    if (!running) {
      running = this.checkOnce(session, requestId).finally(() => this.inFlight.delete(session.id));
      this.inFlight.set(session.id, running);
    }
    return running;
  }

  /** Whether the session holds, ended (and why), or could not be checked (the provider unavailable or refusing the gateway). */
  private async checkOnce(session: SsoSessionRow, requestId: string | null): Promise<CheckOutcome> {
    const current = this.deps.repository.findById(session.id);
    if (!current) return HELD;
    if (current.endedAt !== null) return { kind: 'ended', reason: current.endReason ?? 'ended' };
    const key = this.deps.keys.get(current.keyId);
    if (!key || key.revokedAt !== null) return this.endFor(current, 'key revoked', requestId);
    // An expired key needs its session no more: the refresh token is given back.
    if (key.expiresAt !== null && key.expiresAt <= this.now()) return this.endFor(current, 'key expired', requestId);
    const client = this.deps.clients.get(current.provider);
    const sealed = current.refreshToken;
    // Without a refresh token (the provider gave none: no offline_access) nothing can be checked.
    if (!client || sealed === null) return HELD;
    const refreshToken = this.deps.cipher.decrypt(sealed);
    if (refreshToken === undefined)
      return this.endFor(current, 'refresh token unreadable (sso.key changed)', requestId);
    try {
      const tokens = await client.refresh(refreshToken, current.subject);
      // Kept first: a provider that rotates refresh tokens has just made the old one worthless, and
      // ending the session below must revoke the token that is now live.
      const live = this.keep(current, tokens.refreshToken ?? refreshToken, true);
      if (!stillHolds(client.settings, current.groups, tokens.claims))
        return this.endFor(live, 'removed from a mapped group', requestId);
      if (this.verification.confirmed(live))
        this.deps.log('sso key works again: the provider confirmed the membership', {
          provider: live.provider,
          session: live.id,
          key_id: live.keyId,
        });
      return HELD;
    } catch (error) {
      if (!(error instanceof OidcFailure)) throw error;
      // The provider answered, then its answer failed here: the refresh token it rotated is the live one.
      const live = error.refreshToken ? this.keep(current, error.refreshToken, false) : current;
      if (error.kind === 'rejected')
        return this.endFor(live, `refresh refused by the provider (${error.message})`, requestId);
      this.deps.log('sso refresh could not check the session; it stays open', {
        provider: current.provider,
        session: current.id,
        reason: error.message,
      });
      this.unverified(live, error.message);
      return { kind: 'unavailable', reason: error.message };
    }
  }

  /** Stores the live refresh token (and, after a successful check, its time); the session as it is now. */
  private keep(session: SsoSessionRow, refreshToken: string, checked: boolean): SsoSessionRow {
    const sealed = this.deps.cipher.encrypt(refreshToken);
    if (!checked) {
      this.deps.repository.rotated(session.id, sealed);
      return { ...session, refreshToken: sealed };
    }
    const refreshedAt = this.now();
    this.deps.repository.refreshed(session.id, refreshedAt, sealed);
    return { ...session, refreshToken: sealed, refreshedAt };
  }

  /** A refresh could not check the session: marked unverified, its key suspended once that lasted past the bound. */
  private unverified(session: SsoSessionRow, reason: string): void {
    const client = this.deps.clients.get(session.provider);
    if (!client) return;
    const change = this.verification.failed(
      session,
      { label: client.label, maxUnverifiedSeconds: client.settings.max_unverified_seconds },
      this.now(),
    );
    if (change === 'suspended')
      this.deps.log('sso key suspended: the membership could not be verified for longer than max_unverified_seconds', {
        provider: session.provider,
        session: session.id,
        key_id: session.keyId,
        verified_at: new Date(verifiedAt(session)).toISOString(),
        max_unverified_seconds: client.settings.max_unverified_seconds,
        reason,
      });
  }

  private async endFor(session: SsoSessionRow, reason: string, requestId: string | null): Promise<CheckOutcome> {
    await this.end(session, reason, requestId, `sso:${session.provider}`);
    return { kind: 'ended', reason };
  }

  /** Revokes the key, ends the session (forgetting its refresh token) and revokes that token at the provider. */
  async end(session: SsoSessionRow, reason: string, requestId: string | null, actor: string): Promise<void> {
    if (!this.close(session, reason, requestId, actor)) return;
    const client = this.deps.clients.get(session.provider);
    const token = session.refreshToken ? this.deps.cipher.decrypt(session.refreshToken) : undefined;
    if (client && token) {
      const problem = await client.revoke(token);
      if (problem)
        this.deps.log('sso refresh token could not be revoked at the provider', {
          provider: client.id,
          reason: problem,
        });
    }
  }

  /**
   * Ends, at startup, the open sessions of providers no longer in the configuration. Nothing could
   * check them again (there is no client to refresh with), so their keys would stay valid, unchecked,
   * until they expired. Their refresh tokens cannot be revoked at a provider the gateway no longer
   * knows. Returns how many were ended.
   */
  endUnconfigured(): number {
    let ended = 0;
    for (const session of this.deps.repository.list({ includeEnded: false })) {
      if (this.deps.clients.has(session.provider)) continue;
      const reason = `provider '${session.provider}' is no longer configured`;
      if (this.close(session, reason, null, `sso:${session.provider}`)) ended += 1;
    }
    return ended;
  }

  /** The local part of ending a session: its key revoked, the session ended, both audited. False if it had already ended. */
  private close(session: SsoSessionRow, reason: string, requestId: string | null, actor: string): boolean {
    const before = this.deps.keys.get(session.keyId);
    this.closing.add(session.id);
    try {
      this.deps.keys.revoke(session.keyId, requestId);
    } finally {
      this.closing.delete(session.id);
    }
    this.verification.ended(session);
    if (!this.deps.repository.end(session.id, this.now(), reason)) return false;
    if (before?.revokedAt === null)
      this.audit(actor, 'api_key.revoke', session.keyId, requestId, { name: before.name, reason });
    this.audit(actor, 'sso.session.end', session.id, requestId, { key_id: session.keyId, reason });
    this.deps.bus.invalidate('api-keys', [session.keyId]);
    return true;
  }

  private audit(
    actor: string,
    action: string,
    target: string,
    requestId: string | null,
    details: Record<string, unknown>,
  ): void {
    recordAction(this.deps.audit, this.deps.bus, { createdAt: this.now(), actor, action, target, requestId, details });
  }

  private toRecord(row: SsoSessionRow): SsoSessionRecord {
    return toSessionRecord(row, this.verification.status(row));
  }
}

function toSessionRecord(row: SsoSessionRow, status: SsoSessionRecord['status']): SsoSessionRecord {
  return {
    id: row.id,
    provider: row.provider,
    issuer: row.issuer,
    subject: row.subject,
    user: row.ownerUser,
    key_id: row.keyId,
    groups: row.groups,
    refreshable: row.refreshToken !== null,
    created_at: new Date(row.createdAt).toISOString(),
    refreshed_at: iso(row.refreshedAt),
    ended_at: iso(row.endedAt),
    end_reason: row.endReason,
    verified_at: new Date(verifiedAt(row)).toISOString(),
    status,
  };
}

/** Runs `work` over `items`, at most `limit` at once; the results in the items' order. */
async function inBatches<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
