import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id each request was given, kept on the request itself for answers written below Fastify (a
 * body that timed out): a property costs the collector nothing, where a WeakMap entry per request
 * is an ephemeron it must trace.
 */
const ASSIGNED = Symbol('gatehouse.requestId');
type WithId = IncomingMessage & { [ASSIGNED]?: string };

/** Echoes a well-formed incoming `x-request-id` UUID as sent (letter case too), otherwise mints a new one. */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && UUID.test(incoming) ? incoming : randomUUID();
  (req as WithId)[ASSIGNED] = id;
  return id;
}

/** The id `requestIdFor` gave this request, if it got that far. */
export function assignedRequestId(req: IncomingMessage): string | undefined {
  return (req as WithId)[ASSIGNED];
}
