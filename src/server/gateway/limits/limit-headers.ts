import type { LimitStatus } from '../../../shared/principals-api.js';
import type { LimitCheck } from './limit-plan.js';

/**
 * A duration as OpenAI writes its reset headers (Go's notation): `20ms`, `1s`, `6m0s`, `1h2m3s`.
 */
export function resetDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.ceil(ms))}ms`;
  const seconds = Math.ceil(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

/** The status with the least room left of those matching `measure`. */
function tightest(
  checks: readonly LimitCheck[],
  statuses: readonly LimitStatus[],
  measure: LimitCheck['measure'],
): LimitStatus | undefined {
  let result: LimitStatus | undefined;
  for (let index = 0; index < checks.length; index += 1) {
    if (checks[index]!.measure !== measure) continue;
    const status = statuses[index]!;
    if (result === undefined || status.remaining < result.remaining) result = status;
  }
  return result;
}

/**
 * OpenAI's `x-ratelimit-*` headers for an admitted request: for requests and for tokens, the limit
 * with the least room left after this request (a key's, its user's, team's or model's), what remains
 * and when it is whole again. A measure no limit counts gets no headers. A dollar budget adds the
 * `x-gatehouse-budget-*` headers (spendHeaders). Messages answers also carry Anthropic's spelling
 * (`anthropic-ratelimit-*`, the reset as an RFC 3339 time).
 */
export function rateLimitHeaders(
  checks: readonly LimitCheck[],
  statuses: readonly LimitStatus[],
  anthropic: boolean,
  now: number,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const measure of ['requests', 'tokens'] as const) {
    const status = tightest(checks, statuses, measure);
    if (status === undefined) continue;
    headers[`x-ratelimit-limit-${measure}`] = String(status.limit);
    headers[`x-ratelimit-remaining-${measure}`] = String(status.remaining);
    headers[`x-ratelimit-reset-${measure}`] = resetDuration(status.reset_ms);
    if (!anthropic) continue;
    headers[`anthropic-ratelimit-${measure}-limit`] = String(status.limit);
    headers[`anthropic-ratelimit-${measure}-remaining`] = String(status.remaining);
    headers[`anthropic-ratelimit-${measure}-reset`] = new Date(now + status.reset_ms).toISOString();
  }
  spendHeaders(headers, tightest(checks, statuses, 'usd'));
  return headers;
}

/** Dollars in a header: plain decimals to the billionth, never `1e-7`. */
const usd = (value: number): string => value.toFixed(9).replace(/\.?0+$/, '');

/**
 * A key's spend, as LiteLLM's `x-litellm-key-spend` tells it, for the dollar budget (the key's, its
 * user's or its team's) with the least left: its limit, what is spent (this request's estimate
 * included until it settles), what is left and when its window ends. Only where some dollar budget
 * applies: the statuses are those worked out for `x-ratelimit-*` anyway.
 */
function spendHeaders(headers: Record<string, string>, status: LimitStatus | undefined): void {
  if (status === undefined) return;
  headers['x-gatehouse-budget-limit-usd'] = usd(status.limit);
  headers['x-gatehouse-budget-spent-usd'] = usd(status.used);
  headers['x-gatehouse-budget-remaining-usd'] = usd(status.remaining);
  headers['x-gatehouse-budget-reset'] = resetDuration(status.reset_ms);
}
