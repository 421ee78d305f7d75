import type { IncomingHttpHeaders } from 'node:http';
import { MAX_REQUEST_TIMEOUT_MS } from '../../../config/schema.js';
import { AppError, badRequest } from '../../../http/errors.js';
import { UpstreamError, upstreamErrorDetail } from '../../providers/upstream-error.js';
import type { Deployment } from '../../providers/types.js';
import type { RequestContext } from '../request-context.js';

/** The request header that sets a request's total deadline, in ms. */
const DEADLINE_HEADER = 'x-gatehouse-timeout-ms';

const WHOLE_MS = /^\d+$/;

/**
 * A request's total deadline in ms, counted from its arrival: its `x-gatehouse-timeout-ms`, else
 * `gateway.request_timeout_ms`, else none. A value that cannot be read is a 400 naming the header.
 */
export function requestDeadlineMs(headers: IncomingHttpHeaders, configuredMs: number | undefined): number | undefined {
  const value = headers[DEADLINE_HEADER];
  if (value === undefined) return configuredMs;
  const text = (Array.isArray(value) ? value.join(', ') : value).trim();
  const ms = Number(text);
  if (!WHOLE_MS.test(text) || ms < 1 || ms > MAX_REQUEST_TIMEOUT_MS)
    throw badRequest(
      `header ${DEADLINE_HEADER} must be a whole number of milliseconds from 1 to ${MAX_REQUEST_TIMEOUT_MS}, got '${String(value)}'`,
      DEADLINE_HEADER,
    );
  return ms;
}

/**
 * How early an attempt's timer may fire: Node counts a timer from the event loop's clock as the
 * current turn began, so one set late in a busy turn fires that much early by `performance.now()`.
 */
export const TIMER_SLACK_MS = 50;

/**
 * The deployment as one attempt calls it, its wait for the answer's first body bytes (headers
 * included) no longer than the deadline leaves: the deployment itself when its own `timeout_ms` ends
 * both the wait for headers and the one after them first (no copy), undefined when no time is left.
 * Silences once the body has begun keep the deployment's `timeout_ms`: the deadline ends at the first byte.
 */
export function withinDeadline(deployment: Deployment, leftMs: number): Deployment | undefined {
  if (leftMs < 1) return undefined;
  if (deployment.timeoutMs > 0 && deployment.timeoutMs * 2 <= leftMs) return deployment;
  return { ...deployment, headersTimeoutMs: Math.ceil(leftMs) };
}

/**
 * The deadline the request gets: at most `gateway.max_request_timeout_ms`. A header asking for longer
 * is lowered to it, and the answer (or its failure) carries the deadline applied in
 * `x-gatehouse-timeout-ms`; a request's deadline within the maximum is used as it is, and not echoed.
 */
export function appliedDeadlineMs(ctx: RequestContext, deadlineMs: number | undefined): number | undefined {
  const capped = cappedDeadlineMs(ctx, deadlineMs);
  if (capped !== deadlineMs) ctx.replyHeaders = { ...ctx.replyHeaders, [DEADLINE_HEADER]: String(capped) };
  return capped;
}

/** A deadline lowered to `gateway.max_request_timeout_ms` where it asks for longer. */
function cappedDeadlineMs(ctx: RequestContext, deadlineMs: number | undefined): number | undefined {
  const maximum = ctx.services.config.gateway.max_request_timeout_ms;
  return deadlineMs === undefined || maximum === undefined || deadlineMs <= maximum ? deadlineMs : maximum;
}

/**
 * When (by `performance.now()`) the request's deadline ends, as the route stage will apply it; Infinity
 * without one. For a wait before routing (an identical request's answer): once it has passed, the
 * route stage answers deadlineExceeded before any upstream call. Read only by requests that wait.
 */
export function deadlineEndsAt(ctx: RequestContext): number {
  const deadlineMs = cappedDeadlineMs(
    ctx,
    requestDeadlineMs(ctx.headers, ctx.services.config.gateway.request_timeout_ms),
  );
  return deadlineMs === undefined ? Infinity : ctx.startedAt + deadlineMs;
}

/**
 * The answer when the request's deadline ends it: a timeout, as the upstream's own is answered (502
 * `upstream_error`, `error.upstream.type` `timeout`), naming the deadline and what set it. Not to be
 * resent: the deadline is the caller's whole wait, and an SDK's retry would start another.
 */
export function deadlineExceeded(ctx: RequestContext, deadlineMs: number): AppError {
  const source =
    ctx.headers[DEADLINE_HEADER] === undefined
      ? 'gateway.request_timeout_ms'
      : ctx.replyHeaders?.[DEADLINE_HEADER] === undefined
        ? DEADLINE_HEADER
        : `${DEADLINE_HEADER}, lowered to gateway.max_request_timeout_ms`;
  const tried =
    ctx.attempts === 0 ? ', before any upstream call' : ctx.attempts > 1 ? `, after ${ctx.attempts} attempts` : '';
  const message = `no answer within the request's ${deadlineMs} ms deadline (${source})${tried}`;
  const timeout = new UpstreamError(message, { status: 0, retryable: false, upstreamType: 'timeout' });
  return new AppError('upstream_error', message, {
    headers: { 'x-should-retry': 'false' },
    upstream: upstreamErrorDetail(timeout),
  });
}
