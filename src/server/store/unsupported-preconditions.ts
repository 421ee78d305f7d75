import type { FastifyRequest } from 'fastify';
import { badRequest } from '../http/errors.js';

/** HTTP preconditions on a change that the store does not evaluate; `expected_revision` does their work. */
const CHANGE_PRECONDITIONS = ['if-match', 'if-none-match', 'if-unmodified-since'] as const;

/**
 * Refuses a change sent with an HTTP precondition. Ignored, an `If-Match` would let the very write it
 * was meant to stop land over a newer revision, the lost update its sender guarded against; the
 * store's own guard is `expected_revision` in the body. A read's precondition may be ignored: the full
 * answer is always a correct one.
 */
export function refuseUnsupportedPreconditions(request: FastifyRequest): void {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
  const sent = CHANGE_PRECONDITIONS.find((name) => request.headers[name] !== undefined);
  if (sent === undefined) return;
  throw badRequest(
    `header ${sent} is not supported: send expected_revision in the JSON body (the head revision your change is based on); a change is then refused with 409 if the branch has moved past it`,
  );
}
