import { AppError } from '../../http/errors.js';
import { GatewayError } from '../gateway-error.js';

/**
 * Whether a stage's failure is answered with a 4xx: the caller's mistake (a bad key, a model it may not
 * use, a body that does not validate, a rate limit), not the gateway's. Tracing backends search and
 * flag traces by an error status, so such a failure leaves the status unset, as the HTTP conventions
 * do for a server span's 4xx, and says why in `error.type` only.
 */
export function isCallerFault(error: unknown): boolean {
  if (error instanceof AppError) return error.status < 500;
  // Every kind of a service's expected failure maps to a 4xx at the edge.
  if (error instanceof GatewayError) return true;
  // Fastify's own refusals (body validation, content type): a 4xx `statusCode`.
  const status = (error as { readonly statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * Whether a request's outcome is a failure a tracing backend should flag: a 5xx, a client that left
 * (499), or a stream that failed after its 200 went out (`upstream_error`).
 */
export function isFailedOutcome(status: number, errorType: string | undefined): boolean {
  if (errorType === undefined) return false;
  return status >= 500 || status === 499 || errorType === 'upstream_error';
}
