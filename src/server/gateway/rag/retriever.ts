import type { RagHit } from '../../../shared/rag-api.js';
import { mayRead, type RagCaller } from './access.js';
import type { EmbeddingCall, EmbeddingCallSink, RagEmbedder } from './embedder.js';
import type { RagMetrics } from './rag-metrics.js';
import type { CollectionRow } from './rag-collections.repository.js';
import { chunkView } from './rag-views.js';
import type { RagRepository } from './rag.repository.js';
import { ftsQuery, fuseRankings } from './ranking.js';
import type { VectorBackfill } from './vector-backfill.js';
import { VectorIndex } from './vector-index.js';

/** What one retrieval searched and found. */
export interface Retrieval {
  /** The collections searched: those asked for that the caller may read. */
  readonly collections: readonly string[];
  /** Collections asked for that do not exist or that the caller may not read (not told apart). */
  readonly denied: readonly string[];
  readonly hits: readonly RagHit[];
  /** The query was embedded and its vector ranked the chunks; false: BM25 alone (no model, no vectors, a failure). */
  readonly queryEmbedded: boolean;
  /** The embeddings calls the query's vector took (none or one, as a rule): usage books them. */
  readonly embeddingCalls: readonly EmbeddingCall[];
}

/** No embeddings calls (shared: most retrievals make none, or return before any). */
const NO_CALLS: readonly EmbeddingCall[] = [];

/** Candidates each ranking contributes to the fusion, per chunk wanted. */
const DEPTH_PER_HIT = 4;
const MIN_DEPTH = 20;

/**
 * Retrieves the chunks a caller may see: the access check runs first and only the readable
 * collections are ever queried, so an unreadable chunk is never loaded, let alone returned. Ranking is
 * BM25 (FTS5) fused with vector similarity (reciprocal rank fusion) when an embedding model is set.
 */
export class RagRetriever {
  private readonly vectorIndex: VectorIndex;

  constructor(
    private readonly repository: RagRepository,
    private readonly embedder: RagEmbedder,
    private readonly backfill: VectorBackfill,
    private readonly metrics: RagMetrics,
    private readonly log: (message: string, error: unknown) => void,
    /** `rag.min_similarity`: chunks less similar to the query are left out of the vector ranking. */
    private readonly minSimilarity?: number,
  ) {
    this.vectorIndex = new VectorIndex(repository);
  }

  /** Splits the named collections into readable and denied for the caller (null: the admin, who reads all). */
  readable(caller: RagCaller | null, names: readonly string[]): { allowed: CollectionRow[]; denied: string[] } {
    const allowed: CollectionRow[] = [];
    const denied: string[] = [];
    for (const name of new Set(names)) {
      const row = this.repository.collection(name);
      if (row !== undefined && (caller === null || mayRead(caller, row))) allowed.push(row);
      else denied.push(name);
    }
    return { allowed, denied };
  }

  /**
   * The names of `checked` (collections found readable before the query was embedded) that are still
   * the same collections and still readable by the caller. While the query waits on its vector, a
   * collection may be deleted and made again under its name, with other readers (it is another
   * collection), or lose the caller as a reader: its chunks, read by name after the wait, must not
   * reach the caller.
   */
  private stillReadable(caller: RagCaller | null, checked: readonly CollectionRow[]): ReadonlySet<string> {
    const names = new Set<string>();
    for (const was of checked) {
      const now = this.repository.collection(was.name);
      if (now !== undefined && now.createdAt === was.createdAt && (caller === null || mayRead(caller, now)))
        names.add(now.name);
    }
    return names;
  }

  /**
   * The top `topK` chunks for `query` in the collections of `names` the caller may read. `purpose`
   * `search` (the admin console's) leaves the metrics alone: they count what requests were given.
   */
  async retrieve(
    caller: RagCaller | null,
    names: readonly string[],
    query: string,
    topK: number,
    requestId?: string,
    purpose: 'request' | 'search' = 'request',
    /** Fires when the client leaves: its query's embedding stops. */
    signal?: AbortSignal,
  ): Promise<Retrieval> {
    const started = performance.now();
    const { allowed, denied } = this.readable(caller, names);
    const collections = allowed.map((row) => row.name);
    if (collections.length === 0)
      return { collections, denied, hits: [], queryEmbedded: false, embeddingCalls: NO_CALLS };
    const depth = Math.max(MIN_DEPTH, topK * DEPTH_PER_HIT);
    const match = ftsQuery(query);
    const bm25 = match === '' ? [] : this.repository.searchText(collections, match, depth);
    const calls: EmbeddingCall[] = [];
    const vector = await this.vectorRanking(collections, query, depth, requestId, signal, (call) => calls.push(call));
    const fused = fuseRankings(bm25, vector ?? []).slice(0, topK);
    const still = this.stillReadable(caller, allowed);
    const rows = new Map(this.repository.chunksById(fused.map((entry) => entry.id)).map((row) => [row.id, row]));
    const hits: RagHit[] = [];
    for (const entry of fused) {
      const row = rows.get(entry.id);
      // Deleted between ranking and reading (a sync ran), or of a collection no longer the one checked: skip it.
      if (row === undefined || !still.has(row.collection)) continue;
      hits.push({ ...chunkView(row), score: entry.score, bm25_rank: entry.bm25Rank, vector_rank: entry.vectorRank });
    }
    if (purpose === 'request')
      this.metrics.observe(
        collections,
        hits.map((hit) => hit.collection),
        (performance.now() - started) / 1000,
      );
    return { collections, denied, hits, queryEmbedded: vector !== undefined, embeddingCalls: calls };
  }

  /**
   * Chunk ids by cosine similarity to the query's vector, those below the floor left out; undefined
   * when the query was not embedded (no model, no vectors to compare with, or embedding failed). A
   * query embedded is the model answering again: chunks a failure left without a vector are embedded
   * then, in the background. No vector is read until the query's is in hand, so a slow or failing
   * model holds no memory for the requests waiting on it.
   */
  private async vectorRanking(
    collections: readonly string[],
    query: string,
    depth: number,
    requestId: string | undefined,
    signal: AbortSignal | undefined,
    onCall: EmbeddingCallSink,
  ): Promise<number[] | undefined> {
    const model = this.embedder.model;
    if (model === undefined) return undefined;
    // Nothing to compare a query with: the model is not asked.
    if (!this.repository.hasVectors(collections, model)) return undefined;
    let queryVector: Float32Array;
    try {
      [queryVector] = (await this.embedder.embed([query], requestId, signal, onCall)) as [Float32Array];
    } catch (error) {
      this.log(`RAG: could not embed the query with ${model}; ranking by BM25 only`, error);
      return undefined;
    }
    this.backfill.answered();
    return this.vectorIndex.rank(collections, model, queryVector, depth, this.minSimilarity);
  }
}
