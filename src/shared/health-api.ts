import { z } from 'zod';
import type { ErrorBody } from './errors.js';

/** The state of a readiness check, and of the service as a whole (ok only when every check is). */
export const readinessStateSchema = z.enum(['ok', 'unavailable']);

/**
 * `GET /readyz` of either service: each named check's state (`database`, ...). 200 when all are ok;
 * 503 otherwise, with the shared error naming the failing checks beside them ({@link NotReady}).
 */
export const readinessSchema = z.object({
  status: readinessStateSchema,
  checks: z.record(z.string(), readinessStateSchema),
});
/** A `/readyz` answer. */
export type Readiness = z.infer<typeof readinessSchema>;
/** The 503 `/readyz` answer: the checks, and the error a client that reads only errors understands. */
export type NotReady = Readiness & ErrorBody;
