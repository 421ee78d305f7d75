import type { ApiKeyCreate, ApiKeyUpdate } from '../../../shared/gateway-api.js';
import { LruCache } from './lru-cache.js';
import type { DatabaseLockWatch } from '../../db/lock-watch.js';
import { isDatabaseBusy } from '../../http/database-errors.js';
import { digestKeySecret, digestsEqual, displayPrefix, generateKeySecret, hashKeySecret, newId } from './key-secret.js';
import { keyStatus } from './key-view.js';
import { DEFAULT_SCOPES } from './scopes.js';
import type { ApiKeyFilter, ApiKeyPatch, ApiKeyRow, KeysRepository } from './keys.repository.js';

/** A key that passed authentication, with its model allow-list precompiled. */
export interface AuthenticatedKey {
  readonly row: ApiKeyRow;
  readonly models: ReadonlySet<string> | null;
  /** Presented with the secret from before the key's last rotation (it works until the grace period ends). */
  readonly previousSecret: boolean;
}

/** Why a presented key was refused. */
export type KeyRejection = 'unknown' | 'expired' | 'revoked' | 'rotated';

/** What a caller is told of a refused key, in the same words wherever a key is presented. */
export const KEY_REJECTION_MESSAGES: Readonly<Record<KeyRejection, string>> = {
  unknown: 'invalid API key',
  expired: 'API key has expired',
  revoked: 'API key has been revoked',
  rotated: 'API key has been rotated: this secret was replaced; use the new one',
};

/** The outcome of checking a presented key. */
export type KeyCheck =
  { readonly ok: true; readonly key: AuthenticatedKey } | { readonly ok: false; readonly reason: KeyRejection };

/** Who a key was issued to through single sign-on: the OpenID issuer, the subject and the session. */
export interface KeyOrigin {
  readonly issuer: string;
  readonly subject: string;
  readonly ssoSessionId: string;
}

/** Options of the keys service. */
export interface KeysServiceOptions {
  readonly cacheSize?: number;
  /** How often last-use times are written (they are batched, never a write per request). */
  readonly touchIntervalMs?: number;
  readonly now?: () => number;
  /** The database's lock watch: last-use times wait while another process holds the lock. */
  readonly lock?: DatabaseLockWatch;
  /** Told when last-use times could not be written (they are kept and tried again). */
  readonly onError?: (error: unknown) => void;
}

/** Issues, looks up and manages API keys; lookups are served from memory after the first. */
export class KeysService {
  private readonly cache: LruCache<string, AuthenticatedKey>;
  private readonly now: () => number;
  private pendingTouches = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private readonly revokedListeners: Array<(row: ApiKeyRow, requestId: string | null) => void> = [];

  constructor(
    private readonly repository: KeysRepository,
    private readonly options: KeysServiceOptions = {},
  ) {
    this.cache = new LruCache(options.cacheSize ?? 10_000);
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => this.flushTouches(), options.touchIntervalMs ?? 1000);
    this.timer.unref();
  }

  /** Creates a key; the secret is returned here only and never stored. `origin` marks a key issued by single sign-on. */
  issue(input: ApiKeyCreate, origin?: KeyOrigin): { row: ApiKeyRow; secret: string } {
    const secret = generateKeySecret();
    const now = this.now();
    const expiresAt =
      input.expires_in_seconds !== undefined ? now + input.expires_in_seconds * 1000 : parseTime(input.expires_at);
    const row = this.repository.insert({
      id: newId('key'),
      name: input.name ?? null,
      keyPrefix: displayPrefix(secret),
      keyHash: hashKeySecret(secret),
      ownerUser: input.user ?? null,
      team: input.team ?? null,
      scopes: [...new Set(input.scopes ?? DEFAULT_SCOPES)],
      allowedModels: input.models ?? null,
      rpmLimit: input.rpm_limit ?? null,
      tpmLimit: input.tpm_limit ?? null,
      maxParallelRequests: input.max_parallel_requests ?? null,
      usdDailyBudget: input.usd_daily_budget ?? null,
      usdMonthlyBudget: input.usd_monthly_budget ?? null,
      userTpmBudget: input.user_tpm_budget ?? null,
      userTpdBudget: input.user_tpd_budget ?? null,
      teamTpmBudget: input.team_tpm_budget ?? null,
      teamTpdBudget: input.team_tpd_budget ?? null,
      metadata: input.metadata ?? null,
      allowStateful: input.allow_stateful ?? true,
      expiresAt,
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
      issuer: origin?.issuer ?? null,
      subject: origin?.subject ?? null,
      ssoSessionId: origin?.ssoSessionId ?? null,
    });
    return { row, secret };
  }

  /**
   * Checks a presented secret. The first time: sha256, the stored hash looked up, then compared in
   * constant time. A secret that passed is remembered as it was presented, so later requests with
   * it cost one map lookup instead of a hash (the secret is in this process's memory with every
   * request that carries it anyway). Changes to the key drop it (forget), so they apply at once.
   */
  check(secret: string): KeyCheck {
    let entry = this.cache.get(secret);
    if (entry === undefined) {
      entry = this.lookUp(secret);
      if (entry === undefined) return { ok: false, reason: 'unknown' };
      this.cache.set(secret, entry);
    }
    const now = this.now();
    const status = keyStatus(entry.row, now);
    if (status !== 'active') return { ok: false, reason: status };
    if (entry.previousSecret && now >= (entry.row.previousKeyExpiresAt ?? 0)) return { ok: false, reason: 'rotated' };
    return { ok: true, key: entry };
  }

  /** The key a secret belongs to: as its current secret, or as the one its last rotation replaced. */
  private lookUp(secret: string): AuthenticatedKey | undefined {
    const digest = digestKeySecret(secret);
    const hex = digest.toString('hex');
    const current = this.repository.findByHash(hex);
    if (current !== undefined) return matches(current.keyHash, digest) ? authenticated(current, false) : undefined;
    const replaced = this.repository.findByPreviousHash(hex);
    if (replaced?.previousKeyHash && matches(replaced.previousKeyHash, digest)) return authenticated(replaced, true);
    return undefined;
  }

  /** Notes a use of the key; written with the next batch. */
  noteUsed(id: string): void {
    this.pendingTouches.set(id, this.now());
  }

  /** Keys matching the filter. */
  list(filter: ApiKeyFilter): ApiKeyRow[] {
    return this.repository.list(filter);
  }

  /** One key, if it exists. */
  get(id: string): ApiKeyRow | undefined {
    return this.repository.findById(id);
  }

  /** Changes a key; the cached copy is dropped so the change applies to the next request. */
  update(id: string, input: ApiKeyUpdate): ApiKeyRow | undefined {
    const patch: ApiKeyPatch = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.user !== undefined) patch.ownerUser = input.user;
    if (input.team !== undefined) patch.team = input.team;
    if (input.scopes !== undefined) patch.scopes = [...new Set(input.scopes)];
    if (input.models !== undefined) patch.allowedModels = input.models;
    if (input.rpm_limit !== undefined) patch.rpmLimit = input.rpm_limit;
    if (input.tpm_limit !== undefined) patch.tpmLimit = input.tpm_limit;
    if (input.max_parallel_requests !== undefined) patch.maxParallelRequests = input.max_parallel_requests;
    if (input.usd_daily_budget !== undefined) patch.usdDailyBudget = input.usd_daily_budget;
    if (input.usd_monthly_budget !== undefined) patch.usdMonthlyBudget = input.usd_monthly_budget;
    if (input.user_tpm_budget !== undefined) patch.userTpmBudget = input.user_tpm_budget;
    if (input.user_tpd_budget !== undefined) patch.userTpdBudget = input.user_tpd_budget;
    if (input.team_tpm_budget !== undefined) patch.teamTpmBudget = input.team_tpm_budget;
    if (input.team_tpd_budget !== undefined) patch.teamTpdBudget = input.team_tpd_budget;
    if (input.metadata !== undefined) patch.metadata = input.metadata;
    if (input.allow_stateful !== undefined) patch.allowStateful = input.allow_stateful;
    if (input.expires_at !== undefined) patch.expiresAt = parseTime(input.expires_at);
    if (input.expires_in_seconds !== undefined) patch.expiresAt = this.now() + input.expires_in_seconds * 1000;
    const row = this.repository.update(id, patch);
    this.forget(id);
    return row;
  }

  /**
   * A user moved from team `from` to team `to`: their keys that were in the old team follow them (a key
   * given another team on purpose stays there). The moved keys apply their new team from the next
   * request; their ids are returned, for the audit trail.
   */
  followUserTeam(user: string, from: string | null, to: string | null): readonly string[] {
    const moved = this.repository.moveUserKeys(user, from, to);
    for (const id of moved) this.forget(id);
    return moved;
  }

  /**
   * Revokes a key (idempotent); it answers 401 from the next request on. Those listening (the SSO
   * sessions, whose session ends with its key) are told once, on the revocation itself; `requestId`
   * is the request that asked, for their audit.
   */
  revoke(id: string, requestId: string | null = null): ApiKeyRow | undefined {
    const existing = this.repository.findById(id);
    if (existing === undefined || existing.revokedAt !== null) return existing;
    const row = this.repository.update(id, { revokedAt: this.now() });
    this.forget(id);
    if (row !== undefined) for (const listener of this.revokedListeners) listener(row, requestId);
    return row;
  }

  /** Calls `listener` on every revocation from now on (not on revoking a key already revoked). */
  onRevoked(listener: (row: ApiKeyRow, requestId: string | null) => void): void {
    this.revokedListeners.push(listener);
  }

  /**
   * Gives a key a new secret (returned here only); its id, limits, usage and history stay. The old
   * secret works for `graceSeconds` more (0: it stops now), and one from an earlier rotation stops now.
   */
  rotate(id: string, graceSeconds: number): { row: ApiKeyRow; secret: string } | undefined {
    const secret = generateKeySecret();
    const at = this.now();
    const row = this.repository.replaceSecret(id, {
      keyHash: hashKeySecret(secret),
      keyPrefix: displayPrefix(secret),
      at,
      previousExpiresAt: at + graceSeconds * 1000,
    });
    this.forget(id);
    return row && { row, secret };
  }

  /** Writes pending last-use times. */
  flushTouches(): void {
    if (this.pendingTouches.size === 0 || this.options.lock?.held) return;
    const pending = this.pendingTouches;
    this.pendingTouches = new Map();
    try {
      this.repository.touchMany(pending);
    } catch (error) {
      // Runs on a timer, where a throw would end the process: the times are kept for the next try
      // (one per key, so the map stays small), a use noted meanwhile being the newer.
      for (const [id, at] of pending) if (!this.pendingTouches.has(id)) this.pendingTouches.set(id, at);
      if (isDatabaseBusy(error)) this.options.lock?.noteBusy();
      else this.options.onError?.(error);
    }
  }

  /** Stops the timer and writes what is pending. */
  close(): void {
    clearInterval(this.timer);
    this.flushTouches();
  }

  private forget(id: string): void {
    this.cache.deleteWhere((entry) => entry.row.id === id);
  }
}

function authenticated(row: ApiKeyRow, previousSecret: boolean): AuthenticatedKey {
  return { row, models: row.allowedModels ? new Set(row.allowedModels) : null, previousSecret };
}

/** Whether a stored hash is the presented secret's digest, compared in constant time. */
function matches(storedHex: string, digest: Buffer): boolean {
  return digestsEqual(Buffer.from(storedHex, 'hex'), digest);
}

function parseTime(value: string | null | undefined): number | null {
  return value === undefined || value === null ? null : Date.parse(value);
}
