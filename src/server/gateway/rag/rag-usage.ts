import { randomUUID } from 'node:crypto';
import type { PriceTable } from '../accounting/pricing.js';
import type { UsageEntry } from '../accounting/usage-entry.js';
import type { UsageRecorder } from '../accounting/usage-recorder.js';
import type { EmbeddingCall } from './embedder.js';

/** What a RAG embedding row records in place of an endpoint: a query's vector, or chunks being indexed. */
export type RagEmbeddingKind = 'rag_query_embedding' | 'rag_index_embedding';

/** Whom a row is booked to: a request's key, user and team; nobody (all null) for the gateway's own calls. */
export interface RagBooking {
  readonly requestId: string;
  readonly keyId: string | null;
  readonly ownerUser: string | null;
  readonly team: string | null;
}

/** Where usage rows go and what models cost: the gateway's batched recorder and its price table. */
export interface RagUsageSinks {
  readonly recorder: Pick<UsageRecorder, 'record'>;
  readonly prices: PriceTable;
}

/**
 * The usage row of one embeddings call RAG made: the embedding model's tokens, priced as any request
 * of it is (0 for an unpriced model, as other unpriced usage shows), with the collections it served.
 * Never `admitted`: no limits stage admitted it, so a rebuilt request-rate bucket does not count it as a
 * request; budgets, which count every row's tokens and spend, do.
 */
export function embeddingUsageEntry(
  call: EmbeddingCall,
  kind: RagEmbeddingKind,
  booking: RagBooking,
  collections: readonly string[],
  prices: PriceTable,
): UsageEntry {
  const { model, deployment, promptTokens } = call;
  return {
    ...booking,
    createdAt: call.startedAt,
    endpoint: kind,
    model,
    requestedModel: model,
    deployment: deployment.id,
    provider: deployment.provider,
    promptTokens,
    completionTokens: 0,
    costUsd: prices.cost(model, deployment.upstreamModel, { promptTokens, completionTokens: 0 }),
    latencyMs: call.latencyMs,
    status: 200,
    errorType: null,
    stream: false,
    cached: false,
    admitted: false,
    ragCollections: collections.join(','),
  };
}

const NOBODY = { keyId: null, ownerUser: null, team: null } as const;

/**
 * Books the gateway's own embeddings calls (indexing, the admin console's searches): no key pays for
 * them, and their rows say what they were for by their kind and collections. Without sinks (a RAG
 * service built on its own, in tests) nothing is booked.
 */
export class RagUsageBook {
  constructor(private readonly sinks: RagUsageSinks | undefined) {}

  /** One indexing call (an ingest, a sync's batch, the backfill's) for the collections whose chunks it embedded. */
  indexed(call: EmbeddingCall, collections: readonly string[]): void {
    if (this.sinks === undefined) return;
    const booking = { ...NOBODY, requestId: `rag-index-${randomUUID()}` };
    this.sinks.recorder.record(
      embeddingUsageEntry(call, 'rag_index_embedding', booking, collections, this.sinks.prices),
    );
  }

  /** The query embeddings of an admin search, under the admin request's id. */
  searched(calls: readonly EmbeddingCall[], requestId: string, collections: readonly string[]): void {
    if (this.sinks === undefined) return;
    for (const call of calls)
      this.sinks.recorder.record(
        embeddingUsageEntry(call, 'rag_query_embedding', { ...NOBODY, requestId }, collections, this.sinks.prices),
      );
  }
}
