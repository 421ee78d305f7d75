import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AuthFailureDelay,
  FREE_FAILURES_PER_MINUTE,
  MAX_WAITING_REFUSALS,
} from '../../src/server/http/auth-failure-delay.js';

const request = { ip: '127.0.0.1', method: 'GET', url: '/x', routeOptions: { url: '/x' } } as unknown as FastifyRequest;

/** What a refusal's reply was told: its status, headers and serializer, and its socket closing. */
class FakeReply {
  readonly raw = new EventEmitter();
  readonly headers: Record<string, string> = {};
  status = 401;
  serialize: ((payload: unknown) => string) | undefined;
  header(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }
  serializer(fn: (payload: unknown) => string): this {
    this.serialize = fn;
    return this;
  }
  code(status: number): this {
    this.status = status;
    return this;
  }
}
const asReply = (reply: FakeReply) => reply as unknown as FastifyReply;

/** A delay whose clock moves only when told, with the free refusals of the minute spent. */
function spent(warnings: object[] = []): { delay: AuthFailureDelay; clock: { at: number } } {
  const clock = { at: 1_000 };
  const log = { warn: (fields: object) => warnings.push(fields) } as unknown as FastifyBaseLogger;
  const delay = new AuthFailureDelay(
    () => log,
    () => clock.at,
  );
  for (let i = 0; i < FREE_FAILURES_PER_MINUTE; i += 1) {
    let answered = false;
    delay.hold(request, asReply(new FakeReply()), () => (answered = true));
    expect(answered).toBe(true);
  }
  return { delay, clock };
}

/** Holds a refusal past the free ones and counts its answer in `answered`. */
function holdOne(delay: AuthFailureDelay, answered: { count: number }, reply = new FakeReply()): FakeReply {
  delay.hold(request, asReply(reply), () => (answered.count += 1));
  return reply;
}

/**
 * What the servers' own tests cannot show without timing: a waiting refusal is answered as soon as
 * the service starts closing (closing waits for answers in flight, so it must not wait on the
 * timers) or its client leaves, and once closing began nothing waits at all; past the refusals that
 * may wait, one is turned away with 429, and the warning counts it.
 */
describe('waiting refusals', () => {
  afterEach(() => vi.useRealTimers());

  it('are answered at once when closing begins, and later ones are not held', () => {
    vi.useFakeTimers();
    const { delay } = spent();
    const answered = { count: 0 };
    holdOne(delay, answered); // its turn is now: the queue was empty
    holdOne(delay, answered);
    holdOne(delay, answered);
    expect(answered.count).toBe(1);
    delay.releaseAll();
    expect(answered.count).toBe(3);
    holdOne(delay, answered);
    expect(answered.count).toBe(4);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('are answered at once when their client leaves, once only', () => {
    vi.useFakeTimers();
    const { delay } = spent();
    const answered = { count: 0 };
    holdOne(delay, answered);
    const reply = holdOne(delay, answered);
    expect(answered.count).toBe(1);
    reply.raw.emit('close');
    expect(answered.count).toBe(2);
    delay.releaseAll();
    expect(answered.count).toBe(2);
    expect(reply.raw.listenerCount('close')).toBe(0);
  });

  it('are answered one per interval whether they came together or not', () => {
    vi.useFakeTimers();
    const { delay, clock } = spent();
    const answered = { count: 0 };
    for (let i = 0; i < 4; i += 1) holdOne(delay, answered);
    expect(answered.count).toBe(1);
    for (let turn = 2; turn <= 4; turn += 1) {
      clock.at += 1_000;
      vi.advanceTimersByTime(1_000);
      expect(answered.count).toBe(turn);
    }
  });

  it('past the ones that may wait, are answered at once with 429 and Retry-After, counted in the warning', () => {
    vi.useFakeTimers();
    const warnings: { turned_away?: number }[] = [];
    const { delay, clock } = spent(warnings);
    const answered = { count: 0 };
    holdOne(delay, answered);
    for (let i = 0; i < MAX_WAITING_REFUSALS; i += 1) holdOne(delay, answered);
    expect(answered.count).toBe(1);

    const turnedAway = holdOne(delay, answered);
    expect(answered.count).toBe(2);
    expect(turnedAway.headers['retry-after']).toBe('1');
    const body = JSON.parse(
      turnedAway.serialize!({ type: 'error', error: { type: 'authentication_error', code: 401 } }),
    );
    expect(turnedAway.status).toBe(429);
    expect(body).toMatchObject({ type: 'error', error: { type: 'rate_limit_exceeded', code: 429 } });
    expect(body.error.message).toMatch(/try again in 1 s/);

    // The next warning (at most one per 10 s) counts the refusals turned away: that one, and this one
    // (the queue is still full: no turn came).
    expect(warnings.at(-1)).toMatchObject({ turned_away: 0 });
    clock.at += 10_000;
    holdOne(delay, answered);
    expect(warnings.at(-1)).toMatchObject({ turned_away: 2, waiting: MAX_WAITING_REFUSALS });
    delay.releaseAll();
  });
});
