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

const BUDGET: Readonly<Record<LimitCheck['span'], string>> = {
  bucket: 'per-minute limit',
  minute: 'per-minute budget',
  day: 'daily budget',
  month: 'monthly budget',
};

/**
 * Who allows what: "user:x1 allows 300 tokens per day (budget, UTC)", or, where a key's cap on its
 * user's or team's budget is the tighter one, that cap, so that the admin changes the right setting:
 * "key:k1 caps user:x1's daily budget at 300 tokens (the user allows 10000)".
 */
function allowance(check: LimitCheck): string {
  const capped = check.setBy?.by.kind === 'key' ? check.setBy : undefined;
  if (capped === undefined) return `${check.subject.name} allows ${amount(check, check.limit)} ${PER[check.span]}`;
  const kind = check.subject.kind;
  const own =
    capped.own === undefined ? `the ${kind} has no such budget` : `the ${kind} allows ${amount(check, capped.own)}`;
  return `${capped.by.name} caps ${check.subject.name}'s ${BUDGET[check.span]} at ${amount(check, check.limit)} (${own})`;
}

/** The refused request as the limits stage counted it, and what the refusing limit had used. */
export interface RefusedRequest {
  readonly used: number;
  /** Prompt tokens. */
  readonly input: number;
  /** Output tokens reserved (`max_tokens`, else the configured reservation). */
  readonly output: number;
}

/** A bare figure in the limit's unit ("206", "$0.80"), its unit said once by the limit. */
const figure = (check: LimitCheck, value: number): string =>
  check.measure === 'usd' ? formatUsd(Math.max(0, value)) : String(Math.max(0, Math.round(value)));

/** "431 tokens (175 input + 256 reserved for output)": what the request needs and why. */
function needs(check: LimitCheck, needed: number, request: RefusedRequest, reservesOutput: boolean): string {
  const tokens = check.measure === 'usd' ? ' tokens' : '';
  const parts = reservesOutput
    ? `${request.input} input + ${request.output} reserved for output${tokens}`
    : `its ${request.input} input${tokens}`;
  return `${amount(check, needed)} (${parts})`;
}

/**
 * A budget's refusal that a smaller request could pass: used, left, what this one needs and what
 * to do, so that a caller does not wait hours for room it already has.
 */
function budgetMessage(
  check: LimitCheck,
  limit: string,
  needed: number,
  request: RefusedRequest,
  reservesOutput: boolean,
  seconds: number,
): string {
  const left = check.limit - request.used;
  const standing = `${limit}: ${figure(check, request.used)} used, ${figure(check, left)} left`;
  // Nothing left: no smaller request fits either, only the window's end helps.
  if (left <= 0) return `${standing}; retry after ${seconds} s`;
  // A smaller max_tokens helps only when the input alone fits what is left.
  const inputFits = check.measure !== 'tokens' || request.input < left;
  const smaller = reservesOutput && request.output > 0 && inputFits ? 'send a smaller max_tokens' : 'send less input';
  return `${standing}; this request needs ${needs(check, needed, request, reservesOutput)}: ${smaller}, or retry after ${seconds} s`;
}

/**
 * The 429 for a refused request: the message names the limit, whose it is and what the request
 * needed; Retry-After is the whole seconds (rounded up) until the bucket has refilled enough for it
 * and for those refused before it, or until the budget's window ends. A request larger than the whole limit can never pass: it says so and tells
 * the SDKs not to retry; a budget of 0 passes nothing until it is raised, so it has no Retry-After at all.
 */
export function refusal(
  check: LimitCheck,
  needed: number,
  waitMs: number,
  /** Whether the request reserves output (an embeddings request has only its input to lower). */
  reservesOutput = true,
  /** Where the request's limits stand (`x-ratelimit-*`), sent with the refusal as OpenAI sends them. */
  state: Record<string, string> = {},
  /** The request's tokens and the limit's use: a budget's message says used, left and needed. */
  request?: RefusedRequest,
): RateLimitError {
  const limit = allowance(check);
  if (!Number.isFinite(waitMs)) {
    if (check.limit === 0) {
      // No wait helps a budget of 0, only raising it: a Retry-After would promise a retry that fails again.
      const frozenHeaders = { ...state, 'x-should-retry': 'false' };
      const frozen =
        check.setBy?.by.kind === 'key'
          ? limit
          : `the budget of ${check.subject.name} is ${amount(check, 0)} ${PER[check.span]}`;
      return new RateLimitError(
        check.type,
        `rate limit '${check.type}' exceeded: ${frozen}, frozen: nothing may be spent, so no request can pass until it is raised`,
        frozenHeaders,
      );
    }
    const windowWait = windowSeconds(check.span);
    // The SDKs do not retry it; `retry-after-ms` is still sent, as on every 429, for clients that read only it.
    const never = {
      ...state,
      'x-should-retry': 'false',
      'retry-after': String(windowWait),
      'retry-after-ms': String(windowWait * 1000),
    };
    // An embeddings request has only its input to lower (its count is in `needs` already).
    const lower = !reservesOutput
      ? 'send less input'
      : request === undefined
        ? 'lower max_tokens or the input'
        : `lower max_tokens (${request.output} reserved for output) or the input (${request.input} tokens)`;
    return new RateLimitError(
      check.type,
      `rate limit '${check.type}' exceeded: this request needs ${amount(check, needed)} and ${limit}, so it can never pass; ${lower}`,
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
  const budget = check.span !== 'bucket' && check.measure !== 'requests' && request !== undefined;
  return new RateLimitError(
    check.type,
    `rate limit '${check.type}' exceeded: ${budget ? budgetMessage(check, limit, needed, request, reservesOutput, seconds) : `${limit}; retry after ${seconds} s`}`,
    headers,
  );
}
