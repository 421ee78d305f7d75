import type { SsoSessionRecord } from '../../../shared/sso-api.js';
import type { SsoSessionRow } from './sso.repository.js';

/** The provider a session belongs to, as far as its suspension needs it. */
export interface VerifyingProvider {
  readonly label: string;
  /** How long membership may stay unverified before the key is suspended; 0: never. */
  readonly maxUnverifiedSeconds: number;
}

/** What a refresh that could not check a session changed. */
export type UnverifiedChange = 'unverified' | 'suspended' | 'unchanged';

/** When a session's membership was last confirmed by the provider: its last successful refresh, or the sign-in. */
export const verifiedAt = (row: SsoSessionRow): number => row.refreshedAt ?? row.createdAt;

/**
 * Which open sessions the provider could not confirm at their last refresh, and which of their keys
 * are suspended for it. Set by the refresh checks only: the key check reads `suspendedKeys`, one map
 * lookup, and never computes a time. Kept in memory: after a restart the first round (every session
 * is due by then) finds the failing ones again.
 */
export class SessionVerification {
  /** Open sessions whose last refresh could not check them. */
  private readonly unverified = new Set<string>();
  /** Suspended keys by id, with what a request with one is told. */
  private readonly suspended = new Map<string, string>();

  /** What a suspended key answers (401), by key id; absent: not suspended. */
  get suspendedKeys(): ReadonlyMap<string, string> {
    return this.suspended;
  }

  /** The provider confirmed the session: its key works again. True if it was suspended. */
  confirmed(row: SsoSessionRow): boolean {
    this.unverified.delete(row.id);
    return this.suspended.delete(row.keyId);
  }

  /** A refresh could not check the session: it is unverified, and suspended once that lasted past the bound. */
  failed(row: SsoSessionRow, provider: VerifyingProvider, now: number): UnverifiedChange {
    const wasUnverified = this.unverified.has(row.id);
    this.unverified.add(row.id);
    const since = verifiedAt(row);
    const bound = provider.maxUnverifiedSeconds * 1000;
    if (bound > 0 && now - since >= bound && !this.suspended.has(row.keyId)) {
      this.suspended.set(row.keyId, suspensionMessage(provider.label, since));
      return 'suspended';
    }
    return wasUnverified ? 'unchanged' : 'unverified';
  }

  /** The session ended: its key is revoked, so nothing of it is kept. */
  ended(row: SsoSessionRow): void {
    this.unverified.delete(row.id);
    this.suspended.delete(row.keyId);
  }

  /** The session's status as the admin API shows it. */
  status(row: SsoSessionRow): SsoSessionRecord['status'] {
    if (row.endedAt !== null) return 'ended';
    if (this.suspended.has(row.keyId)) return 'suspended';
    return this.unverified.has(row.id) ? 'unverified' : 'active';
  }
}

function suspensionMessage(label: string, since: number): string {
  return `API key suspended: its sign-in membership could not be verified with ${label} since ${new Date(since).toISOString()} (the provider is unreachable, refuses the gateway's client, or its answers fail the gateway's checks); it works again once a refresh with ${label} succeeds`;
}
