import { EMBED_BATCH, vectorToBuffer, type EmbeddingCall, type RagEmbedder } from './embedder.js';
import type { RagRepository } from './rag.repository.js';

/** The wait before a backfill is tried again after a failure, and the longest it grows to. */
const FIRST_RETRY_MS = 5000;
const LAST_RETRY_MS = 5 * 60_000;

/**
 * Gives chunks without a vector of the configured model theirs, in the background: those indexed while
 * embedding failed, before a model was set, or with another model. Without it such a chunk is found by
 * BM25 alone, and hybrid ranking puts it below chunks both rankings found, however much better its
 * words match. It runs at start and, after a failure left chunks without a vector, as soon as the
 * model answers again (to an ingest, a sync or a request's query) or else after 5 s, then twice as long
 * each time up to 5 minutes: a collection indexed whole while the model was down has no vector for a
 * query to be compared with, so no query is embedded to tell. One run at a time.
 */
export class VectorBackfill {
  /** Chunks are known to lack a vector: embedding failed since the last complete run. */
  private missed = false;
  private running = false;
  private closed = false;
  /** Cancels the embedding call under way at close, so that closing does not wait on a model that hangs. */
  private readonly stopping = new AbortController();
  private retry: NodeJS.Timeout | undefined;
  private nextRetryMs = FIRST_RETRY_MS;
  /**
   * Chunks the model refused to embed on their own (too long for it, say), with the model that refused:
   * asked again they would be refused again, and a run would stop on them. Kept for as long as the
   * process runs (a restart asks once more), since the database has no place to record a refusal.
   */
  private refused = { model: '', ids: new Set<number>() };

  constructor(
    private readonly repository: RagRepository,
    private readonly embedder: RagEmbedder,
    /** Chunk texts as the embedding model's provider may see them (redacted). */
    private readonly embeddable: (texts: readonly string[]) => readonly string[],
    private readonly log: (message: string, error: unknown) => void,
    /** Books an embeddings call as the gateway's own indexing usage. */
    private readonly bookIndexing: (call: EmbeddingCall, collections: readonly string[]) => void = () => {},
  ) {}

  /** Embedding failed: chunks stored meanwhile have no vector. */
  failed(): void {
    this.missed = true;
    this.retryLater();
  }

  /** The model answered: chunks an earlier failure left without a vector get theirs now. */
  answered(): void {
    if (this.missed) void this.run();
  }

  /**
   * Embeds, in batches, every chunk without a vector of the current model but those it refused; answers
   * how many it embedded. Stops at the first failure (the next answer of the model, or the retry, starts
   * it again) and at close; does nothing while a run is under way.
   */
  async run(): Promise<number> {
    const model = this.embedder.model;
    if (model === undefined || this.running) return 0;
    this.running = true;
    this.missed = false;
    let embedded = 0;
    try {
      if (this.refused.model !== model) this.refused = { model, ids: new Set() };
      const refused = this.refused.ids;
      for (let after = 0; !this.closed;) {
        const found = this.repository.chunksToEmbed(model, after, EMBED_BATCH);
        if (found.length === 0) break;
        after = found.at(-1)!.id;
        const batch = found.filter((chunk) => !refused.has(chunk.id));
        if (batch.length === 0) continue;
        const texts = this.embeddable(batch.map((chunk) => chunk.text));
        const collections = [...new Set(batch.map((chunk) => chunk.collection))];
        const vectors = await this.embedder.embedForIndex(texts, this.stopping.signal, (call) =>
          this.bookIndexing(call, collections),
        );
        if (this.closed || this.embedder.model !== model) break;
        batch.forEach((chunk, index) => {
          const vector = vectors[index];
          if (vector) {
            this.repository.setEmbedding(chunk.id, vectorToBuffer(vector), model);
            embedded += 1;
          } else refused.add(chunk.id);
        });
      }
      // Done, unless a failure meanwhile left more chunks without a vector (its retry stays due).
      if (!this.missed) {
        clearTimeout(this.retry);
        this.retry = undefined;
        this.nextRetryMs = FIRST_RETRY_MS;
      }
    } catch (error) {
      if (this.closed) return embedded;
      this.missed = true;
      this.retryLater();
      this.log(
        `RAG: could not embed chunks without a vector with ${model}; they are found by BM25 only for now`,
        error,
      );
    } finally {
      this.running = false;
    }
    return embedded;
  }

  /** Stops embedding (the database is closing). */
  close(): void {
    this.closed = true;
    this.stopping.abort();
    clearTimeout(this.retry);
  }

  private retryLater(): void {
    if (this.closed || this.retry !== undefined) return;
    const delayMs = this.nextRetryMs;
    this.nextRetryMs = Math.min(delayMs * 2, LAST_RETRY_MS);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.run();
    }, delayMs);
    this.retry.unref();
  }
}
