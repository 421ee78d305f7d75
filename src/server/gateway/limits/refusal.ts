import type { LimitCheck } from './limit-plan.js';
import { RateLimitError } from './rate-limit-error.js';

const UNIT: Readonly<Record<LimitCheck['measure'], string>> = { requests: 'requests', tokens: 'tokens', usd: 'USD' };

const PER: Readonly<Record<LimitCheck['span'], string>> = {
  bucket: 'per minute',
  minute: 'per minute (budget)',
  day: 'per day (budget, UTC)',
};

const amount = (check: LimitCheck, value: number): string =>
  check.measure === 'usd' ? `$${value.toFixed(4)}` : `${value} ${UNIT[check.measure]}`;

/**
 * The 429 for a refused request: the message names the limit, whose it is and what the request
 * needed; Retry-After is the whole seconds (rounded up) until the bucket has refilled enough or the
 * budget's window ends. A request larger than the whole limit can never pass: it says so and tells
 * the SDKs not to retry.
 */
export function refusal(check: LimitCheck, needed: number, waitMs: number): RateLimitError {
  const limit = `${check.subject.name} allows ${amount(check, check.limit)} ${PER[check.span]}`;
  if (!Number.isFinite(waitMs)) {
    return new RateLimitError(
      check.type,
      `rate limit '${check.type}' exceeded: this request needs ${amount(check, needed)} and ${limit}, so it can never pass; lower max_tokens or the input`,
      { 'x-should-retry': 'false', 'retry-after': String(check.span === 'day' ? 86_400 : 60) },
    );
  }
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new RateLimitError(check.type, `rate limit '${check.type}' exceeded: ${limit}; retry after ${seconds} s`, {
    'retry-after': String(seconds),
  });
}
