import type Database from 'better-sqlite3';
import type { Registry } from 'prom-client';
import type { Config } from '../../config/schema.js';
import type { RevisionEvents } from '../../store/engine/revision-events.js';
import { StoreEngine } from '../../store/engine/store-engine.js';
import type { ModelRegistry } from '../model-registry/model-registry.js';
import type { UpstreamPools } from '../providers/upstream-pools.js';
import { QueryEmbeddingPausedError, RagEmbedder } from './embedder.js';
import { RagIndex } from './rag-index.js';
import { RagMetrics } from './rag-metrics.js';
import { RagRepository } from './rag.repository.js';
import { RagRetriever } from './retriever.js';
import { RagUsageBook, type RagUsageSinks } from './rag-usage.js';
import { redactRetrievedTexts, type RedactedTexts } from './retrieved-text-redaction.js';
import { StoreFollower } from './store-follower.js';
import { storeSourceWarning } from './store-source-check.js';
import { VectorBackfill } from './vector-backfill.js';

/** After a query's embedding failed, queries are ranked by BM25 alone for this long. */
const QUERY_EMBEDDING_COOLDOWN_MS = 30_000;

/** What the RAG feature is built from. */
export interface RagServiceOptions {
  readonly config: Config;
  readonly sqlite: Database.Database;
  readonly registry: ModelRegistry;
  readonly pools: UpstreamPools;
  readonly metricsRegistry: Registry;
  readonly revisions?: RevisionEvents;
  readonly log: (message: string, error: unknown) => void;
  /**
   * The gateway's usage recorder and prices: indexing and admin searches book their embeddings calls
   * there as the gateway's own usage (requests book theirs through their own services). None: unbooked.
   */
  readonly usage?: RagUsageSinks;
}

/** The RAG feature: collections and their index, retrieval with access rules, and the store follower. */
export class RagService {
  readonly settings: Config['rag'];
  readonly index: RagIndex;
  readonly retriever: RagRetriever;
  readonly follower: StoreFollower;
  /** Books the gateway's own embeddings calls (indexing, admin searches). */
  readonly usage: RagUsageBook;
  private readonly repository: RagRepository;
  private readonly backfill: VectorBackfill;
  private readonly log: (message: string, error: unknown) => void;

  constructor(options: RagServiceOptions) {
    this.log = options.log;
    this.settings = options.config.rag;
    this.repository = new RagRepository(options.sqlite);
    this.usage = new RagUsageBook(options.usage);
    const bookIndexing = this.usage.indexed.bind(this.usage);
    const embedder = new RagEmbedder(
      options.registry,
      options.pools,
      this.settings.embedding_model,
      { timeoutMs: this.settings.query_embedding_timeout_ms, cooldownMs: QUERY_EMBEDDING_COOLDOWN_MS },
      options.log,
    );
    const chunking = {
      size: this.settings.chunk_size,
      overlap: this.settings.chunk_overlap,
      maxChunksPerDocument: this.settings.max_chunks_per_document,
    };
    const embeddable = (texts: readonly string[]): readonly string[] => this.redact(texts).texts;
    this.backfill = new VectorBackfill(this.repository, embedder, embeddable, options.log, bookIndexing);
    // The gateway reads the store's tables directly (same process, same database); it never writes them.
    const store = new StoreEngine(options.sqlite);
    this.index = new RagIndex({
      repository: this.repository,
      embedder,
      backfill: this.backfill,
      chunking,
      log: options.log,
      embeddable,
      sourceWarning: (namespace, branch) => storeSourceWarning(store, namespace, branch),
      bookIndexing,
    });
    this.retriever = new RagRetriever(
      this.repository,
      embedder,
      this.backfill,
      new RagMetrics(options.metricsRegistry),
      // A query not embedded during the cooldown was said once, as the cooldown started.
      (message, error) => {
        if (!(error instanceof QueryEmbeddingPausedError)) options.log(message, error);
      },
      this.settings.min_similarity,
    );
    // Before any write starts: a document's chunks are set aside while it is written (RagIndex.store).
    this.repository.discardLeftovers();
    this.follower = new StoreFollower(this.index, store, options.log);
    this.follower.start(options.revisions);
    // Chunks a failure or a model change left without a vector of the model now set.
    void this.backfill.run();
  }

  /**
   * Retrieved texts as they may leave the gateway: PII redacted irreversibly unless `rag.redact_pii` is
   * false; `reserved` are placeholders the request already holds.
   */
  redact(texts: readonly string[], reserved: ReadonlySet<string> = new Set()): RedactedTexts {
    if (!this.settings.redact_pii) return { texts: [...texts], counts: new Map() };
    return redactRetrievedTexts(texts, reserved);
  }

  /** Starts a sync of a store-backed collection in the background: an admin call answers without waiting for it. */
  syncInBackground(name: string): void {
    if (this.index.row(name).sourceNamespace !== null)
      this.follower.sync(name).catch((error: unknown) => this.log(`RAG: sync of ${name} failed`, error));
  }

  /** Readiness: the full-text index answers a query. */
  ready(): boolean {
    return this.repository.indexReady();
  }

  /**
   * Stops following the store: embedding calls under way are cancelled, syncs end where they are, and
   * so do deletions of chunks (the next start finishes them).
   */
  async close(): Promise<void> {
    this.backfill.close();
    await this.follower.close();
    await this.index.close();
  }
}
