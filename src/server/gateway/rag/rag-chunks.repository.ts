import { RagChunkStaging } from './rag-chunk-staging.repository.js';
import { BY_DOCUMENT_INDEX } from './rag-documents.repository.js';
import { SET_ASIDE_PREFIX } from './rag-statements.js';

/** A chunk row joined with its document's key. */
export interface ChunkRow {
  readonly id: number;
  readonly collection: string;
  readonly documentId: string;
  readonly documentKey: string;
  readonly ordinal: number;
  readonly heading: string | null;
  readonly text: string;
  readonly revision: number | null;
  readonly embedding: Buffer | null;
  readonly embeddingModel: string | null;
}

/** A place in a chunk list, which is in document-key, then chunk, order. */
export interface ChunkPosition {
  readonly documentKey: string;
  readonly ordinal: number;
}

/** Which chunks of a list to read: one document or all, after a position, how many. */
export interface ChunkPage {
  readonly documentId?: string;
  readonly after?: ChunkPosition;
  readonly limit: number;
}

const CHUNK_COLUMNS = `k.id, k.collection, k.document_id AS documentId, d.key AS documentKey, k.ordinal, k.heading,
  k.text, k.revision, k.embedding, k.embedding_model AS embeddingModel`;

/** The RAG repository's reads of chunks (lists, full-text search, vectors) and the vectors' writes. */
export class RagChunkQueries extends RagChunkStaging {
  /**
   * Up to `limit` chunks of a collection (optionally one document) in document-key and reading order,
   * after a position in that order: the rest of the position's document, then the documents after it.
   * Each part is a range of the (collection, key) and (document, ordinal) indexes, so a late page of a
   * large document costs what the first does.
   */
  chunks(collection: string, page: ChunkPage): ChunkRow[] {
    const documentId = page.documentId ?? null;
    const select = `SELECT ${CHUNK_COLUMNS} FROM rag_documents d
      JOIN rag_chunks k ${BY_DOCUMENT_INDEX} ON k.document_id = d.id AND k.collection = d.collection
      WHERE d.collection = ? AND (? IS NULL OR d.id = ?)`;
    const { after, limit } = page;
    if (after === undefined)
      return this.stmt(`${select} ORDER BY d.key, k.ordinal LIMIT ?`).all(
        collection,
        documentId,
        documentId,
        limit,
      ) as ChunkRow[];
    const rest = this.stmt(`${select} AND d.key = ? AND k.ordinal > ? ORDER BY k.ordinal LIMIT ?`).all(
      collection,
      documentId,
      documentId,
      after.documentKey,
      after.ordinal,
      limit,
    ) as ChunkRow[];
    if (rest.length === limit) return rest;
    const later = this.stmt(`${select} AND d.key > ? ORDER BY d.key, k.ordinal LIMIT ?`).all(
      collection,
      documentId,
      documentId,
      after.documentKey,
      limit - rest.length,
    ) as ChunkRow[];
    return [...rest, ...later];
  }

  /** Chunks by id, in no particular order. */
  chunksById(ids: readonly number[]): ChunkRow[] {
    if (ids.length === 0) return [];
    return this.stmt(
      `SELECT ${CHUNK_COLUMNS} FROM rag_chunks k JOIN rag_documents d ON d.id = k.document_id
         WHERE k.id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(ids)) as ChunkRow[];
  }

  /** Chunk ids of the collections matching an FTS5 query, best BM25 first. */
  searchText(collections: readonly string[], match: string, limit: number): number[] {
    const rows = this.stmt(
      `SELECT f.rowid AS id FROM rag_chunks_fts f JOIN rag_chunks k ON k.id = f.rowid
         WHERE rag_chunks_fts MATCH ? AND k.collection IN (SELECT value FROM json_each(?))${this.ownChunk()}
         ORDER BY bm25(rag_chunks_fts) LIMIT ?`,
    ).all(match, JSON.stringify(collections), limit) as Array<{ id: number }>;
    return rows.map((row) => row.id);
  }

  /** Up to `limit` chunks after `afterId` without a vector of `model` (none yet, or another model's). */
  chunksToEmbed(
    model: string,
    afterId: number,
    limit: number,
  ): Array<{ id: number; text: string; collection: string }> {
    return this.stmt(
      `SELECT k.id, k.text, k.collection FROM rag_chunks k WHERE k.id > ? AND (k.embedding IS NULL OR k.embedding_model IS NOT ?)
           AND k.collection < '${SET_ASIDE_PREFIX}'${this.ownChunk()} ORDER BY k.id LIMIT ?`,
    ).all(afterId, model, limit) as Array<{ id: number; text: string; collection: string }>;
  }

  /** Stores a chunk's vector (a chunk replaced since has another id, and is left alone). */
  setEmbedding(id: number, embedding: Buffer, model: string): void {
    const changed = this.stmt(
      'UPDATE rag_chunks SET embedding = ?, embedding_model = ? WHERE id = ? RETURNING collection',
    ).get(embedding, model, id) as { collection: string } | undefined;
    if (changed !== undefined) this.chunksChanged(changed.collection);
  }

  /** Whether any chunk of the collections has a vector of `model`. */
  hasVectors(collections: readonly string[], model: string): boolean {
    const row = this.stmt(
      `SELECT EXISTS (SELECT 1 FROM rag_chunks k WHERE k.collection IN (SELECT value FROM json_each(?))
           AND k.embedding IS NOT NULL AND k.embedding_model = ?${this.ownChunk()}) AS found`,
    ).get(JSON.stringify(collections), model) as { found: number };
    return row.found === 1;
  }

  /** How many chunks a collection has (counted in its index, no row read, unless a deleted collection's are left). */
  chunkCount(collection: string): number {
    return (
      this.stmt(`SELECT count(*) AS count FROM rag_chunks k WHERE k.collection = ?${this.ownChunk()}`).get(
        collection,
      ) as { count: number }
    ).count;
  }

  /** Up to `limit` vectors of `model` of a collection's chunks after `afterId`, by chunk id. */
  vectorPage(
    collection: string,
    model: string,
    afterId: number,
    limit: number,
  ): Array<{ id: number; embedding: Buffer }> {
    return this.stmt(
      `SELECT k.id, k.embedding FROM rag_chunks k WHERE k.collection = ? AND k.id > ?
           AND k.embedding IS NOT NULL AND k.embedding_model = ?${this.ownChunk()} ORDER BY k.id LIMIT ?`,
    ).all(collection, afterId, model, limit) as Array<{ id: number; embedding: Buffer }>;
  }

  /** True when the full-text index answers (readiness). */
  indexReady(): boolean {
    this.stmt("SELECT rowid FROM rag_chunks_fts WHERE rag_chunks_fts MATCH 'ready' LIMIT 1").all();
    return true;
  }
}
