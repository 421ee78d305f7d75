import { describe, expect, it } from 'vitest';
import { windowEnd, windowStart } from '../../src/server/gateway/limits/calendar-window.js';
import type { LimitCheck } from '../../src/server/gateway/limits/limit-plan.js';
import { Limiter } from '../../src/server/gateway/limits/limiter.js';
import { refusal } from '../../src/server/gateway/limits/refusal.js';
import type { UsageHistory } from '../../src/server/gateway/limits/usage-history.js';

// The UTC calendar month behind monthly budgets: months differ in length, so its bounds are the
// calendar's, and a budget spent late in a month is whole again at 00:00 UTC on the 1st.

const at = (iso: string): number => Date.parse(iso);

describe('the month window', () => {
  it('December runs to 00:00 UTC on 1 January of the next year', () => {
    const now = at('2026-12-31T23:59:59.999Z');
    expect(windowStart('month', now)).toBe(at('2026-12-01T00:00:00Z'));
    expect(windowEnd('month', now)).toBe(at('2027-01-01T00:00:00Z'));
    // The first instant of January is the next window.
    expect(windowStart('month', at('2027-01-01T00:00:00Z'))).toBe(at('2027-01-01T00:00:00Z'));
  });

  it('February has 29 days in a leap year and 28 in others', () => {
    expect(windowStart('month', at('2028-02-29T12:00:00Z'))).toBe(at('2028-02-01T00:00:00Z'));
    expect(windowEnd('month', at('2028-02-29T12:00:00Z'))).toBe(at('2028-03-01T00:00:00Z'));
    expect(windowEnd('month', at('2028-02-10T00:00:00Z')) - windowStart('month', at('2028-02-10T00:00:00Z'))).toBe(
      29 * 86_400_000,
    );
    expect(windowEnd('month', at('2027-02-10T00:00:00Z')) - windowStart('month', at('2027-02-10T00:00:00Z'))).toBe(
      28 * 86_400_000,
    );
  });

  it('the day window is unchanged: midnight to midnight UTC', () => {
    const now = at('2026-11-29T17:30:00Z');
    expect(windowStart('day', now)).toBe(at('2026-11-29T00:00:00Z'));
    expect(windowEnd('day', now)).toBe(at('2026-11-30T00:00:00Z'));
  });
});

const NO_HISTORY = { requestsSince: () => [], totalsSince: () => ({ tokens: 0, usd: 0 }) } as unknown as UsageHistory;
const subject = { kind: 'key', id: 'k', name: 'key:k' } as const;

describe('a monthly budget on a clock the test moves', () => {
  const monthly: LimitCheck = { type: 'key_cost_monthly', measure: 'usd', subject, limit: 1, span: 'month' };

  it('refuses until the 1st of the next month (across the year), then starts from zero', () => {
    const clock = { now: at('2026-12-31T22:00:00Z') };
    const limiter = new Limiter(NO_HISTORY, () => clock.now);
    expect(limiter.reserve([monthly], { tokens: 0, usd: 1 })).toMatchObject({ ok: true });
    const refused = limiter.reserve([monthly], { tokens: 0, usd: 0.01 });
    expect(refused).toEqual(expect.objectContaining({ ok: false, waitMs: 2 * 3_600_000 }));
    expect(limiter.status([monthly])[0]).toMatchObject({ used: 1, remaining: 0, reset_ms: 2 * 3_600_000 });
    clock.now = at('2027-01-01T00:00:00Z');
    expect(limiter.reserve([monthly], { tokens: 0, usd: 0.5 })).toMatchObject({ ok: true });
    expect(limiter.status([monthly])[0]).toMatchObject({ used: 0.5 });
  });

  it('a key without a user that is its own user counts a request once in the window both budgets share', () => {
    const limiter = new Limiter(NO_HISTORY, () => at('2026-06-15T00:00:00Z'));
    const keyDaily: LimitCheck = { type: 'key_cost_daily', measure: 'usd', subject, limit: 1, span: 'day' };
    const userDaily: LimitCheck = { ...keyDaily, type: 'user_cost_daily', limit: 10 };
    expect(limiter.reserve([keyDaily, userDaily], { tokens: 0, usd: 0.4 })).toMatchObject({ ok: true });
    expect(limiter.status([keyDaily])[0]).toMatchObject({ used: 0.4 });
  });

  it('a request larger than the whole budget is told to wait a whole month, and not to retry', () => {
    const error = refusal(monthly, 2, Infinity);
    expect(error.message).toContain('per month');
    const length = (windowEnd('month', Date.now()) - windowStart('month', Date.now())) / 1000;
    expect(error.headers?.['retry-after']).toBe(String(length));
    expect(error.headers?.['x-should-retry']).toBe('false');
  });
});
