/** One usage row before it is written (times in Unix milliseconds). */
export interface UsageEntry {
  readonly requestId: string;
  readonly createdAt: number;
  readonly keyId: string | null;
  readonly ownerUser: string | null;
  readonly team: string | null;
  readonly endpoint: string;
  readonly model: string | null;
  /** The model as the client named it; kept also for a request refused before its model resolved. */
  readonly requestedModel: string | null;
  readonly deployment: string | null;
  readonly provider: string | null;
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Of `promptTokens`, read from the provider's prompt cache; null when the provider did not say. */
  readonly cacheReadPromptTokens?: number | null;
  /** Of `promptTokens`, written to the provider's prompt cache; null when the provider did not say. */
  readonly cacheWritePromptTokens?: number | null;
  /** Of `completionTokens`, spent reasoning; null when the provider did not say. */
  readonly reasoningTokens?: number | null;
  readonly costUsd: number;
  readonly latencyMs: number;
  readonly status: number;
  readonly errorType: string | null;
  readonly stream: boolean;
  readonly cached: boolean;
  /** The request passed the limits stage (drew on buckets and budgets). */
  readonly admitted: boolean;
  /**
   * Of a RAG embedding row (`rag_query_embedding`, `rag_index_embedding`): the collections it served,
   * comma-separated; null on others.
   */
  readonly ragCollections?: string | null;
  /** The request's trace, when its spans were recorded (exported); null when not traced or not sampled. */
  readonly traceId?: string | null;
  /** Upstream calls made, retries and fallbacks included (0: answered without one). */
  readonly attempts?: number | null;
  /** The token counts are the gateway's estimate (a client that left, a stream cut before its usage). */
  readonly tokensEstimated?: boolean;
  /** What the response cache did with the request; null (or absent) when it did not consider it. */
  readonly cacheStatus?: CacheStatus | null;
  /** Of a cache hit: the kept answer's usage and its cost at the hit's prices, which the hit did not spend again. */
  readonly savedPromptTokens?: number | null;
  readonly savedCompletionTokens?: number | null;
  readonly savedCostUsd?: number | null;
  /** Of a cache hit: the kept answer's age in whole seconds. */
  readonly cacheAgeS?: number | null;
}

/** What the response cache did with a request it considered (the `x-gatehouse-cache` response header). */
export type CacheStatus = 'hit' | 'miss' | 'bypass' | 'refresh';

/** One audit event before it is written. */
export interface AuditEntry {
  readonly createdAt: number;
  /** `master` for the admin API, `key:<id>` for an issued key, `passthrough` for a provider key. */
  readonly actor: string;
  readonly action: string;
  readonly target: string | null;
  readonly requestId: string | null;
  readonly details: Record<string, unknown> | null;
}
