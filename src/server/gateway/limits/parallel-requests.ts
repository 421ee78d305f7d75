import type { LimitStatus } from '../../../shared/principals-api.js';
import type { LimitsConfig } from '../../config/limits-schema.js';
import type { ApiKeyRow } from '../keys/keys.repository.js';
import type { TeamRow, UserRow } from '../principals/principals.repository.js';
import type { PrincipalsService } from '../principals/principals.service.js';
import { RateLimitError } from './rate-limit-error.js';

/** A cap on one principal's requests in flight at once (`max_parallel_requests`). */
export interface ParallelCap {
  /** `key:<id>`, `user:<id>` or `team:<id>`, as the other limits name their subject. */
  readonly subject: string;
  readonly limit: number;
}

/** The subjects whose slots an admitted request holds until it finishes. */
export type ParallelSlots = readonly string[];

/** Where the users' and teams' own caps are read (held in memory: no database read per request). */
export type ParallelCapRecords = Pick<PrincipalsService, 'user' | 'team'>;

const NO_CAPS: readonly ParallelCap[] = [];

/** A user's or team's cap: its record's own, else the default (a record not made yet has none of its own). */
function ownCap(record: UserRow | TeamRow | undefined, fallback: number | undefined): number | undefined {
  return record?.maxParallelRequests ?? fallback;
}

/**
 * How many requests each principal with `max_parallel_requests` has in flight. A limit on tokens only
 * settles when a request ends, so concurrent streams without `max_tokens` can each overspend it; a cap on
 * requests in flight bounds how many do. Only principals with a cap are counted: a request none of whose
 * principals has one allocates nothing here.
 */
export class ParallelRequests {
  private readonly inFlight = new Map<string, number>();
  private readonly defaults: {
    readonly key: number | undefined;
    readonly user: number | undefined;
    readonly team: number | undefined;
  };
  /**
   * Whether the limits stage must look for caps: always, since any key, user or team may carry its own
   * (the look-up reads the key row and two in-memory maps).
   */
  readonly enabled = true;

  constructor(
    config: LimitsConfig,
    /** Without it only keys' own caps and the configuration's defaults apply. */
    private readonly records?: ParallelCapRecords,
  ) {
    this.defaults = {
      key: config.keys.max_parallel_requests,
      user: config.users.max_parallel_requests,
      team: config.teams.max_parallel_requests,
    };
  }

  /**
   * The caps a key's requests must fit: the key's, its user's and its team's, each the record's own value
   * else the configuration's default. A key without a user is not held to the users' cap, as it is not to
   * their rate limits (its own cap counts it).
   */
  capsOf(key: ApiKeyRow): readonly ParallelCap[] {
    const forKey = key.maxParallelRequests ?? this.defaults.key;
    const user = key.ownerUser === null ? undefined : ownCap(this.records?.user(key.ownerUser), this.defaults.user);
    const team = key.team === null ? undefined : ownCap(this.records?.team(key.team), this.defaults.team);
    if (forKey === undefined && user === undefined && team === undefined) return NO_CAPS;
    const caps: ParallelCap[] = [];
    if (forKey !== undefined) caps.push({ subject: `key:${key.id}`, limit: forKey });
    if (user !== undefined) caps.push({ subject: `user:${key.ownerUser}`, limit: user });
    if (team !== undefined) caps.push({ subject: `team:${key.team}`, limit: team });
    return caps;
  }

  /**
   * A user's or team's own cap (its record's, else the configuration's default), for its status view:
   * its slots are counted under this subject whichever of its keys holds them.
   */
  capOf(kind: 'user' | 'team', record: UserRow | TeamRow): readonly ParallelCap[] {
    const limit = ownCap(record, this.defaults[kind]);
    return limit === undefined ? NO_CAPS : [{ subject: `${kind}:${record.id}`, limit }];
  }

  /** The first cap with no free slot, or undefined when the request fits them all. */
  full(caps: readonly ParallelCap[]): ParallelCap | undefined {
    return caps.find((cap) => (this.inFlight.get(cap.subject) ?? 0) >= cap.limit);
  }

  /** Takes a slot under every cap (after {@link full} found room, in the same synchronous step). */
  take(caps: readonly ParallelCap[]): ParallelSlots {
    for (const cap of caps) this.inFlight.set(cap.subject, (this.inFlight.get(cap.subject) ?? 0) + 1);
    return caps.map((cap) => cap.subject);
  }

  /** Gives back the slots a finished request held. */
  release(slots: ParallelSlots): void {
    for (const subject of slots) {
      const left = (this.inFlight.get(subject) ?? 1) - 1;
      if (left > 0) this.inFlight.set(subject, left);
      else this.inFlight.delete(subject);
    }
  }

  /** Where each cap stands, for the admin views (nothing to wait for: a slot frees when a request ends). */
  status(caps: readonly ParallelCap[]): LimitStatus[] {
    return caps.map((cap) => {
      const used = this.inFlight.get(cap.subject) ?? 0;
      return {
        limit_type: 'parallel_requests',
        subject: cap.subject,
        limit: cap.limit,
        used,
        remaining: Math.max(0, cap.limit - used),
        reset_ms: 0,
      };
    });
  }
}

/**
 * The 429 for a request over a cap on requests in flight: a slot frees as soon as one of them ends, so
 * it is worth retrying in a second.
 */
export function parallelRefusal(cap: ParallelCap): RateLimitError {
  return new RateLimitError(
    'parallel_requests',
    `rate limit 'parallel_requests' exceeded: ${cap.subject} allows ${cap.limit} requests in flight at once; retry after 1 s, when one of them has finished`,
    { 'retry-after': '1', 'retry-after-ms': '1000' },
  );
}
