import { AppError, badRequest } from '../../../http/errors.js';
import { TranslationError } from '../../formats/translation-error.js';
import { UnsupportedOperationError, type UpstreamError, upstreamErrorDetail } from '../../providers/upstream-error.js';
import { MAX_SDK_WAIT_SECONDS } from '../../sdk-wait.js';

/**
 * The 502 answered for a provider failure, with the provider's status in `x-upstream-status`. A
 * failure that another try cannot fix (a 400, 401, 404 from the provider) says so in
 * `x-should-retry: false`, which both official SDKs obey instead of resending it three times, and so
 * does one the gateway already retried (its own retries or fallbacks, with backoff, waiting as the
 * provider asked): the SDK would resend the whole chain, up to three times as many calls to a provider
 * that is already refusing them. A retryable failure keeps the provider's `Retry-After`: the SDKs wait
 * for it before they resend one the gateway tried once, and a caller reads it either way; a wait past
 * a minute is the caller's to decide too.
 */
export function upstreamFailure(error: UpstreamError, attempts: number, deadlineMs?: number): AppError {
  const suffix =
    (attempts > 1 ? ` (after ${attempts} attempts)` : '') +
    (deadlineMs === undefined
      ? ''
      : `; not tried again: the wait would outlast the request's ${deadlineMs} ms deadline`);
  const headers: Record<string, string> = {};
  if (error.status > 0) headers['x-upstream-status'] = String(error.status);
  const asked = error.retryable ? error.retryAfterSeconds : undefined;
  if (asked !== undefined) {
    headers['retry-after'] = String(asked);
    // Both SDKs read this one first: a provider's wait of 200 ms stays 200 ms, not a whole second.
    headers['retry-after-ms'] = String(error.retryAfterMs);
  }
  // Cut short by the caller's deadline: an SDK's resend would start another whole wait.
  if (
    !error.retryable ||
    attempts > 1 ||
    deadlineMs !== undefined ||
    (asked !== undefined && asked > MAX_SDK_WAIT_SECONDS)
  )
    headers['x-should-retry'] = 'false';
  if (error.requestId !== undefined) headers['x-upstream-request-id'] = error.requestId;
  return new AppError('upstream_error', `${error.message}${suffix}`, { headers, upstream: upstreamErrorDetail(error) });
}

/**
 * How long to wait before retry number `retry` (1-based): the upstream's Retry-After when it gave one
 * (undefined when that is longer than the gateway will wait, so the caller falls back at once),
 * otherwise exponential backoff with jitter, so that clients retrying together spread out.
 */
export function retryDelay(
  retry: number,
  error: UpstreamError,
  settings: { readonly backoffMs: number; readonly maxWaitMs: number },
  random: () => number = Math.random,
): number | undefined {
  if (error.retryAfterMs !== undefined) {
    const asked = error.retryAfterMs;
    return asked > settings.maxWaitMs ? undefined : asked;
  }
  const ceiling = Math.min(settings.backoffMs * 2 ** (retry - 1), settings.maxWaitMs);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Requests the provider cannot express are the client's mistake: 400, not 500. */
export function translateProviderError(error: unknown): unknown {
  if (error instanceof TranslationError) return badRequest(error.message, error.param);
  if (error instanceof UnsupportedOperationError) return badRequest(error.message);
  return error;
}
