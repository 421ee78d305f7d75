import type { RequestContext } from '../pipeline/request-context.js';
import type { ResponseOwner } from './responses.service.js';

/** The key (and its team) a kept response belongs to, or is read by: the request's authenticated key. */
export function responseOwner(ctx: RequestContext): ResponseOwner {
  const principal = ctx.principal;
  // Only embeddings accept a caller's own provider key; Responses always authenticate an issued key.
  if (principal?.kind !== 'key') throw new Error(`kept responses need an issued key (${ctx.path})`);
  const key = principal.key.row;
  const retriever = ctx.services.rag.retriever;
  return {
    keyId: key.id,
    team: key.team,
    sameTeam: () => ctx.services.principals.sameTeamSince(key.team, ctx.startedAtMs),
    mayReadCollections: (names, keptAtMs) => {
      const { allowed, denied } = retriever.readable(key, names);
      return denied.length === 0 && allowed.every((collection) => collection.createdAt <= keptAtMs);
    },
  };
}
