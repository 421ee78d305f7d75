import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A strong entity tag over what determines an answer's body: for a state, its scope, the revision it
 * answers and every parameter that shapes it; for a log, the body itself.
 */
export function entityTag(parts: readonly unknown[]): string {
  return `"${createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 27)}"`;
}

/**
 * A weak entity tag (`W/"..."`): for answers that mean the same without being the same bytes, as reads of
 * named documents at two revisions that left them as they were (each answer names its own revision).
 */
export function weakEntityTag(parts: readonly unknown[]): string {
  return `W/${entityTag(parts)}`;
}

/**
 * Whether the request's `If-None-Match` lists `tag` (compared weakly, as RFC 9110 says for this header).
 * `*` matches nothing here: every scope has a state, so it would make every read a 304, and the full
 * answer is always a correct one.
 */
export function ifNoneMatchHits(request: FastifyRequest, tag: string): boolean {
  const header = request.headers['if-none-match'];
  if (header === undefined) return false;
  const opaque = (candidate: string) => candidate.trim().replace(/^W\//, '');
  return header.split(',').some((candidate) => opaque(candidate) === opaque(tag));
}

/** Answers 304 Not Modified with the tag and no body. */
export function notModified(reply: FastifyReply, tag: string): FastifyReply {
  return reply.code(304).header('etag', tag).send();
}
