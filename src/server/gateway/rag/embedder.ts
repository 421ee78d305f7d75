import type { ModelRegistry } from '../model-registry/model-registry.js';
import { executeEmbeddings } from '../providers/execute-embeddings.js';
import { DEFAULT_TIMEOUT_MS } from '../providers/provider-settings.js';
import type { Deployment } from '../providers/types.js';
import { UpstreamError } from '../providers/upstream-error.js';
import type { UpstreamPools } from '../providers/upstream-pools.js';
import { embedSplittingRefusals, type RefusalRecord } from './refusal-split.js';

/** Inputs per embeddings call when indexing. */
export const EMBED_BATCH = 64;
/** The longest an indexing call waits on a deployment that sets no `timeout_ms` of its own. */
const INDEX_TIMEOUT_MS = 60_000;

/** How long query embeddings wait, and pause after one failed. */
export interface QueryEmbeddingLimits {
  /** `rag.query_embedding_timeout_ms`: the longest a request waits on its query's vector. */
  readonly timeoutMs: number;
  /** After a failure, queries are not embedded (BM25 only) for this long. */
  readonly cooldownMs: number;
}

/**
 * One embeddings call the model answered, as usage books it: the deployment that answered, the tokens
 * it counted, and when it started and how long it took.
 */
export interface EmbeddingCall {
  readonly model: string;
  readonly deployment: Deployment;
  readonly promptTokens: number;
  /** Unix ms. */
  readonly startedAt: number;
  readonly latencyMs: number;
}

/** Told of each embeddings call the model answered (a call that failed spent nothing anyone knows of). */
export type EmbeddingCallSink = (call: EmbeddingCall) => void;

/**
 * A query is not embedded: an earlier query's embedding failed moments ago, and waiting on the model
 * again would slow every request down by the timeout. Retrieval ranks by BM25 alone meanwhile.
 */
export class QueryEmbeddingPausedError extends Error {
  constructor(model: string, until: number) {
    super(`queries are not embedded with ${model} until ${new Date(until).toISOString()} (it failed)`);
    this.name = 'QueryEmbeddingPausedError';
  }
}

/**
 * The query's own `rag.query_embedding_timeout_ms` ran out (the client stayed). It stands in for the
 * cancelled call's error, which reads as if the client had left.
 */
export class QueryEmbeddingTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no query vector within rag.query_embedding_timeout_ms (${timeoutMs} ms)`);
    this.name = 'QueryEmbeddingTimeoutError';
  }
}

/**
 * The upstream refused the inputs themselves (too long, malformed): 400, 413 or 422. Other texts, or the
 * same model a moment later, fare no worse for it, unlike a timeout, a connection error, 429, 5xx, or
 * 401/403/404 (a deployment misconfigured).
 */
export function refusesInput(error: unknown): boolean {
  return error instanceof UpstreamError && [400, 413, 422].includes(error.status);
}

/** An indexing call's wait on a deployment: its own `timeout_ms` where it sets one, else a minute. */
function indexTimeoutMs(deployment: Deployment): number {
  return deployment.timeoutMs === DEFAULT_TIMEOUT_MS ? INDEX_TIMEOUT_MS : deployment.timeoutMs;
}

/**
 * Embeds chunk and query texts with the configured embedding model, through the gateway's own
 * provider layer (demo/embed offline, or any deployment of an OpenAI-compatible upstream), trying
 * the model's deployments in order.
 */
export class RagEmbedder {
  /** Until when queries are not embedded, after one failed (0: they are). */
  private queryPausedUntil = 0;
  /** Whether the model refused every text of a whole indexing call since it last answered one. */
  private readonly refusals: RefusalRecord = { refusesEverything: false };

  constructor(
    private readonly registry: ModelRegistry,
    private readonly pools: UpstreamPools,
    /** The `rag.embedding_model`; undefined: no vectors, BM25 only. */
    readonly model: string | undefined,
    private readonly query: QueryEmbeddingLimits,
    private readonly log: (message: string, error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A retrieval query's vectors. It waits at most `rag.query_embedding_timeout_ms` and stops when
   * `client` fires (the client left); after a failure, queries are not embedded for the cooldown
   * (QueryEmbeddingPausedError at once), so a model that hangs costs one timeout per cooldown, not one
   * per request; a query the model refuses (refusesInput) pauses nothing, since it says nothing of the
   * model. Throws when every deployment failed, QueryEmbeddingTimeoutError when the timeout ran out.
   * `onCall` hears of each call answered, for usage.
   */
  async embed(
    texts: readonly string[],
    requestId = 'rag-query',
    client?: AbortSignal,
    onCall?: EmbeddingCallSink,
  ): Promise<Float32Array[]> {
    const model = this.configuredModel();
    if (this.now() < this.queryPausedUntil) throw new QueryEmbeddingPausedError(model, this.queryPausedUntil);
    // One deadline for the whole query, whichever deployments it takes.
    const timeout = AbortSignal.timeout(this.query.timeoutMs);
    const stop = client === undefined ? timeout : AbortSignal.any([timeout, client]);
    try {
      return await this.embedInBatches(model, texts, requestId, () => stop, stop, onCall);
    } catch (error) {
      // The client leaving says nothing of the model, nor does a query it refuses.
      if (client?.aborted === true) throw error;
      if (!refusesInput(error)) this.pauseQueries(model);
      if (timeout.aborted) throw new QueryEmbeddingTimeoutError(this.query.timeoutMs);
      throw error;
    }
  }

  /**
   * Vectors of chunk texts being indexed, in calls of up to 64 inputs, each waiting on a deployment
   * as long as its `timeout_ms` (a minute without one); `signal` stops them (the gateway is closing).
   * A call the upstream refuses for its inputs (refusesInput) is split in halves, down to single texts,
   * so that only the texts refused on their own go without a vector: null in their place (logged); a
   * model that refuses every text is found out after a few halvings (embedSplittingRefusals).
   * Throws when every deployment failed otherwise. `onCall` hears of each call answered, for usage.
   */
  async embedForIndex(
    texts: readonly string[],
    signal?: AbortSignal,
    onCall?: EmbeddingCallSink,
  ): Promise<Array<Float32Array | null>> {
    const model = this.configuredModel();
    const perDeployment = (deployment: Deployment): AbortSignal => {
      const timeout = AbortSignal.timeout(indexTimeoutMs(deployment));
      return signal === undefined ? timeout : AbortSignal.any([timeout, signal]);
    };
    const out: Array<Float32Array | null> = [];
    const embed = (batch: readonly string[]) =>
      this.embedBatch(model, batch, 'rag-index', perDeployment, signal, onCall);
    // The client leaving (the gateway closing) is no refusal of the texts.
    const refuses = (error: unknown) => refusesInput(error) && signal?.aborted !== true;
    for (let at = 0; at < texts.length; at += EMBED_BATCH) {
      const batch = texts.slice(at, at + EMBED_BATCH);
      out.push(...(await embedSplittingRefusals(model, batch, embed, refuses, this.refusals, this.log)));
    }
    return out;
  }

  private configuredModel(): string {
    if (this.model === undefined) throw new Error('no rag.embedding_model is configured');
    return this.model;
  }

  private pauseQueries(model: string): void {
    const pausedNow = this.now() >= this.queryPausedUntil;
    this.queryPausedUntil = this.now() + this.query.cooldownMs;
    if (pausedNow)
      this.log(
        `RAG: queries are ranked by BM25 only for the next ${this.query.cooldownMs / 1000} s: embedding a query with ${model} failed`,
        undefined,
      );
  }

  private async embedInBatches(
    model: string,
    texts: readonly string[],
    requestId: string,
    signalFor: (deployment: Deployment) => AbortSignal,
    stop: AbortSignal | undefined,
    onCall: EmbeddingCallSink | undefined,
  ): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let at = 0; at < texts.length; at += EMBED_BATCH) {
      const batch = texts.slice(at, at + EMBED_BATCH);
      out.push(...(await this.embedBatch(model, batch, requestId, signalFor, stop, onCall)));
    }
    return out;
  }

  private async embedBatch(
    model: string,
    input: readonly string[],
    requestId: string,
    signalFor: (deployment: Deployment) => AbortSignal,
    stop: AbortSignal | undefined,
    onCall: EmbeddingCallSink | undefined,
  ): Promise<Float32Array[]> {
    const deployments = this.registry.deploymentsFor(model);
    if (deployments.length === 0) throw new Error(`rag.embedding_model ${model} has no deployment`);
    let failure: unknown;
    for (const deployment of deployments) {
      const signal = signalFor(deployment);
      const startedAt = Date.now();
      const started = performance.now();
      try {
        const answer = await executeEmbeddings({
          body: { model, input: [...input] },
          deployment,
          pools: this.pools,
          signal,
          requestId,
        });
        const latencyMs = Math.round((performance.now() - started) * 1000) / 1000;
        onCall?.({ model, deployment, promptTokens: answer.usage.promptTokens, startedAt, latencyMs });
        return answer.body.data.map((item) => Float32Array.from(item.embedding as number[]));
      } catch (error) {
        failure = error;
        // Out of time or stopped: the next deployment would start with no time left.
        if (stop?.aborted === true) break;
      }
    }
    throw failure;
  }
}

/** A vector as stored (little-endian float32 bytes). */
export function vectorToBuffer(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** A stored vector back as floats (copied: SQLite's buffer may not be 4-byte aligned). */
export function bufferToVector(buffer: Buffer): Float32Array {
  const copy = new Uint8Array(buffer.byteLength);
  copy.set(buffer);
  return new Float32Array(copy.buffer);
}

/** Cosine similarity (vectors of different lengths compare as unrelated). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let index = 0; index < a.length; index += 1) {
    dot += a[index]! * b[index]!;
    na += a[index]! * a[index]!;
    nb += b[index]! * b[index]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
