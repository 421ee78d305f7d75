import type { LimitStatus } from '../../../shared/principals-api.js';
import { CalendarWindow, windowEnd, windowStart } from './calendar-window.js';
import type { LimitCheck, LimitMeasure } from './limit-plan.js';
import { TokenBucket } from './token-bucket.js';
import type { UsageHistory } from './usage-history.js';

const MINUTE_MS = 60_000;

/** What a request draws on: one request, its tokens and its spend (estimates until it settles). */
export interface LimitCost {
  readonly tokens: number;
  readonly usd: number;
}

/** What an admitted request holds until it settles with its real usage. */
export interface Reservation {
  readonly checks: readonly LimitCheck[];
  readonly cost: LimitCost;
  /** When it was taken: a budget's settlement goes to the window the reservation was made in. */
  readonly at: number;
}

/** The outcome of a reservation: admitted, or the limit that refused it and how long until it fits. */
export type Admission =
  | { readonly ok: true; readonly reservation: Reservation }
  | { readonly ok: false; readonly check: LimitCheck; readonly needed: number; readonly waitMs: number };

const amountOf = (measure: LimitMeasure, cost: LimitCost): number =>
  measure === 'requests' ? 1 : measure === 'tokens' ? cost.tokens : cost.usd;

/**
 * The state of every rate limit and budget, in memory. A reservation checks all the limits a request
 * must pass and takes from all of them in one synchronous step, so concurrent requests can never
 * both take the last unit: exactly as many are admitted as the limits allow. State this process has
 * not held yet is rebuilt from the usage table (UsageHistory), so a restart forgets nothing that was
 * written.
 */
export class Limiter {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly windows = new Map<string, CalendarWindow>();

  constructor(
    private readonly history: UsageHistory,
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks every limit and, when all have room, takes the request's cost from each. */
  reserve(checks: readonly LimitCheck[], cost: LimitCost): Admission {
    const now = this.now();
    let refused: { check: LimitCheck; needed: number; waitMs: number } | undefined;
    for (const check of checks) {
      const needed = amountOf(check.measure, cost);
      const waitMs = this.waitFor(check, needed, now);
      if (waitMs > 0 && (refused === undefined || waitMs > refused.waitMs)) refused = { check, needed, waitMs };
    }
    if (refused !== undefined) return { ok: false, ...refused };
    for (const check of checks) {
      const amount = amountOf(check.measure, cost);
      if (check.span === 'bucket') this.bucket(check, now).take(amount, now);
      else this.window(check, now).add(amount, now);
    }
    return { ok: true, reservation: { checks, cost, at: now } };
  }

  /**
   * Replaces a reservation's estimate with what the request really used: unused tokens go back, and
   * a request that used more than it reserved (a long stream) takes the difference.
   */
  settle(reservation: Reservation, actual: LimitCost): void {
    const now = this.now();
    for (const check of reservation.checks) {
      if (check.measure === 'requests') continue;
      const difference = amountOf(check.measure, actual) - amountOf(check.measure, reservation.cost);
      if (difference === 0) continue;
      if (check.span === 'bucket') this.bucket(check, now).give(-difference, now);
      else this.window(check, now).add(difference, now, windowStart(check.span, reservation.at));
    }
  }

  /** Where each limit stands now, for headers and the admin views. */
  status(checks: readonly LimitCheck[]): LimitStatus[] {
    const now = this.now();
    return checks.map((check) => {
      if (check.span === 'bucket') {
        const bucket = this.bucket(check, now);
        const remaining = bucket.remaining(now);
        return this.statusOf(check, remaining, bucket.untilFull(now));
      }
      const used = this.window(check, now).usedAt(now);
      return this.statusOf(check, Math.max(0, check.limit - used), windowEnd(check.span, now) - now);
    });
  }

  private statusOf(check: LimitCheck, remaining: number, resetMs: number): LimitStatus {
    const rounded = check.measure === 'usd' ? Math.round(remaining * 1e6) / 1e6 : remaining;
    return {
      limit_type: check.type,
      subject: check.subject.name,
      limit: check.limit,
      used: check.measure === 'usd' ? Math.round((check.limit - rounded) * 1e6) / 1e6 : check.limit - rounded,
      remaining: rounded,
      reset_ms: Math.max(0, Math.ceil(resetMs)),
    };
  }

  /** Milliseconds until `needed` fits (0 now; Infinity never, being more than the whole limit). */
  private waitFor(check: LimitCheck, needed: number, now: number): number {
    if (check.span === 'bucket') return this.bucket(check, now).waitFor(needed, now);
    const used = this.window(check, now).usedAt(now);
    // An exhausted budget refuses even a request that costs nothing by the estimate (fails closed).
    if (used + needed <= check.limit && used < check.limit) return 0;
    if (needed > check.limit) return Infinity;
    return windowEnd(check.span, now) - now;
  }

  private bucket(check: LimitCheck, now: number): TokenBucket {
    const name = `${check.measure}|${check.subject.name}`;
    let bucket = this.buckets.get(name);
    if (bucket === undefined) {
      // Full a minute ago (a bucket refills completely in a minute), then every request since.
      const since = now - MINUTE_MS;
      bucket = new TokenBucket(check.limit, since);
      for (const past of this.history.requestsSince(check.subject, since))
        bucket.take(check.measure === 'requests' ? 1 : past.tokens, past.at);
      this.buckets.set(name, bucket);
    } else {
      bucket.resize(check.limit, now);
    }
    return bucket;
  }

  private window(check: LimitCheck, now: number): CalendarWindow {
    if (check.span === 'bucket') throw new Error('a bucket has no calendar window');
    const name = `${check.measure}|${check.span}|${check.subject.name}`;
    let window = this.windows.get(name);
    if (window === undefined) {
      window = new CalendarWindow(check.span, now);
      const used = this.history.totalsSince(check.subject, window.startAt(now));
      window.add(check.measure === 'usd' ? used.usd : used.tokens, now);
      this.windows.set(name, window);
    }
    return window;
  }
}
