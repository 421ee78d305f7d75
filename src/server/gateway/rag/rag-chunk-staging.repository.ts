import {
  BY_DOCUMENT_INDEX,
  INSERT_CHUNK,
  RagDocumentQueries,
  type DocumentRow,
  type NewChunk,
} from './rag-documents.repository.js';
import { SET_ASIDE_PREFIX } from './rag-statements.js';

/** Moves a document's chunks from one `collection` value to another: document id, to, from. */
const MOVE_DOCUMENT_CHUNKS = `UPDATE rag_chunks ${BY_DOCUMENT_INDEX} SET collection = ? WHERE document_id = ? AND collection = ?`;

/**
 * The RAG repository's writes that keep the database free between slices: chunks staged before they
 * replace a document's, documents set aside before they are deleted, and what is set aside deleted a
 * slice at a time (see SET_ASIDE_PREFIX).
 */
export class RagChunkStaging extends RagDocumentQueries {
  /** Inserts chunks of a document set aside under `mark` (see setAsideMark), in one transaction: no reader finds them. */
  stageChunks(documentId: string, mark: string, revision: number | null, chunks: readonly NewChunk[]): void {
    const insert = this.stmt(INSERT_CHUNK);
    this.sqlite.transaction(() => {
      for (const chunk of chunks)
        insert.run(
          documentId,
          mark,
          chunk.ordinal,
          chunk.heading,
          chunk.text,
          revision,
          chunk.embedding,
          chunk.embeddingModel,
        );
    })();
  }

  /**
   * Makes a document's staged chunks its chunks, and sets its old ones aside under `replacedMark`, in
   * one transaction: readers find the old chunks or the new, never some of each. Only the chunks'
   * `collection` changes, which the full-text index does not hold, so this costs no re-indexing.
   * False (nothing changed) when the document is gone.
   */
  swapInChunks(
    document: Pick<DocumentRow, 'collection' | 'contentType' | 'contentHash' | 'chars' | 'revision'> & {
      readonly id: string;
      readonly now: number;
    },
    stagedMark: string,
    replacedMark: string,
  ): boolean {
    this.chunksChanged(document.collection);
    return this.sqlite.transaction(() => {
      const updated = this.stmt(
        `UPDATE rag_documents SET content_type = ?, content_hash = ?, chars = ?, revision = ?, updated_at = ?
           WHERE id = ? AND collection = ?`,
      ).run(
        document.contentType,
        document.contentHash,
        document.chars,
        document.revision,
        document.now,
        document.id,
        document.collection,
      );
      if (updated.changes === 0) return false;
      const move = this.stmt(MOVE_DOCUMENT_CHUNKS);
      move.run(replacedMark, document.id, document.collection);
      move.run(document.collection, document.id, stagedMark);
      return true;
    })();
  }

  /** Deletes up to `limit` chunks set aside under `mark`; how many it deleted (0: none left). */
  deleteSetAside(mark: string, limit: number): number {
    return this.stmt('DELETE FROM rag_chunks WHERE id IN (SELECT id FROM rag_chunks WHERE collection = ? LIMIT ?)').run(
      mark,
      limit,
    ).changes;
  }

  /**
   * Takes documents by id out of a collection for every reader, with their chunks, in one transaction:
   * they are moved under a hidden collection row named `mark`, to be deleted in slices (see
   * deleteSetAsideSlice). How many it took (0: none, and no row is left under `mark`).
   */
  setAsideDocuments(collection: string, ids: readonly string[], mark: string, now: number): number {
    this.chunksChanged(collection);
    const moveChunks = this.stmt(MOVE_DOCUMENT_CHUNKS);
    const moveDocument = this.stmt('UPDATE rag_documents SET collection = ? WHERE id = ? AND collection = ?');
    return this.sqlite.transaction(() => {
      this.insertSetAsideCollection(mark, now);
      let moved = 0;
      for (const id of ids) {
        moveChunks.run(mark, id, collection);
        moved += moveDocument.run(mark, id, collection).changes;
      }
      if (moved === 0) this.stmt('DELETE FROM rag_collections WHERE name = ?').run(mark);
      return moved;
    })();
  }

  /**
   * Deletes up to `limit` chunks of the documents set aside under `mark` (any chunk of theirs: staged
   * ones, and those of a deleted collection that still carry its name), then, once none is left, the
   * documents and their hidden collection row. Whether anything is left.
   */
  deleteSetAsideSlice(mark: string, limit: number): boolean {
    const deleted = this.stmt(
      `DELETE FROM rag_chunks WHERE id IN (SELECT k.id FROM rag_documents d JOIN rag_chunks k ON k.document_id = d.id
         WHERE d.collection = ? LIMIT ?)`,
    ).run(mark, limit).changes;
    if (deleted > 0) return true;
    this.stmt('DELETE FROM rag_collections WHERE name = ?').run(mark);
    this.departing.delete(mark);
    return false;
  }

  /**
   * Deletes what a process stopped in the middle of writing or deleting documents left: chunks and
   * documents set aside (with the chunks a deleted collection left under its name), and new documents
   * that never got their chunks (see documentToStage).
   */
  discardLeftovers(): void {
    this.sqlite.transaction(() => {
      this.stmt(`DELETE FROM rag_chunks WHERE collection >= '${SET_ASIDE_PREFIX}'`).run();
      // Documents being deleted: their chunks left under a deleted collection's name go with them (cascade).
      this.stmt(`DELETE FROM rag_collections WHERE name >= '${SET_ASIDE_PREFIX}'`).run();
      this.stmt(
        `DELETE FROM rag_documents WHERE content_hash = '' AND NOT EXISTS (SELECT 1 FROM rag_chunks k WHERE k.document_id = rag_documents.id)`,
      ).run();
    })();
    this.departing.clear();
  }
}
