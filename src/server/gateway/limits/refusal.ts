import { windowEnd, windowStart } from './calendar-window.js';
import type { LimitCheck } from './limit-plan.js';
import { RateLimitError } from './rate-limit-error.js';
import { MAX_SDK_WAIT_SECONDS } from '../sdk-wait.js';

const UNIT: Readonly<Record<LimitCheck['measure'], string>> = { requests: 'requests', tokens: 'tokens', usd: 'USD' };

const PER: Readonly<Record<LimitCheck['span'], string>> = {
  bucket: 'per minute',
  minute: 'per minute (budget)',
  day: 'per day (budget, UTC)',
  month: 'per month (budget, UTC calendar month)',
};

/** A whole window in seconds: how long a request that can never pass is told to wait. */
function windowSeconds(span: LimitCheck['span']): number {
  if (span === 'bucket' || span === 'minute') return 60;
  const now = Date.now();
  return Math.round((windowEnd(span, now) - windowStart(span, now)) / 1000);
}

// Below a dollar, significant digits rather than fixed decimals: a budget of $0.00001 must not read "$0.0000".
const SMALL_USD = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3, useGrouping: false });

/** Dollars as a person reads them: cents above a dollar, three significant digits below. */
export function formatUsd(value: number): string {
  return `$${value >= 1 ? value.toFixed(2) : SMALL_USD.format(value)}`;
}

const amount = (check: LimitCheck, value: number): string =>
  check.measure === 'usd' ? formatUsd(value) : `${value} ${UNIT[check.measure]}`;

/**
 * The 429 for a refused request: the message names the limit, whose it is and what the request
 * needed; Retry-After is the whole seconds (rounded up) until the bucket has refilled enough for it
 * and for those refused before it, or until the budget's window ends. A request larger than the whole limit can never pass: it says so and tells
 * the SDKs not to retry.
 */
export function refusal(
  check: LimitCheck,
  needed: number,
  waitMs: number,
  /** Whether the request reserves output (an embeddings request has only its input to lower). */
  reservesOutput = true,
  /** Where the request's limits stand (`x-ratelimit-*`), sent with the refusal as OpenAI sends them. */
  state: Record<string, string> = {},
): RateLimitError {
  const limit = `${check.subject.name} allows ${amount(check, check.limit)} ${PER[check.span]}`;
  if (!Number.isFinite(waitMs)) {
    const never = { ...state, 'x-should-retry': 'false', 'retry-after': String(windowSeconds(check.span)) };
    if (check.limit === 0)
      return new RateLimitError(
        check.type,
        `rate limit '${check.type}' exceeded: the budget of ${check.subject.name} is ${amount(check, 0)} ${PER[check.span]}, frozen: nothing may be spent, so no request can pass until it is raised`,
        never,
      );
    return new RateLimitError(
      check.type,
      `rate limit '${check.type}' exceeded: this request needs ${amount(check, needed)} and ${limit}, so it can never pass; ${reservesOutput ? 'lower max_tokens or the input' : 'send less input'}`,
      never,
    );
  }
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  // `retry-after-ms`, which both SDKs read first, keeps the stagger between refused requests that
  // whole seconds would round away.
  const headers: Record<string, string> = {
    ...state,
    'retry-after': String(seconds),
    'retry-after-ms': String(Math.max(1, Math.ceil(waitMs))),
  };
  // A daily or monthly budget's wait until its window ends would hold the caller's SDK call for hours or days.
  if (seconds > MAX_SDK_WAIT_SECONDS) headers['x-should-retry'] = 'false';
  return new RateLimitError(
    check.type,
    `rate limit '${check.type}' exceeded: ${limit}; retry after ${seconds} s`,
    headers,
  );
}
