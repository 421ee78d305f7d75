import { createHash, randomUUID } from 'node:crypto';
import type {
  RagChunk,
  RagCollection,
  RagCollectionCreate,
  RagCollectionUpdate,
  RagDocument,
  RagDocumentInput,
} from '../../../shared/rag-api.js';
import { GatewayError } from '../gateway-error.js';
import { chunkDocument, type ChunkOptions } from './chunker.js';
import { vectorToBuffer, type RagEmbedder } from './embedder.js';
import type {
  ChunkPage,
  ChunkPosition,
  ChunkRow,
  CollectionRow,
  CollectionStats,
  DocumentRow,
  NewChunk,
  RagRepository,
} from './rag.repository.js';

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

function collectionView(row: CollectionStats): RagCollection {
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
  };
}

function documentView(row: DocumentRow): RagDocument {
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

/** The hash that tells an unchanged document from a changed one (re-indexing skips the former). */
export function contentHash(content: string, contentType: string): string {
  return createHash('sha256').update(contentType).update('\0').update(content).digest('hex');
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

/** Chunks embedded in one call when vectors are filled in later. */
const EMBED_BATCH = 64;

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
  /** A chunk was stored without a vector because embedding failed: the next success embeds it. */
  private missedVectors = false;
  private backfilling = false;
  private closed = false;

  constructor(
    readonly repository: RagRepository,
    private readonly embedder: RagEmbedder,
    private readonly chunking: ChunkOptions & { readonly maxChunksPerDocument: number },
    private readonly log: (message: string, error: unknown) => void,
    /**
     * Chunk texts as the embedding model's provider may see them: redacted as retrieved text is, since
     * that provider is an upstream like any other (the index itself keeps the text as written).
     */
    private readonly embeddable: (texts: readonly string[]) => readonly string[],
    private readonly now: () => number = Date.now,
  ) {}

  /** Every collection with its counts. */
  list(): RagCollection[] {
    return this.repository.listCollections().map(collectionView);
  }

  /** One collection; not_found when missing. */
  get(name: string): RagCollection {
    const found = this.repository.listCollections().find((row) => row.name === name);
    if (found === undefined) throw new GatewayError('not_found', `RAG collection ${name} does not exist`);
    return collectionView(found);
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
      access: patch.access ?? row.access,
      sourceNamespace,
      sourceBranch,
      sourceRevision,
      skippedDocuments,
      updatedAt: this.now(),
    });
    return this.get(name);
  }

  delete(name: string): void {
    if (!this.repository.deleteCollection(name))
      throw new GatewayError('not_found', `RAG collection ${name} does not exist`);
    this.nextGeneration(name);
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

  /** Ingests text or Markdown through the admin API (not into a store-backed collection: the store owns those). */
  async ingest(name: string, input: RagDocumentInput): Promise<RagDocument> {
    const row = this.row(name);
    if (row.sourceNamespace !== null)
      throw new GatewayError(
        'conflict',
        `RAG collection ${name} follows store namespace ${row.sourceNamespace}: write documents to the store instead`,
      );
    const contentType = input.content_type ?? contentTypeOfKey(input.key);
    await this.indexDocument(name, input.key, input.content, contentType, null);
    const document = this.repository.documents(name).find((doc) => doc.key === input.key)!;
    return documentView(document);
  }

  /** Deletes an ingested document. */
  deleteDocument(name: string, id: string): void {
    this.row(name);
    if (this.repository.deleteDocuments(name, [id]) === 0)
      throw new GatewayError('not_found', `document ${id} is not in RAG collection ${name}`);
  }

  /**
   * Chunks, embeds and stores one document, replacing any earlier version of the same key. Throws,
   * storing nothing, TooManyChunksError for a document over the chunk limit, and CollectionChangedError
   * when the collection was deleted or changed its source while the chunks were being embedded.
   */
  async indexDocument(
    collection: string,
    key: string,
    content: string,
    contentType: 'text' | 'markdown',
    revision: number | null,
  ): Promise<void> {
    const generation = this.generations.get(collection);
    const max = this.chunking.maxChunksPerDocument;
    const drafts = chunkDocument(content, contentType, this.chunking, max);
    if (drafts.length > max) throw new TooManyChunksError(key, max);
    const vectors = await this.embedChunks(drafts.map((draft) => draft.text));
    if (this.generations.get(collection) !== generation) throw new CollectionChangedError(collection, key);
    const chunks: NewChunk[] = drafts.map((draft, ordinal) => ({
      ordinal,
      heading: draft.heading,
      text: draft.text,
      embedding: vectors ? vectorToBuffer(vectors[ordinal]!) : null,
      embeddingModel: vectors ? this.embedder.model! : null,
    }));
    this.repository.replaceDocument(
      {
        id: randomUUID(),
        collection,
        key,
        contentType,
        contentHash: contentHash(content, contentType),
        chars: content.length,
        revision,
        now: this.now(),
      },
      chunks,
    );
  }

  /** Vectors of the chunks, or null without a model or when embedding failed (BM25 still finds them). */
  private async embedChunks(texts: readonly string[]): Promise<Float32Array[] | null> {
    if (this.embedder.model === undefined || texts.length === 0) return null;
    try {
      const vectors = await this.embedder.embed(this.embeddable(texts));
      // The model answers again: chunks an earlier failure left without a vector get theirs.
      if (this.missedVectors) void this.embedMissing();
      return vectors;
    } catch (error) {
      this.missedVectors = true;
      this.log(`RAG: could not embed chunks with ${this.embedder.model}; they are indexed for BM25 only`, error);
      return null;
    }
  }

  /**
   * Embeds, in batches, the chunks without a vector of the current model: those indexed while embedding
   * failed, before a model was set, or with another model. Run at start and when the model answers
   * again after a failure. Without it such a chunk is found by BM25 alone, and hybrid ranking puts it
   * below chunks that both rankings found, however much better its words match. Stops at the first
   * failure (the next success starts it again) and at close.
   */
  async embedMissing(): Promise<number> {
    const model = this.embedder.model;
    if (model === undefined || this.backfilling) return 0;
    this.backfilling = true;
    this.missedVectors = false;
    let embedded = 0;
    try {
      for (let after = 0; !this.closed;) {
        const batch = this.repository.chunksToEmbed(model, after, EMBED_BATCH);
        if (batch.length === 0) break;
        after = batch.at(-1)!.id;
        const vectors = await this.embedder.embed(this.embeddable(batch.map((chunk) => chunk.text)));
        if (this.closed || this.embedder.model !== model) break;
        batch.forEach((chunk, index) => this.repository.setEmbedding(chunk.id, vectorToBuffer(vectors[index]!), model));
        embedded += batch.length;
      }
    } catch (error) {
      this.missedVectors = true;
      this.log(
        `RAG: could not embed chunks without a vector with ${model}; they are found by BM25 only for now`,
        error,
      );
    } finally {
      this.backfilling = false;
    }
    return embedded;
  }

  /** Stops embedding missing vectors (the database is closing). */
  close(): void {
    this.closed = true;
  }
}
