import { describe, expect, it } from 'vitest';
import { resetDuration } from '../../../src/server/gateway/limits/limit-headers.js';
import type { LimitCheck } from '../../../src/server/gateway/limits/limit-plan.js';
import { Limiter } from '../../../src/server/gateway/limits/limiter.js';
import type { UsageHistory } from '../../../src/server/gateway/limits/usage-history.js';
import { refusal } from '../../../src/server/gateway/limits/refusal.js';

// The bucket and window arithmetic behind Retry-After, on a clock the test moves.

const NO_HISTORY = { requestsSince: () => [], totalsSince: () => ({ tokens: 0, usd: 0 }) } as unknown as UsageHistory;
const subject = { kind: 'key', id: 'k', name: 'key:k' } as const;
const rpm = (limit: number): LimitCheck => ({ type: 'requests', measure: 'requests', subject, limit, span: 'bucket' });
const tpm = (limit: number): LimitCheck => ({ type: 'tokens', measure: 'tokens', subject, limit, span: 'bucket' });

function clocked(start = 1_700_000_000_000) {
  const clock = { now: start };
  return { clock, limiter: new Limiter(NO_HISTORY, () => clock.now) };
}

describe('token bucket arithmetic', () => {
  it('6 requests per minute: the 7th waits 10 s, and 4 s later 6 s', () => {
    const { clock, limiter } = clocked();
    for (let i = 0; i < 6; i += 1) expect(limiter.reserve([rpm(6)], { tokens: 0, usd: 0 }).ok).toBe(true);
    const refused = limiter.reserve([rpm(6)], { tokens: 0, usd: 0 });
    expect(refused).toMatchObject({ ok: false, waitMs: 10_000 });
    clock.now += 10_000;
    expect(limiter.reserve([rpm(6)], { tokens: 0, usd: 0 }).ok).toBe(true);
    clock.now += 4000;
    expect(limiter.reserve([rpm(6)], { tokens: 0, usd: 0 })).toMatchObject({ ok: false, waitMs: 6000 });
  });

  it('refused together, each is told to come back after those before it, up to a minute later', () => {
    const { clock, limiter } = clocked();
    for (let i = 0; i < 6; i += 1) limiter.reserve([rpm(6)], { tokens: 0, usd: 0 });
    const waits = () => {
      const admission = limiter.reserve([rpm(6)], { tokens: 0, usd: 0 });
      return admission.ok ? 0 : admission.waitMs;
    };
    expect([waits(), waits(), waits()]).toEqual([10_000, 20_000, 30_000]);
    // 4 s later the queue has moved on by 4 s.
    clock.now += 4000;
    expect(waits()).toBe(36_000);
    // A client asking again and again pushes no one further than a minute past their own wait.
    for (let i = 0; i < 20; i += 1) waits();
    expect(waits()).toBe(66_000);
    // Once the promised refill has passed, a refusal waits only for its own cost.
    clock.now += 67_000;
    for (let i = 0; i < 6; i += 1) limiter.reserve([rpm(6)], { tokens: 0, usd: 0 });
    expect(waits()).toBe(10_000);
  });

  it('Retry-After is whole seconds rounded up, and at least 1', () => {
    expect(refusal(rpm(7), 1, 8571.4).headers['retry-after']).toBe('9');
    expect(refusal(rpm(7), 1, 20).headers['retry-after']).toBe('1');
    expect(refusal(rpm(7), 1, 2000).headers['retry-after']).toBe('2');
  });

  it('tokens: a request waits for the part of its cost the bucket lacks', () => {
    const { limiter } = clocked();
    expect(limiter.reserve([tpm(600)], { tokens: 500, usd: 0 }).ok).toBe(true);
    // 100 left, 300 needed: 200 tokens at 10 per second.
    expect(limiter.reserve([tpm(600)], { tokens: 300, usd: 0 })).toMatchObject({ ok: false, waitMs: 20_000 });
    expect(limiter.reserve([tpm(600)], { tokens: 601, usd: 0 })).toMatchObject({ ok: false, waitMs: Infinity });
  });

  it('settling gives back what was not used, and takes what was used beyond the reservation', () => {
    const { limiter } = clocked();
    const admitted = limiter.reserve([tpm(600)], { tokens: 500, usd: 0 });
    if (!admitted.ok) throw new Error('expected admission');
    limiter.settle(admitted.reservation, { tokens: 100, usd: 0 });
    expect(limiter.status([tpm(600)])[0]).toMatchObject({ remaining: 500, used: 100 });
    const second = limiter.reserve([tpm(600)], { tokens: 500, usd: 0 });
    if (!second.ok) throw new Error('expected admission');
    limiter.settle(second.reservation, { tokens: 700, usd: 0 });
    // Below zero: the next request waits until 200 tokens more than its cost have come back.
    expect(limiter.reserve([tpm(600)], { tokens: 10, usd: 0 })).toMatchObject({ ok: false, waitMs: 21_000 });
  });

  it('the refusal names the limit whose wait is longest, so one retry is enough', () => {
    const { limiter } = clocked();
    const tokensBucket = tpm(60);
    limiter.reserve([rpm(60), tokensBucket], { tokens: 60, usd: 0 });
    const refused = limiter.reserve([rpm(60), tokensBucket], { tokens: 30, usd: 0 });
    expect(refused).toMatchObject({ ok: false, waitMs: 30_000, check: { type: 'tokens' } });
  });

  it('a refused request takes nothing from the limits it did fit', () => {
    const { limiter } = clocked();
    limiter.reserve([tpm(10)], { tokens: 10, usd: 0 });
    expect(limiter.reserve([rpm(5), tpm(10)], { tokens: 5, usd: 0 }).ok).toBe(false);
    expect(limiter.status([rpm(5)])[0]).toMatchObject({ remaining: 5 });
  });
});

describe('a changed limit', () => {
  it('applies to a request already running: it holds its share of the new limit, and settles there', () => {
    const { clock, limiter } = clocked();
    const running = limiter.reserve([tpm(60_000)], { tokens: 500, usd: 0 });
    if (!running.ok) throw new Error('expected admission');
    // Lowered while it runs: its 500 count against the new 600, as they would after a restart.
    expect(limiter.reserve([tpm(600)], { tokens: 590, usd: 0 }).ok).toBe(false);
    expect(limiter.reserve([tpm(600)], { tokens: 90, usd: 0 }).ok).toBe(true);
    clock.now += 1500;
    // It used 590: the difference comes off the new bucket, and the old limit never comes back.
    limiter.settle(running.reservation, { tokens: 590, usd: 0 });
    expect(limiter.status([tpm(600)])[0]).toMatchObject({ limit: 600, remaining: 0 });
    expect(limiter.reserve([tpm(600)], { tokens: 10, usd: 0 }).ok).toBe(false);
  });

  it('counts the requests still running against a lowered request limit', () => {
    const { limiter } = clocked();
    for (let i = 0; i < 3; i += 1) expect(limiter.reserve([rpm(100)], { tokens: 0, usd: 0 }).ok).toBe(true);
    // Three running (in no usage row yet), and the limit lowered to three: a fourth waits.
    expect(limiter.reserve([rpm(3)], { tokens: 0, usd: 0 }).ok).toBe(false);
  });

  it('set on a busy subject, holds it back at most about a minute, however much it used before', () => {
    const start = 1_700_000_000_000;
    const past = Array.from({ length: 10 }, (_, i) => ({ at: start - 30_000 + i * 1000, tokens: 2005 }));
    const history = {
      requestsSince: (_who: unknown, since: number) => past.filter((row) => row.at >= since),
      totalsSince: () => ({ tokens: 0, usd: 0 }),
    } as unknown as UsageHistory;
    const clock = { now: start };
    const limiter = new Limiter(history, () => clock.now);
    const refused = limiter.reserve([tpm(1000)], { tokens: 590, usd: 0 });
    // A minute's worth of debt at most: (1,000 + 590) tokens at 1,000 a minute, not 20,050 used.
    expect(refused).toMatchObject({ ok: false });
    expect((refused as { waitMs: number }).waitMs).toBeLessThanOrEqual(95_400);
    expect((refused as { waitMs: number }).waitMs).toBeGreaterThan(60_000);
    // A restart rebuilds the same state from the same usage, so it answers the same.
    const restarted = new Limiter(history, () => clock.now);
    expect(restarted.reserve([tpm(1000)], { tokens: 590, usd: 0 })).toEqual(refused);
  });
});

describe('budget windows', () => {
  const daily: LimitCheck = { type: 'user_daily', measure: 'tokens', subject, limit: 100, span: 'day' };

  it('a day budget refuses until the UTC day ends, then starts from zero', () => {
    const midnight = Date.UTC(2026, 10, 24);
    const { clock, limiter } = clocked(midnight + 23 * 3_600_000);
    expect(limiter.reserve([daily], { tokens: 100, usd: 0 }).ok).toBe(true);
    expect(limiter.reserve([daily], { tokens: 1, usd: 0 })).toMatchObject({ ok: false, waitMs: 3_600_000 });
    clock.now = midnight + 86_400_000;
    expect(limiter.reserve([daily], { tokens: 100, usd: 0 }).ok).toBe(true);
  });

  it('a settlement after the day ended does not touch the new day', () => {
    const midnight = Date.UTC(2026, 10, 24);
    const { clock, limiter } = clocked(midnight - 1000);
    const admitted = limiter.reserve([daily], { tokens: 50, usd: 0 });
    if (!admitted.ok) throw new Error('expected admission');
    clock.now = midnight + 1000;
    limiter.settle(admitted.reservation, { tokens: 90, usd: 0 });
    expect(limiter.status([daily])[0]).toMatchObject({ used: 0 });
  });
});

describe('reset durations as OpenAI writes them', () => {
  it.each([
    [20, '20ms'],
    [999, '999ms'],
    [1000, '1s'],
    [1001, '2s'],
    [360_000, '6m0s'],
    [3_723_000, '1h2m3s'],
  ])('%d ms is %s', (ms, text) => expect(resetDuration(ms)).toBe(text));
});
