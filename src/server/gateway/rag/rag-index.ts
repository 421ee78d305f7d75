import type {
  RagChunk,
  RagCollection,
  RagCollectionCreate,
  RagCollectionUpdate,
  RagDocumentInput,
  RagDocumentPutAnswer,
} from '../../../shared/rag-api.js';
import { GatewayError } from '../gateway-error.js';
import { CollectionGenerations } from './collection-generations.js';
import { contentTypeOfKey } from './document-content.js';
import { DocumentIndexer, type DocumentIndexerOptions } from './document-indexer.js';
import type { ChunkPage, ChunkPosition } from './rag-chunks.repository.js';
import type { CollectionRow } from './rag-collections.repository.js';
import { setAsideMark } from './rag-statements.js';
import { chunkView, collectionView, documentView, type SourceWarning } from './rag-views.js';
import type { RagRepository } from './rag.repository.js';
import { SetAsideDeletions } from './set-aside-deletions.js';

/** What an index is made of. */
export interface RagIndexOptions extends DocumentIndexerOptions {
  readonly sourceWarning: SourceWarning;
}

/**
 * Collections and their documents: create, change and delete them, list them, and ingest a document
 * (its indexer chunks, embeds and stores it).
 */
export class RagIndex {
  readonly repository: RagRepository;
  /** Indexes documents for ingest and the store follower. */
  readonly indexer: DocumentIndexer;
  private readonly generations = new CollectionGenerations();
  private readonly deletions: SetAsideDeletions;
  private readonly sourceWarning: SourceWarning;
  private readonly now: () => number;

  constructor(options: RagIndexOptions) {
    this.repository = options.repository;
    this.sourceWarning = options.sourceWarning;
    this.now = options.now ?? Date.now;
    this.deletions = new SetAsideDeletions(options.repository, options.log);
    this.indexer = new DocumentIndexer(options, this.generations, this.deletions);
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
        this.generations.next(name);
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
    this.generations.next(name);
    this.deletions.inBackground(mark);
  }

  /**
   * Deletes documents by id: gone for readers at once, their chunks deleted in the background. How
   * many of them the collection held.
   */
  deleteDocuments(collection: string, ids: readonly string[]): number {
    if (ids.length === 0) return 0;
    const mark = setAsideMark('deleted');
    const deleted = this.repository.setAsideDocuments(collection, ids, mark, this.now());
    if (deleted > 0) this.deletions.inBackground(mark);
    return deleted;
  }

  /** Stops the deletions under way after their current slice. */
  async close(): Promise<void> {
    await this.deletions.close();
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
    if (known !== undefined && known.contentHash === this.indexer.hash(input.content, contentType))
      return { ...documentView(known), change: 'unchanged' };
    await this.indexer.indexDocument(name, input.key, input.content, contentType, null);
    const document = this.repository.document(name, input.key)!;
    return { ...documentView(document), change: known === undefined ? 'added' : 'updated' };
  }

  /** Deletes an ingested document. */
  deleteDocument(name: string, id: string): void {
    this.row(name);
    if (this.deleteDocuments(name, [id]) === 0)
      throw new GatewayError('not_found', `document ${id} is not in RAG collection ${name}`);
  }
}
