import type { FastifyRequest } from 'fastify';
import { badRequest } from '../http/errors.js';
import type { StoreRouteConfig } from './app.js';

/** HTTP preconditions the store does not evaluate; on a change, `expected_revision` does their work. */
const PRECONDITIONS = ['if-match', 'if-none-match', 'if-unmodified-since'] as const;

/**
 * Refuses a change sent with an HTTP precondition. Ignored, an `If-Match` would let the very write it
 * was meant to stop land over a newer revision, the lost update its sender guarded against; the
 * store's own guard is `expected_revision` in the body, where the endpoint takes it. A read's
 * precondition (GET, and `POST /v1/diff`, which writes nothing) may be ignored: the full answer is
 * always a correct one.
 */
export function refuseUnsupportedPreconditions(request: FastifyRequest): void {
  const verb = (request.routeOptions.config as StoreRouteConfig | undefined)?.storeAuth?.verb ?? 'read';
  if (verb === 'read' || verb === 'any') return;
  const sent = PRECONDITIONS.find((name) => request.headers[name] !== undefined);
  if (sent === undefined) return;
  const shape = (request.routeOptions.schema?.body as { shape?: Record<string, unknown> } | undefined)?.shape;
  if (shape === undefined || !('expected_revision' in shape))
    throw badRequest(
      `header ${sent} is not supported: this endpoint evaluates no precondition, so send the request without it`,
    );
  // A checkpoint deletion's expected_revision is the revision the checkpoint marks, not a branch head.
  throw badRequest(
    request.method === 'DELETE' && request.routeOptions.url === '/v1/checkpoints'
      ? `header ${sent} is not supported: send expected_revision in the JSON body (the revision the checkpoint marks); the deletion is then refused with 409 if the checkpoint has moved`
      : `header ${sent} is not supported: send expected_revision in the JSON body (the head revision your change is based on); the change is then refused with 409 if the branch has moved past it`,
  );
}
