import { randomUUID } from 'node:crypto';
import { chunkDocumentInSlices, type chunkDocument, type ChunkOptions } from './chunker.js';
import type { CollectionGenerations } from './collection-generations.js';
import { contentHash } from './document-content.js';
import { vectorToBuffer, type EmbeddingCall, type RagEmbedder } from './embedder.js';
import { eventLoopTurns } from './event-loop-turns.js';
import type { NewChunk } from './rag-documents.repository.js';
import { CollectionChangedError, TooManyChunksError } from './rag-index-errors.js';
import { setAsideMark } from './rag-statements.js';
import type { RagRepository } from './rag.repository.js';
import { CHUNKS_PER_WRITE, type SetAsideDeletions } from './set-aside-deletions.js';
import type { VectorBackfill } from './vector-backfill.js';

/** A document's chunk vectors in chunk order; null for a chunk the embedding model refused on its own. */
export type ChunkVectors = ReadonlyArray<Float32Array | null>;

/** A document chunked, its chunks waiting for their vectors before it is stored (see DocumentIndexer.prepare). */
export interface PreparedDocument {
  readonly collection: string;
  readonly key: string;
  readonly content: string;
  readonly contentType: 'text' | 'markdown';
  readonly revision: number | null;
  /** The collection's generation when it was chunked: a deleted or re-pointed collection does not store it. */
  readonly generation: number | undefined;
  readonly drafts: ReturnType<typeof chunkDocument>;
}

/** What a document indexer is made of. */
export interface DocumentIndexerOptions {
  readonly repository: RagRepository;
  readonly embedder: RagEmbedder;
  readonly backfill: VectorBackfill;
  readonly chunking: ChunkOptions & { readonly maxChunksPerDocument: number };
  readonly log: (message: string, error: unknown) => void;
  /**
   * Chunk texts as the embedding model's provider may see them: redacted as retrieved text is, since
   * that provider is an upstream like any other (the index itself keeps the text as written).
   */
  readonly embeddable: (texts: readonly string[]) => readonly string[];
  /** Books an embeddings call as the gateway's own indexing usage, for the collections it embedded chunks of. */
  readonly bookIndexing?: (call: EmbeddingCall, collections: readonly string[]) => void;
  readonly now?: () => number;
}

/**
 * Indexes documents: chunks them, embeds their chunks when an embedding model is set, and stores both
 * (FTS5 indexes chunks by trigger), a slice at a time.
 */
export class DocumentIndexer {
  private readonly repository: RagRepository;
  private readonly embedder: RagEmbedder;
  private readonly backfill: VectorBackfill;
  private readonly chunking: DocumentIndexerOptions['chunking'];
  private readonly log: DocumentIndexerOptions['log'];
  private readonly embeddable: DocumentIndexerOptions['embeddable'];
  private readonly bookIndexing: NonNullable<DocumentIndexerOptions['bookIndexing']>;
  private readonly now: () => number;

  constructor(
    options: DocumentIndexerOptions,
    private readonly generations: CollectionGenerations,
    private readonly deletions: SetAsideDeletions,
  ) {
    this.repository = options.repository;
    this.embedder = options.embedder;
    this.backfill = options.backfill;
    this.chunking = options.chunking;
    this.log = options.log;
    this.embeddable = options.embeddable;
    this.bookIndexing = options.bookIndexing ?? (() => {});
    this.now = options.now ?? Date.now;
  }

  /** The `rag.embedding_model`, if any. */
  get embeddingModel(): string | undefined {
    return this.embedder.model;
  }

  /** The hash a document with this content is stored with (see contentHash). */
  hash(content: string, contentType: string): string {
    return contentHash(content, contentType, this.chunking);
  }

  /**
   * Chunks, embeds and stores one document, replacing any earlier version of the same key (whose id it
   * keeps). Throws, storing nothing, TooManyChunksError for a document over the chunk limit, and
   * CollectionChangedError when the collection was deleted or changed its source while the chunks were
   * being embedded.
   */
  async indexDocument(
    collection: string,
    key: string,
    content: string,
    contentType: 'text' | 'markdown',
    revision: number | null,
  ): Promise<void> {
    const document = await this.prepare(collection, key, content, contentType, revision);
    let vectors: ChunkVectors | null = null;
    try {
      [vectors] = await this.embed([document]);
    } catch (error) {
      this.log(`RAG: could not embed chunks with ${this.embedder.model}; they are indexed for BM25 only`, error);
    }
    await this.store(document, vectors ?? null);
  }

  /** Chunks a document to be stored, in slices (see chunkDocumentInSlices); throws TooManyChunksError for one over the chunk limit. */
  async prepare(
    collection: string,
    key: string,
    content: string,
    contentType: 'text' | 'markdown',
    revision: number | null,
  ): Promise<PreparedDocument> {
    const generation = this.generations.current(collection);
    const max = this.chunking.maxChunksPerDocument;
    const drafts = await chunkDocumentInSlices(content, contentType, this.chunking, max);
    if (drafts.length > max) throw new TooManyChunksError(key, max);
    return { collection, key, content, contentType, revision, generation, drafts };
  }

  /**
   * The vectors of the documents' chunks, in as few embeddings calls as their chunks fit (one list per
   * document, null in it for a chunk the model refused on its own; null each without a model). Throws
   * when embedding failed, or `signal` stopped it; the backfill embeds later what a failure left without
   * a vector.
   */
  async embed(documents: readonly PreparedDocument[], signal?: AbortSignal): Promise<Array<ChunkVectors | null>> {
    const texts = documents.flatMap((document) => document.drafts.map((draft) => draft.text));
    if (this.embedder.model === undefined || texts.length === 0) return documents.map(() => null);
    let vectors: Array<Float32Array | null>;
    try {
      const collections = [...new Set(documents.map((document) => document.collection))];
      vectors = await this.embedder.embedForIndex(this.embeddable(texts), signal, (call) =>
        this.bookIndexing(call, collections),
      );
    } catch (error) {
      if (signal?.aborted !== true) this.backfill.failed();
      throw error;
    }
    this.backfill.answered();
    let at = 0;
    return documents.map((document) => vectors.slice(at, (at += document.drafts.length)));
  }

  /**
   * Stores a chunked document with its chunks' vectors (null, or null for a chunk: none, BM25 finds
   * it), replacing any earlier version of the key. Throws CollectionChangedError, storing nothing, when
   * the collection was deleted or changed its source since the document was chunked.
   *
   * The chunks are written CHUNKS_PER_WRITE at a time, a turn of the event loop each (a document of a
   * few thousand chunks takes seconds to index for full-text search, which would stall every request),
   * set aside where no reader finds them, then swapped in for the old ones in one short transaction:
   * retrieval finds the document's old chunks or its new ones, never some of each.
   */
  async store(document: PreparedDocument, vectors: ChunkVectors | null): Promise<void> {
    const { collection, key, content, contentType, revision } = document;
    const stillCurrent = (): void => {
      if (this.generations.current(collection) !== document.generation)
        throw new CollectionChangedError(collection, key);
    };
    stillCurrent();
    const chunks: NewChunk[] = document.drafts.map((draft, ordinal) => {
      const vector = vectors?.[ordinal] ?? null;
      return {
        ordinal,
        heading: draft.heading,
        text: draft.text,
        embedding: vector ? vectorToBuffer(vector) : null,
        embeddingModel: vector ? this.embedder.model! : null,
      };
    });
    const fields = { collection, key, contentType, chars: content.length, revision };
    const target = this.repository.documentToStage({ ...fields, newId: randomUUID(), now: this.now() });
    const staged = setAsideMark('staged');
    const replaced = setAsideMark('replaced');
    try {
      for (let at = 0; at < chunks.length; at += CHUNKS_PER_WRITE) {
        if (at > 0) await eventLoopTurns.next();
        // Checked before each write: a collection deleted meanwhile took the document with it.
        stillCurrent();
        this.repository.stageChunks(target.id, staged, revision, chunks.slice(at, at + CHUNKS_PER_WRITE));
      }
      stillCurrent();
      const contentHash = this.hash(content, contentType);
      if (!this.repository.swapInChunks({ ...fields, id: target.id, contentHash, now: this.now() }, staged, replaced))
        throw new CollectionChangedError(collection, key);
    } catch (error) {
      await this.deletions.chunks(staged);
      if (target.created) this.repository.deleteEmptyDocument(target.id);
      throw error;
    }
    await this.deletions.chunks(replaced);
  }
}
