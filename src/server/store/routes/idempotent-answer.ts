import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';
import type { StoreEngine } from '../engine/store-engine.js';
import { requestFingerprint } from '../idempotency-keys.js';

/**
 * Runs a write, once per `Idempotency-Key`: without one, as it is; with one, its answer is kept in the
 * write's transaction, and a retry with the same body gets that answer back marked
 * `Idempotent-Replayed: true`, one with another body 422 (as the IETF draft has it).
 */
export function answerOnce<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  engine: StoreEngine,
  run: () => T,
): T | FastifyReply {
  const slot = request.idempotencySlot;
  if (slot === undefined) return run();
  const outcome = engine.once(slot, requestFingerprint(request), run);
  switch (outcome.kind) {
    case 'ran':
      return outcome.answer;
    case 'replayed':
      return reply
        .header('idempotent-replayed', 'true')
        .type('application/json; charset=utf-8')
        .serializer((payload) => payload as string)
        .send(outcome.answerJson);
    case 'mismatch':
      throw new AppError(
        'invalid_request_error',
        `Idempotency-Key "${slot.key}" was already used for a different request to ${slot.endpoint}; ` +
          'send a new key for a new request, or the same body to retry',
        { status: 422, param: 'Idempotency-Key' },
      );
  }
}
