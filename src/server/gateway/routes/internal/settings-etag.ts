import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../http/errors.js';

/**
 * Entity tags on the admin API's whole-set settings (`/internal/deployments`, `/internal/models`),
 * which a PUT replaces at once: an `If-Match` with the tag a script or a screen read makes the PUT
 * refuse (412) when someone else changed the settings since, instead of silently undoing their change.
 */

/** A strong tag over the settings as the GET answers them. */
export function settingsTag(view: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(view)).digest('base64url').slice(0, 27)}"`;
}

/**
 * Answers `view` with the tag of `identity`: what a PUT replaces, when the view also shows what moves
 * on its own (counters, derived fields), which would otherwise refuse every If-Match under traffic.
 */
export function tagged<T>(reply: FastifyReply, view: T, identity: unknown = view): T {
  reply.header('etag', settingsTag(identity));
  return view;
}

/**
 * Refuses a PUT whose `If-Match` names none of the current settings' tag (`*` matches any: the
 * settings always exist). Without the header the PUT goes ahead, as before.
 */
export function checkIfMatch(request: FastifyRequest, current: unknown, what: string): void {
  const header = request.headers['if-match'];
  if (header === undefined) return;
  const tag = settingsTag(current);
  const sent = header.split(',').map((candidate) => candidate.trim());
  if (sent.includes('*') || sent.includes(tag)) return;
  if (sent.some((candidate) => candidate.startsWith('W/')))
    throw new AppError(
      'precondition_failed',
      `header If-Match: ${what} compare by strong entity tags only; send the ETag of GET /internal/${what} as it came`,
    );
  throw new AppError(
    'precondition_failed',
    `header If-Match: the ${what} changed since they were read (their ETag is now ${tag}); read them again, apply your change to what they are now, and send that`,
  );
}
