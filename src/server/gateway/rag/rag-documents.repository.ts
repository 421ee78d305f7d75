import { RagCollectionQueries } from './rag-collections.repository.js';

/** A document row with its chunk count. */
export interface DocumentRow {
  readonly id: string;
  readonly collection: string;
  readonly key: string;
  readonly contentType: 'text' | 'markdown';
  readonly contentHash: string;
  readonly chars: number;
  readonly revision: number | null;
  readonly updatedAt: number;
  readonly chunks: number;
}

/** Which documents of a list: those after the key `after`, at most `limit` of them (all when absent). */
export interface DocumentPage {
  readonly after?: string;
  readonly limit?: number;
}

/** A chunk to insert. */
export interface NewChunk {
  readonly ordinal: number;
  readonly heading: string | null;
  readonly text: string;
  readonly embedding: Buffer | null;
  readonly embeddingModel: string | null;
}

/**
 * How `rag_chunks` is read by document. Without statistics (the gateway runs no ANALYZE) SQLite reads
 * a term on `collection` through the collection's index: every chunk of the collection for each
 * document, seconds of a blocked event loop in a large collection. Naming the index makes the plan the
 * same in every database (test/gateway/rag/document-index-plans.test.ts asserts it).
 */
export const BY_DOCUMENT_INDEX = 'INDEXED BY rag_chunks_document';

const DOCUMENT_SELECT = `SELECT d.id, d.collection, d.key, d.content_type AS contentType,
  d.content_hash AS contentHash, d.chars, d.revision, d.updated_at AS updatedAt,
  (SELECT count(*) FROM rag_chunks k ${BY_DOCUMENT_INDEX} WHERE k.document_id = d.id AND k.collection = d.collection) AS chunks
  FROM rag_documents d`;

/** The INSERT of a chunk: document id, collection, ordinal, heading, text, revision, embedding, model. */
export const INSERT_CHUNK = `INSERT INTO rag_chunks (document_id, collection, ordinal, heading, text, revision, embedding, embedding_model)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

/** The RAG repository's queries of documents. */
export class RagDocumentQueries extends RagCollectionQueries {
  /**
   * Documents of a collection by key: every one, or at most `limit` after the key `after` (a range of
   * the (collection, key) index, so a late page costs what the first does).
   */
  documents(collection: string, page: DocumentPage = {}): DocumentRow[] {
    // LIMIT -1: no limit.
    const limit = page.limit ?? -1;
    if (page.after === undefined)
      return this.stmt(`${DOCUMENT_SELECT} WHERE d.collection = ? ORDER BY d.key LIMIT ?`).all(
        collection,
        limit,
      ) as DocumentRow[];
    return this.stmt(`${DOCUMENT_SELECT} WHERE d.collection = ? AND d.key > ? ORDER BY d.key LIMIT ?`).all(
      collection,
      page.after,
      limit,
    ) as DocumentRow[];
  }

  /** A collection's document by id, or undefined. */
  documentById(collection: string, id: string): DocumentRow | undefined {
    return this.stmt(`${DOCUMENT_SELECT} WHERE d.id = ? AND d.collection = ?`).get(id, collection) as
      DocumentRow | undefined;
  }

  /** A collection's document by key, or undefined. */
  document(collection: string, key: string): DocumentRow | undefined {
    return this.stmt(`${DOCUMENT_SELECT} WHERE d.collection = ? AND d.key = ?`).get(collection, key) as
      DocumentRow | undefined;
  }

  /**
   * Replaces a document (by collection and key) and its chunks, in one transaction. A document already
   * under the key keeps its id and creation time (a client may hold the id); a new one takes `newId`.
   * For tests and benchmarks that fill an index directly: the gateway writes through documentToStage,
   * stageChunks and swapInChunks, which never hold the database for a whole document.
   */
  replaceDocument(
    document: Omit<DocumentRow, 'id' | 'chunks' | 'updatedAt'> & { readonly newId: string; readonly now: number },
    chunks: readonly NewChunk[],
  ): void {
    this.chunksChanged(document.collection);
    const run = this.sqlite.transaction(() => {
      const existing = this.documentId(document.collection, document.key);
      const id = existing ?? document.newId;
      if (existing !== undefined) {
        this.stmt('DELETE FROM rag_chunks WHERE document_id = ?').run(id);
        this.stmt(
          `UPDATE rag_documents SET content_type = ?, content_hash = ?, chars = ?, revision = ?, updated_at = ?
             WHERE id = ?`,
        ).run(document.contentType, document.contentHash, document.chars, document.revision, document.now, id);
      } else this.insertDocument({ ...document, newId: id });
      const insert = this.stmt(INSERT_CHUNK);
      for (const chunk of chunks)
        insert.run(
          id,
          document.collection,
          chunk.ordinal,
          chunk.heading,
          chunk.text,
          document.revision,
          chunk.embedding,
          chunk.embeddingModel,
        );
    });
    run();
  }

  /**
   * The id of the document under the key, inserted when there is none yet: its new chunks are staged
   * under it (see stageChunks). A new one has no content hash until swapInChunks gives it one, so a
   * write that stops half-way leaves a document that the next sync or ingest indexes again.
   */
  documentToStage(
    document: Omit<DocumentRow, 'id' | 'chunks' | 'updatedAt' | 'contentHash'> & {
      readonly newId: string;
      readonly now: number;
    },
  ): { readonly id: string; readonly created: boolean } {
    const existing = this.documentId(document.collection, document.key);
    if (existing !== undefined) return { id: existing, created: false };
    this.insertDocument({ ...document, contentHash: '' });
    return { id: document.newId, created: true };
  }

  /** Deletes a document that has no chunks of its own (see documentToStage). */
  deleteEmptyDocument(id: string): void {
    this.stmt(
      'DELETE FROM rag_documents WHERE id = ? AND NOT EXISTS (SELECT 1 FROM rag_chunks WHERE document_id = ?)',
    ).run(id, id);
  }

  private documentId(collection: string, key: string): string | undefined {
    const row = this.stmt('SELECT id FROM rag_documents WHERE collection = ? AND key = ?').get(collection, key) as
      { id: string } | undefined;
    return row?.id;
  }

  private insertDocument(
    document: Omit<DocumentRow, 'id' | 'chunks' | 'updatedAt'> & { readonly newId: string; readonly now: number },
  ): void {
    this.stmt(
      `INSERT INTO rag_documents (id, collection, key, content_type, content_hash, chars, revision, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      document.newId,
      document.collection,
      document.key,
      document.contentType,
      document.contentHash,
      document.chars,
      document.revision,
      document.now,
      document.now,
    );
  }
}
