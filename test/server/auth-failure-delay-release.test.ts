import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AuthFailureDelay, FREE_FAILURES_PER_MINUTE } from '../../src/server/http/auth-failure-delay.js';

const request = { ip: '127.0.0.1', method: 'GET', url: '/x', routeOptions: { url: '/x' } } as unknown as FastifyRequest;
const log = { warn: () => undefined } as unknown as FastifyBaseLogger;

/** A delay whose clock stands still, with the free refusals of the minute spent. */
function spent(): AuthFailureDelay {
  const delay = new AuthFailureDelay(
    () => log,
    () => 1_000,
  );
  for (let i = 0; i < FREE_FAILURES_PER_MINUTE; i += 1) {
    let answered = false;
    delay.hold(request, new EventEmitter() as unknown as ServerResponse, () => (answered = true));
    expect(answered).toBe(true);
  }
  return delay;
}

/**
 * What the servers' own tests cannot show without timing: a waiting refusal is answered as soon as
 * the service starts closing (closing waits for answers in flight, so it must not wait on the
 * timers) or its client leaves, and once closing began nothing waits at all.
 */
describe('waiting refusals', () => {
  it('are answered at once when closing begins, and later ones are not held', () => {
    const delay = spent();
    let answered = 0;
    delay.hold(request, new EventEmitter() as unknown as ServerResponse, () => (answered += 1));
    delay.hold(request, new EventEmitter() as unknown as ServerResponse, () => (answered += 1));
    expect(answered).toBe(0);
    delay.releaseAll();
    expect(answered).toBe(2);
    delay.hold(request, new EventEmitter() as unknown as ServerResponse, () => (answered += 1));
    expect(answered).toBe(3);
  });

  it('are answered at once when their client leaves, once only', () => {
    const delay = spent();
    const response = new EventEmitter();
    let answered = 0;
    delay.hold(request, response as unknown as ServerResponse, () => (answered += 1));
    expect(answered).toBe(0);
    response.emit('close');
    expect(answered).toBe(1);
    delay.releaseAll();
    expect(answered).toBe(1);
    expect(response.listenerCount('close')).toBe(0);
  });
});
