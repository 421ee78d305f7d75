import { createHash, randomUUID } from 'node:crypto';
import type {
  RagChunk,
  RagCollection,
  RagCollectionCreate,
  RagCollectionUpdate,
  RagDocument,
  RagDocumentInput,
  RagDocumentPutAnswer,
} from '../../../shared/rag-api.js';
import { GatewayError } from '../gateway-error.js';
import { chunkDocumentInSlices, type chunkDocument, type ChunkOptions } from './chunker.js';
import { vectorToBuffer, type EmbeddingCall, type RagEmbedder } from './embedder.js';
import { eventLoopTurns } from './event-loop-turns.js';
import {
  setAsideMark,
  type ChunkPage,
  type ChunkPosition,
  type ChunkRow,
  type CollectionRow,
  type CollectionStats,
  type DocumentRow,
  type NewChunk,
  type RagRepository,
} from './rag.repository.js';
import type { VectorBackfill } from './vector-backfill.js';

/** The content type of a store document: Markdown by its key's extension, text otherwise. */
export function contentTypeOfKey(key: string): 'text' | 'markdown' {
  return /\.(md|markdown|mdx)$/i.test(key) ? 'markdown' : 'text';
}

/** A chunk as the API shows it. */
export function chunkView(row: ChunkRow): RagChunk {
  return {
    id: row.id,
    citation: `${row.collection}:${row.id}`,
    collection: row.collection,
    document_id: row.documentId,
    document_key: row.documentKey,
    ordinal: row.ordinal,
    heading: row.heading,
    revision: row.revision,
    text: row.text,
    embedded: row.embedding !== null,
  };
}

function collectionView(row: CollectionStats, sourceWarning: RagIndexOptions['sourceWarning']): RagCollection {
  return {
    name: row.name,
    description: row.description,
    access: row.access,
    source:
      row.sourceNamespace === null ? null : { namespace: row.sourceNamespace, branch: row.sourceBranch ?? 'main' },
    source_revision: row.sourceRevision,
    skipped_documents: [...row.skippedDocuments],
    documents: row.documents,
    chunks: row.chunks,
    embedded_chunks: row.embeddedChunks,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
    source_warning:
      row.sourceNamespace === null ? null : sourceWarning(row.sourceNamespace, row.sourceBranch ?? 'main'),
  };
}

/** A document as the admin API shows it. */
export function documentView(row: DocumentRow): RagDocument {
  return {
    id: row.id,
    collection: row.collection,
    key: row.key,
    content_type: row.contentType,
    chars: row.chars,
    chunks: row.chunks,
    revision: row.revision,
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

/**
 * Chunks written (or deleted) in one turn of the event loop: each is indexed for full-text search by
 * trigger, a fraction of a millisecond, so a slice stays within a few tens of milliseconds.
 */
const CHUNKS_PER_WRITE = 100;

/** The chunking settings' defaults (`rag.chunk_size`, `rag.chunk_overlap`). */
const DEFAULT_CHUNKING: ChunkOptions = { size: 800, overlap: 150 };

/**
 * The hash that tells an unchanged document from a changed one (re-indexing skips the former): its
 * content, content type and the chunking settings, so that other settings re-chunk it. The default
 * settings add nothing, keeping the hash documents were stored with before the settings counted: a
 * gateway that keeps them does not re-chunk and re-embed every document once.
 */
export function contentHash(content: string, contentType: string, chunking: ChunkOptions): string {
  const hash = createHash('sha256').update(contentType).update('\0').update(content);
  if (chunking.size !== DEFAULT_CHUNKING.size || chunking.overlap !== DEFAULT_CHUNKING.overlap)
    hash.update(`\0chunks ${chunking.size}/${chunking.overlap}`);
  return hash.digest('hex');
}

/** A document's chunk vectors in chunk order; null for a chunk the embedding model refused on its own. */
export type ChunkVectors = ReadonlyArray<Float32Array | null>;

/** A document chunked, its chunks waiting for their vectors before it is stored (see RagIndex.prepare). */
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

/**
 * The collection a document was being indexed for was deleted, or changed its source, while the
 * document's chunks were being embedded: nothing was stored.
 */
export class CollectionChangedError extends GatewayError {
  constructor(collection: string, key: string) {
    super(
      'conflict',
      `RAG collection ${collection} was deleted or changed its source while ${key} was being indexed; the document was not stored`,
    );
    this.name = 'CollectionChangedError';
  }
}

/** A document that would make more chunks than `rag.max_chunks_per_document`; nothing of it is stored. */
export class TooManyChunksError extends GatewayError {
  constructor(key: string, max: number) {
    super(
      'too_large',
      `document ${key} makes more than ${max} chunks (rag.max_chunks_per_document): split it into smaller documents, or raise the limit`,
    );
    this.name = 'TooManyChunksError';
  }
}

/** What an index is made of. */
export interface RagIndexOptions {
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
  /** What keeps a followed store namespace and branch from giving documents (see storeSourceWarning), or null. */
  readonly sourceWarning: (namespace: string, branch: string) => string | null;
  /** Books an embeddings call as the gateway's own indexing usage, for the collections it embedded chunks of. */
  readonly bookIndexing?: (call: EmbeddingCall, collections: readonly string[]) => void;
  readonly now?: () => number;
}

/**
 * Collections and their documents: create, change and delete them, and index a document (chunk it,
 * embed its chunks when an embedding model is set, store both; FTS5 indexes chunks by trigger).
 */
export class RagIndex {
  /**
   * Bumped when a collection is deleted or changes its source. A name can be deleted and made again
   * (with other readers) while a document is being embedded for the old one; comparing generations
   * keeps that document out of the new collection.
   */
  private readonly generations = new Map<string, number>();
  /** Deletions of documents set aside, running in the background (see deleteInBackground). */
  private readonly deletions = new Set<Promise<void>>();
  private closed = false;
  readonly repository: RagRepository;
  private readonly embedder: RagEmbedder;
  private readonly backfill: VectorBackfill;
  private readonly chunking: RagIndexOptions['chunking'];
  private readonly log: RagIndexOptions['log'];
  private readonly embeddable: RagIndexOptions['embeddable'];
  private readonly sourceWarning: RagIndexOptions['sourceWarning'];
  private readonly bookIndexing: NonNullable<RagIndexOptions['bookIndexing']>;
  private readonly now: () => number;

  constructor(options: RagIndexOptions) {
    this.repository = options.repository;
    this.embedder = options.embedder;
    this.backfill = options.backfill;
    this.chunking = options.chunking;
    this.log = options.log;
    this.embeddable = options.embeddable;
    this.sourceWarning = options.sourceWarning;
    this.bookIndexing = options.bookIndexing ?? (() => {});
    this.now = options.now ?? Date.now;
  }

  /** Every collection with its counts. */
  list(): RagCollection[] {
    return this.repository.listCollections().map((row) => collectionView(row, this.sourceWarning));
  }

  /** Every collection's name. */
  names(): string[] {
    return this.repository.listCollections().map((row) => row.name);
  }

  /** One collection; not_found when missing. */
  get(name: string): RagCollection {
    const found = this.repository.listCollections().find((row) => row.name === name);
    if (found === undefined) throw new GatewayError('not_found', `RAG collection ${name} does not exist`);
    return collectionView(found, this.sourceWarning);
  }

  /** The collection row; not_found when missing. */
  row(name: string): CollectionRow {
    const row = this.repository.collection(name);
    if (row === undefined) throw new GatewayError('not_found', `RAG collection ${name} does not exist`);
    return row;
  }

  create(input: RagCollectionCreate): RagCollection {
    if (this.repository.collection(input.name) !== undefined)
      throw new GatewayError('conflict', `RAG collection ${input.name} already exists`);
    const now = this.now();
    this.repository.insertCollection({
      name: input.name,
      description: input.description ?? '',
      access: { keys: [], users: [], teams: [], ...input.access },
      sourceNamespace: input.source?.namespace ?? null,
      sourceBranch: input.source ? input.source.branch : null,
      createdAt: now,
      updatedAt: now,
    });
    return this.get(input.name);
  }

  /** Changes a collection; a changed source forgets the indexed revision so the next sync re-reads it. */
  update(name: string, patch: RagCollectionUpdate): RagCollection {
    const row = this.row(name);
    let { sourceNamespace, sourceBranch, sourceRevision, skippedDocuments } = row;
    if (patch.source !== undefined) {
      sourceNamespace = patch.source?.namespace ?? null;
      sourceBranch = patch.source ? patch.source.branch : null;
      if (sourceNamespace !== row.sourceNamespace || sourceBranch !== row.sourceBranch) {
        sourceRevision = 0;
        skippedDocuments = [];
        this.nextGeneration(name);
      }
    }
    this.repository.updateCollection({
      ...row,
      description: patch.description ?? row.description,
      // A list the change leaves out keeps what it holds.
      access: patch.access === undefined ? row.access : { ...row.access, ...patch.access },
      sourceNamespace,
      sourceBranch,
      sourceRevision,
      skippedDocuments,
      updatedAt: this.now(),
    });
    return this.get(name);
  }

  /** Deletes a collection: gone for readers, and its name free, at once; its chunks are deleted in the background. */
  delete(name: string): void {
    const mark = setAsideMark('deleted');
    if (!this.repository.deleteCollection(name, mark, this.now()))
      throw new GatewayError('not_found', `RAG collection ${name} does not exist`);
    this.nextGeneration(name);
    this.deleteInBackground(mark);
  }

  /**
   * Deletes documents by id: gone for readers at once, their chunks deleted in the background. How
   * many of them the collection held.
   */
  deleteDocuments(collection: string, ids: readonly string[]): number {
    if (ids.length === 0) return 0;
    const mark = setAsideMark('deleted');
    const deleted = this.repository.setAsideDocuments(collection, ids, mark, this.now());
    if (deleted > 0) this.deleteInBackground(mark);
    return deleted;
  }

  /**
   * Deletes documents set aside under `mark`, CHUNKS_PER_WRITE chunks a turn of the event loop (each is
   * taken out of the full-text index too): the caller answers first. Stops when the index closes; the
   * next start deletes what is left (see RagRepository.discardLeftovers).
   */
  private deleteInBackground(mark: string): void {
    const run = async (): Promise<void> => {
      do await eventLoopTurns.next();
      while (!this.closed && this.repository.deleteSetAsideSlice(mark, CHUNKS_PER_WRITE));
    };
    const deletion = run()
      .catch((error: unknown) => this.log('RAG: could not delete the chunks of deleted documents', error))
      .finally(() => this.deletions.delete(deletion));
    this.deletions.add(deletion);
  }

  /** Stops the deletions under way after their current slice. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.deletions.size > 0) await Promise.allSettled([...this.deletions]);
  }

  private nextGeneration(name: string): void {
    this.generations.set(name, (this.generations.get(name) ?? 0) + 1);
  }

  documents(name: string): RagDocument[] {
    this.row(name);
    return this.repository.documents(name).map(documentView);
  }

  /** One page of a collection's chunks, with the position after which the next page starts (none on the last). */
  chunks(name: string, page: ChunkPage): { chunks: RagChunk[]; next: ChunkPosition | null } {
    this.row(name);
    // One row more than the page tells whether another page follows.
    const rows = this.repository.chunks(name, { ...page, limit: page.limit + 1 });
    const chunks = rows.slice(0, page.limit).map(chunkView);
    const last = chunks[chunks.length - 1];
    const next = rows.length > page.limit && last ? { documentKey: last.document_key, ordinal: last.ordinal } : null;
    return { chunks, next };
  }

  /**
   * Ingests text or Markdown through the admin API (not into a store-backed collection: the store owns
   * those). Content the collection already holds under the key keeps its document and chunks (their
   * ids, which citations name, and vectors, which cost an embedding call); new content for a known key
   * keeps the document's id, so a client that kept it can still delete the document by it.
   */
  async ingest(name: string, input: RagDocumentInput): Promise<RagDocumentPutAnswer> {
    const row = this.row(name);
    if (row.sourceNamespace !== null)
      throw new GatewayError(
        'conflict',
        `RAG collection ${name} follows store namespace ${row.sourceNamespace}: write documents to the store instead`,
      );
    const contentType = input.content_type ?? contentTypeOfKey(input.key);
    const known = this.repository.document(name, input.key);
    if (known !== undefined && known.contentHash === this.hash(input.content, contentType))
      return { ...documentView(known), change: 'unchanged' };
    await this.indexDocument(name, input.key, input.content, contentType, null);
    const document = this.repository.document(name, input.key)!;
    return { ...documentView(document), change: known === undefined ? 'added' : 'updated' };
  }

  /** Deletes an ingested document. */
  deleteDocument(name: string, id: string): void {
    this.row(name);
    if (this.deleteDocuments(name, [id]) === 0)
      throw new GatewayError('not_found', `document ${id} is not in RAG collection ${name}`);
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
    const generation = this.generations.get(collection);
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
      if (this.generations.get(collection) !== document.generation) throw new CollectionChangedError(collection, key);
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
      await this.deleteSetAside(staged);
      if (target.created) this.repository.deleteEmptyDocument(target.id);
      throw error;
    }
    await this.deleteSetAside(replaced);
  }

  /** Deletes chunks set aside, CHUNKS_PER_WRITE at a time (each is taken out of the full-text index too). */
  private async deleteSetAside(mark: string): Promise<void> {
    while (this.repository.deleteSetAside(mark, CHUNKS_PER_WRITE) === CHUNKS_PER_WRITE) await eventLoopTurns.next();
  }
}
