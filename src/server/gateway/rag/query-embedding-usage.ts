import type { RequestContext } from '../pipeline/request-context.js';
import type { EmbeddingCall } from './embedder.js';
import { embeddingUsageEntry } from './rag-usage.js';

/**
 * Books a request's query embedding: a row per call under the request's id, key, user and team, and
 * its tokens and spend in the budgets the request counts in. The request's own row and settlement
 * cover the chat model alone, so the embedding is charged apart, now: as settling a reservation of
 * nothing with what the calls used. Only the calendar budgets of the key, its user and team take it,
 * as the usage table would give them after a restart (rate-limit buckets are rebuilt from admitted
 * requests only, and a model's limits from that model's rows).
 */
export function bookQueryEmbedding(
  ctx: RequestContext,
  calls: readonly EmbeddingCall[],
  collections: readonly string[],
): void {
  const principal = ctx.principal;
  if (calls.length === 0 || principal?.kind !== 'key') return;
  const key = principal.key.row;
  const { recorder, prices, limits } = ctx.services;
  const booking = { requestId: ctx.requestId, keyId: key.id, ownerUser: key.ownerUser, team: key.team };
  let tokens = 0;
  let usd = 0;
  for (const call of calls) {
    const entry = embeddingUsageEntry(call, 'rag_query_embedding', booking, collections, prices);
    recorder.record(entry);
    tokens += entry.promptTokens;
    usd += entry.costUsd;
  }
  const reservation = ctx.reservation;
  // No reservation: no budget of theirs is held in memory; one built later reads the rows just recorded.
  if (reservation === undefined) return;
  const budgets = reservation.checks.filter((check) => check.span !== 'bucket' && check.subject.kind !== 'model');
  limits.settle({ ...reservation, checks: budgets, cost: { tokens: 0, usd: 0 } }, tokens, usd);
}
