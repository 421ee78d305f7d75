import type { LimitStatus } from '../../../shared/principals-api.js';
import { CalendarWindow, windowEnd, windowStart, type WindowSpan } from './calendar-window.js';
import type { LimitCheck, LimitMeasure, LimitSubject } from './limit-plan.js';
import { TokenBucket } from './token-bucket.js';
import type { UsageHistory } from './usage-history.js';
import { roundUsd } from '../accounting/pricing.js';

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
  /** Whose budgets the request counts in even where it is not checked against them: its user (or key) and team. */
  readonly owners: readonly LimitSubject[];
  /** The budget windows that hold the request's cost, and what they count: the others of its owners were created since. */
  readonly held: ReadonlyMap<CalendarWindow, LimitMeasure>;
  /** The buckets it took from, by name (a bucket rebuilt since, for a changed limit, took its hold over). */
  readonly buckets: ReadonlyMap<string, TokenBucket>;
}

/** The outcome of a reservation: admitted, or the limit that refused it and how long until it fits. */
export type Admission =
  | { readonly ok: true; readonly reservation: Reservation }
  | {
      readonly ok: false;
      readonly check: LimitCheck;
      readonly needed: number;
      readonly waitMs: number;
      /** What the refusing limit had used (a budget's window, a bucket's take), for the message. */
      readonly used: number;
    };

/** The budget windows a subject may have: tokens per minute and per day, spend per day and per month. */
const WINDOW_KINDS = [
  ['tokens', 'minute'],
  ['tokens', 'day'],
  ['usd', 'day'],
  ['usd', 'month'],
] as const;

const windowName = (measure: LimitMeasure, span: WindowSpan, who: LimitSubject): string =>
  `${measure}|${span}|${who.name}`;

const bucketName = (check: LimitCheck): string => `${check.measure}|${check.subject.name}`;

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
  /** The bucket each rebuilt one was replaced by: a reservation settles where its hold moved. */
  private readonly successors = new WeakMap<TokenBucket, TokenBucket>();
  private readonly windows = new Map<string, CalendarWindow>();
  /** When each forgotten subject was forgotten: requests admitted before settle nothing of theirs. */
  private readonly forgotten = new Map<string, number>();
  /** The last refusal by each budget (by window name): the status view says while it refuses requests that size. */
  private readonly refusals = new Map<string, { readonly at: number; readonly needed: number }>();

  constructor(
    private readonly history: UsageHistory,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Checks every limit and, when all have room, takes the request's cost from each. `owners` (the
   * request's user, or its key when it has none, and its team) are charged in every budget window
   * of theirs that this process holds, checked or not: a budget one key caps (`team_tpd_budget`) or
   * one set again after it was removed counts every request of its user or team, as the usage
   * table does after a restart.
   */
  reserve(checks: readonly LimitCheck[], cost: LimitCost, owners: readonly LimitSubject[] = []): Admission {
    const now = this.now();
    let refused: { check: LimitCheck; needed: number; waitMs: number } | undefined;
    for (const check of checks) {
      const needed = amountOf(check.measure, cost);
      const waitMs = this.waitFor(check, needed, now);
      if (waitMs > 0 && (refused === undefined || waitMs > refused.waitMs)) refused = { check, needed, waitMs };
    }
    if (refused !== undefined) {
      const { check, needed } = refused;
      if (check.span === 'bucket') {
        const bucket = this.bucket(check, now);
        return {
          ok: false,
          check,
          needed,
          waitMs: bucket.retryAfter(needed, now),
          used: check.limit - bucket.remaining(now),
        };
      }
      this.refusals.set(windowName(check.measure, check.span, check.subject), { at: now, needed });
      return { ok: false, check, needed, waitMs: refused.waitMs, used: this.window(check, now).usedAt(now) };
    }
    const held = new Map<CalendarWindow, LimitMeasure>();
    const buckets = new Map<string, TokenBucket>();
    for (const check of checks) {
      const amount = amountOf(check.measure, cost);
      if (check.span === 'bucket') {
        const bucket = this.bucket(check, now);
        bucket.take(amount, now);
        bucket.pending += amount;
        buckets.set(bucketName(check), bucket);
      } else {
        // A key without a user is its own user: its own spend budget and its user's share one window.
        const window = this.window(check, now);
        if (held.has(window)) continue;
        window.add(amount, now);
        held.set(window, check.measure);
      }
    }
    for (const { window, measure } of this.ownerWindows(owners)) {
      if (held.has(window)) continue;
      window.add(amountOf(measure, cost), now);
      held.set(window, measure);
    }
    return { ok: true, reservation: { checks, cost, at: now, owners, held, buckets } };
  }

  /**
   * Adds to an admitted request's reservation what its prompt grew by after the check (retrieved
   * context): taken at once from every limit and budget the reservation holds, without refusing (the
   * request was admitted), so that requests admitted next see it before this one settles.
   */
  extend(reservation: Reservation, extra: LimitCost): Reservation {
    const now = this.now();
    for (const check of reservation.checks) {
      if (check.span !== 'bucket' || check.measure === 'requests') continue;
      const holding = this.holding(reservation, check);
      if (holding === undefined) continue;
      const amount = amountOf(check.measure, extra);
      holding.take(amount, now);
      holding.pending += amount;
    }
    for (const [window, measure] of reservation.held)
      window.add(amountOf(measure, extra), now, windowStart(window.span, reservation.at));
    const cost = { tokens: reservation.cost.tokens + extra.tokens, usd: reservation.cost.usd + extra.usd };
    return { ...reservation, cost };
  }

  /** Whether any budget window is held at all (when none is, no request needs its owners worked out). */
  get holdsBudgets(): boolean {
    return this.windows.size > 0;
  }

  /** Whether some budget window of these owners is held (a request without limits of its own still counts in it). */
  tracks(owners: readonly LimitSubject[]): boolean {
    if (this.windows.size === 0) return false;
    for (const owner of owners)
      for (const [measure, span] of WINDOW_KINDS) if (this.windows.has(windowName(measure, span, owner))) return true;
    return false;
  }

  /**
   * Replaces a reservation's estimate with what the request really used: unused tokens go back, and
   * a request that used more than it reserved (a long stream) takes the difference. A window of its
   * owners created since the reservation (from the usage table, which does not have this request
   * yet, unless it was `recorded` before its answer) takes all it used.
   */
  settle(reservation: Reservation, actual: LimitCost, recorded = false): void {
    const now = this.now();
    const settled = new Set<CalendarWindow>();
    for (const check of reservation.checks) {
      const reserved = amountOf(check.measure, reservation.cost);
      if (check.span === 'bucket') {
        const holding = this.holding(reservation, check);
        if (holding === undefined) continue;
        holding.pending -= reserved;
        // A request counts once, as it was admitted; tokens as they were used.
        const difference = check.measure === 'requests' ? 0 : amountOf(check.measure, actual) - reserved;
        if (difference !== 0) holding.give(-difference, now);
        continue;
      }
      if (check.measure === 'requests' || this.forgottenSince(check.subject, reservation.at)) continue;
      const difference = amountOf(check.measure, actual) - reserved;
      const window = this.window(check, now);
      if (settled.has(window)) continue;
      settled.add(window);
      if (difference !== 0) window.add(difference, now, windowStart(check.span, reservation.at));
    }
    for (const { window, measure } of this.ownerWindows(reservation.owners, reservation.at)) {
      if (settled.has(window)) continue;
      settled.add(window);
      const used = amountOf(measure, actual);
      if (reservation.held.has(window))
        window.add(used - amountOf(measure, reservation.cost), now, windowStart(window.span, reservation.at));
      else if (!recorded) window.add(used, now, windowStart(window.span, reservation.at));
    }
  }

  /**
   * Drops what this process holds for a subject (a deleted user or team): one created again under
   * the same id is rebuilt from the usage table, which counts only its own usage (UsageHistory).
   */
  forget(who: LimitSubject): void {
    this.forgotten.set(who.name, this.now());
    const suffix = `|${who.name}`;
    for (const name of this.buckets.keys()) if (name.endsWith(suffix)) this.buckets.delete(name);
    for (const name of this.windows.keys()) if (name.endsWith(suffix)) this.windows.delete(name);
    for (const name of this.refusals.keys()) if (name.endsWith(suffix)) this.refusals.delete(name);
  }

  /**
   * Where each limit stands now, for headers and the admin views. With `smallest` (what the least
   * request reserves; its dollars unknown when undefined), a budget left below it, or below what the
   * last request it refused in its window needed, says it is refusing requests.
   */
  status(checks: readonly LimitCheck[], smallest?: { readonly tokens: number; readonly usd?: number }): LimitStatus[] {
    const now = this.now();
    return checks.map((check) => {
      if (check.span === 'bucket') {
        const bucket = this.bucket(check, now);
        return this.statusOf(check, check.limit - bucket.remaining(now), bucket.untilFull(now));
      }
      const status = this.statusOf(check, this.window(check, now).usedAt(now), windowEnd(check.span, now) - now);
      if (smallest === undefined || check.measure === 'requests') return status;
      const refusing = this.refusing(
        check,
        status.remaining,
        check.measure === 'usd' ? smallest.usd : smallest.tokens,
        now,
      );
      return refusing === undefined ? status : { ...status, refusing };
    });
  }

  /** Why a budget with `remaining` left refuses requests now, if it does (see `status`). */
  private refusing(
    check: LimitCheck,
    remaining: number,
    smallest: number | undefined,
    now: number,
  ): LimitStatus['refusing'] {
    if (check.span === 'bucket') return undefined;
    const last = this.refusals.get(windowName(check.measure, check.span, check.subject));
    // A refusal of an earlier window says nothing of this one, whose budget came back whole.
    if (last !== undefined && last.at >= windowStart(check.span, now) && remaining < last.needed)
      return { needed: check.measure === 'usd' ? roundUsd(last.needed) : last.needed, basis: 'last_refusal' };
    if (smallest !== undefined && smallest > 0 && remaining < smallest)
      return { needed: check.measure === 'usd' ? roundUsd(smallest) : smallest, basis: 'smallest_request' };
    return undefined;
  }

  /**
   * `used` as it is, past the limit too (concurrent streams can overspend a budget, and the view must
   * show by how much); dollars rounded as every view rounds them.
   */
  private statusOf(check: LimitCheck, used: number, resetMs: number): LimitStatus {
    const shown = check.measure === 'usd' ? roundUsd : (value: number) => value;
    return {
      limit_type: check.type,
      subject: check.subject.name,
      limit: check.limit,
      used: shown(used),
      remaining: shown(Math.max(0, check.limit - used)),
      reset_ms: Math.max(0, Math.ceil(resetMs)),
      ...(check.setBy === undefined ? {} : { set_by: check.setBy.by.kind as 'key' | 'user' | 'team' }),
    };
  }

  /** Milliseconds until `needed` fits (0 now; Infinity never, being more than the whole limit). */
  private waitFor(check: LimitCheck, needed: number, now: number): number {
    if (check.span === 'bucket') return this.bucket(check, now).waitFor(needed, now);
    // A budget of 0 is frozen: nothing may be spent, not even by a request whose estimate costs nothing.
    if (check.limit === 0) return Infinity;
    const used = this.window(check, now).usedAt(now);
    // An exhausted budget refuses even a request that costs nothing by the estimate (fails closed).
    if (used + needed <= check.limit && used < check.limit) return 0;
    if (needed > check.limit) return Infinity;
    return windowEnd(check.span, now) - now;
  }

  /**
   * The subject's bucket for the check's limit. A new one, or one whose limit changed, is built from
   * the usage table: full a minute ago (a bucket refills completely in a minute), then every request
   * since. A changed limit thus applies to the last minute as it was, not to what an earlier limit
   * (or none, when requests took from no bucket) happened to leave.
   */
  private bucket(check: LimitCheck, now: number): TokenBucket {
    const name = bucketName(check);
    let bucket = this.buckets.get(name);
    if (bucket === undefined || bucket.limit !== check.limit) {
      const since = now - MINUTE_MS;
      const rebuilt = new TokenBucket(check.limit, since);
      for (const past of this.history.requestsSince(check.subject, since))
        rebuilt.take(check.measure === 'requests' ? 1 : past.tokens, past.at);
      // Requests still running are in no usage row yet: what they hold moves over, and settles here.
      if (bucket !== undefined) {
        rebuilt.take(bucket.pending, now);
        rebuilt.pending = bucket.pending;
        this.successors.set(bucket, rebuilt);
      }
      bucket = rebuilt;
      this.buckets.set(name, bucket);
    }
    return bucket;
  }

  /**
   * The bucket that holds a reservation's cost for one of its checks: the one it took from, or the one
   * that replaced it for a changed limit; none once its subject was forgotten.
   */
  private holding(reservation: Reservation, check: LimitCheck): TokenBucket | undefined {
    if (this.forgottenSince(check.subject, reservation.at)) return undefined;
    const name = bucketName(check);
    const current = this.buckets.get(name);
    let bucket = reservation.buckets.get(name);
    while (bucket !== undefined && bucket !== current) bucket = this.successors.get(bucket);
    return bucket;
  }

  private window(check: LimitCheck, now: number): CalendarWindow {
    if (check.span === 'bucket') throw new Error('a bucket has no calendar window');
    const name = windowName(check.measure, check.span, check.subject);
    let window = this.windows.get(name);
    if (window === undefined) {
      window = new CalendarWindow(check.span, now);
      const used = this.history.totalsSince(check.subject, window.startAt(now));
      window.add(check.measure === 'usd' ? used.usd : used.tokens, now);
      this.windows.set(name, window);
    }
    return window;
  }

  /**
   * Whether the subject was forgotten (a deleted user or team) after `at`: what a request admitted
   * before then settles would otherwise land in state rebuilt for a record created again under its id.
   */
  private forgottenSince(who: LimitSubject, at: number): boolean {
    const when = this.forgotten.get(who.name);
    return when !== undefined && when >= at;
  }

  /** The budget windows this process holds for the owners, each once; those forgotten since `admittedAt` left out. */
  private *ownerWindows(
    owners: readonly LimitSubject[],
    admittedAt = Number.NEGATIVE_INFINITY,
  ): Generator<{ window: CalendarWindow; measure: LimitMeasure }> {
    for (const owner of owners) {
      if (this.forgottenSince(owner, admittedAt)) continue;
      for (const [measure, span] of WINDOW_KINDS) {
        const window = this.windows.get(windowName(measure, span, owner));
        if (window !== undefined) yield { window, measure };
      }
    }
  }
}
