import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { RagAccessRow } from '../../db/schema/rag.js';

/** A collection row. */
export interface CollectionRow {
  readonly name: string;
  readonly description: string;
  readonly access: RagAccessRow;
  readonly sourceNamespace: string | null;
  readonly sourceBranch: string | null;
  readonly sourceRevision: number;
  /** Documents of the source the last sync could not index, with why. */
  readonly skippedDocuments: ReadonlyArray<{ readonly key: string; readonly reason: string }>;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A collection with its counts. */
export interface CollectionStats extends CollectionRow {
  readonly documents: number;
  readonly chunks: number;
  readonly embeddedChunks: number;
}

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
 * The start of the `collection` value of chunks set aside: the new chunks of a document being written,
 * before they replace its old ones, and the old ones, once replaced, until they are deleted. Documents
 * being deleted, with their chunks, are set aside under a hidden collection row of such a name. No
 * collection name holds `~` or `:`, and `~` sorts after every character one may hold, so every query
 * by collection passes them over, and the leftovers of a stopped process are one range of its index.
 */
const SET_ASIDE_PREFIX = '~';

/** A new `collection` value for chunks set aside (see SET_ASIDE_PREFIX). */
export function setAsideMark(what: 'staged' | 'replaced' | 'deleted'): string {
  return `${SET_ASIDE_PREFIX}${what}:${randomUUID()}`;
}

const COLLECTION_COLUMNS = `c.name, c.description, c.access, c.source_namespace AS sourceNamespace,
  c.source_branch AS sourceBranch, c.source_revision AS sourceRevision, c.skipped_documents AS skippedDocuments,
  c.created_at AS createdAt, c.updated_at AS updatedAt`;
const DOCUMENT_SELECT = `SELECT d.id, d.collection, d.key, d.content_type AS contentType,
  d.content_hash AS contentHash, d.chars, d.revision, d.updated_at AS updatedAt,
  (SELECT count(*) FROM rag_chunks k WHERE k.document_id = d.id AND k.collection = d.collection) AS chunks
  FROM rag_documents d`;
const CHUNK_COLUMNS = `k.id, k.collection, k.document_id AS documentId, d.key AS documentKey, k.ordinal, k.heading,
  k.text, k.revision, k.embedding, k.embedding_model AS embeddingModel`;

function parseCollection<T extends { access: unknown; skippedDocuments: unknown }>(
  row: T,
): T & Pick<CollectionRow, 'access' | 'skippedDocuments'> {
  return {
    ...row,
    access: JSON.parse(row.access as string) as RagAccessRow,
    skippedDocuments: JSON.parse(row.skippedDocuments as string) as CollectionRow['skippedDocuments'],
  };
}

/** Every query of the RAG feature; SQL stays here. */
export class RagRepository {
  // Compiled once per SQL text: retrieval runs these on every request that selects a collection.
  private readonly statements = new Map<string, Database.Statement>();
  // Per collection, the count of writes when its chunks or vectors last changed: one counter for all
  // collections, so a collection deleted and made again never repeats a version an old copy holds.
  private readonly chunkVersions = new Map<string, number>();
  private writes = 0;

  constructor(private readonly sqlite: Database.Database) {}

  private stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.sqlite.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Every collection with its counts, by name. */
  listCollections(): CollectionStats[] {
    const rows = this.stmt(
      `SELECT ${COLLECTION_COLUMNS},
          (SELECT count(*) FROM rag_documents d WHERE d.collection = c.name) AS documents,
          (SELECT count(*) FROM rag_chunks k WHERE k.collection = c.name) AS chunks,
          (SELECT count(*) FROM rag_chunks k WHERE k.collection = c.name AND k.embedding IS NOT NULL) AS embeddedChunks
         FROM rag_collections c WHERE c.name < '${SET_ASIDE_PREFIX}' ORDER BY c.name`,
    ).all() as Array<CollectionStats & { access: string; skippedDocuments: string }>;
    return rows.map(parseCollection);
  }

  /** One collection, or undefined. */
  collection(name: string): CollectionRow | undefined {
    const row = this.stmt(`SELECT ${COLLECTION_COLUMNS} FROM rag_collections c WHERE c.name = ?`).get(name) as
      (CollectionRow & { access: string; skippedDocuments: string }) | undefined;
    return row === undefined ? undefined : parseCollection(row);
  }

  /** The collections that follow a store namespace and branch. */
  followers(namespace?: string, branch?: string): CollectionRow[] {
    const rows = this.stmt(
      `SELECT ${COLLECTION_COLUMNS} FROM rag_collections c WHERE c.source_namespace IS NOT NULL
           AND (? IS NULL OR c.source_namespace = ?) AND (? IS NULL OR c.source_branch = ?)`,
    ).all(namespace ?? null, namespace ?? null, branch ?? null, branch ?? null) as Array<
      CollectionRow & { access: string; skippedDocuments: string }
    >;
    return rows.map(parseCollection);
  }

  /**
   * The version of a collection's chunks and their vectors: it changes with every write to them through
   * this repository (the only writer), so a copy held in memory is current while its version is.
   */
  chunksVersion(collection: string): number {
    return this.chunkVersions.get(collection) ?? 0;
  }

  private chunksChanged(collection: string): void {
    this.writes += 1;
    this.chunkVersions.set(collection, this.writes);
  }

  insertCollection(row: Omit<CollectionRow, 'sourceRevision' | 'skippedDocuments'>): void {
    this.chunksChanged(row.name);
    this.stmt(
      `INSERT INTO rag_collections (name, description, access, source_namespace, source_branch, source_revision, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
    ).run(
      row.name,
      row.description,
      JSON.stringify(row.access),
      row.sourceNamespace,
      row.sourceBranch,
      row.createdAt,
      row.updatedAt,
    );
  }

  updateCollection(row: CollectionRow): void {
    this.stmt(
      `UPDATE rag_collections SET description = ?, access = ?, source_namespace = ?, source_branch = ?,
           source_revision = ?, skipped_documents = ?, updated_at = ? WHERE name = ?`,
    ).run(
      row.description,
      JSON.stringify(row.access),
      row.sourceNamespace,
      row.sourceBranch,
      row.sourceRevision,
      JSON.stringify(row.skippedDocuments),
      row.updatedAt,
      row.name,
    );
  }

  /**
   * Deletes a collection at once for every reader, its name free again, but sets its documents and
   * chunks aside under `mark` (see setAsideDocuments) rather than delete them: deleting thousands of
   * chunks (each taken out of the full-text index) in one statement would stall every request for
   * seconds. Only the chunks' `collection` changes, which the full-text index does not hold.
   */
  deleteCollection(name: string, mark: string, now: number): boolean {
    this.chunksChanged(name);
    return this.sqlite.transaction(() => {
      if (this.collection(name) === undefined) return false;
      this.insertSetAsideCollection(mark, now);
      this.stmt('UPDATE rag_chunks SET collection = ? WHERE collection = ?').run(mark, name);
      this.stmt('UPDATE rag_documents SET collection = ? WHERE collection = ?').run(mark, name);
      this.stmt('DELETE FROM rag_collections WHERE name = ?').run(name);
      return true;
    })();
  }

  /** The hidden collection row that documents being deleted are moved under (see SET_ASIDE_PREFIX). */
  private insertSetAsideCollection(mark: string, now: number): void {
    this.stmt(
      `INSERT INTO rag_collections (name, description, access, source_namespace, source_branch, source_revision, created_at, updated_at)
         VALUES (?, '', '{"keys":[],"users":[],"teams":[]}', NULL, NULL, 0, ?, ?)`,
    ).run(mark, now, now);
  }

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

  /** A collection's document by key, or undefined. */
  document(collection: string, key: string): DocumentRow | undefined {
    return this.stmt(`${DOCUMENT_SELECT} WHERE d.collection = ? AND d.key = ?`).get(collection, key) as
      DocumentRow | undefined;
  }

  /**
   * Replaces a document (by collection and key) and its chunks, in one transaction. A document already
   * under the key keeps its id and creation time (a client may hold the id); a new one takes `newId`.
   */
  replaceDocument(
    document: Omit<DocumentRow, 'id' | 'chunks' | 'updatedAt'> & { readonly newId: string; readonly now: number },
    chunks: readonly NewChunk[],
  ): void {
    this.chunksChanged(document.collection);
    const run = this.sqlite.transaction(() => {
      const existing = this.stmt('SELECT id FROM rag_documents WHERE collection = ? AND key = ?').get(
        document.collection,
        document.key,
      ) as { id: string } | undefined;
      const id = existing?.id ?? document.newId;
      if (existing !== undefined) {
        this.stmt('DELETE FROM rag_chunks WHERE document_id = ?').run(id);
        this.stmt(
          `UPDATE rag_documents SET content_type = ?, content_hash = ?, chars = ?, revision = ?, updated_at = ?
             WHERE id = ?`,
        ).run(document.contentType, document.contentHash, document.chars, document.revision, document.now, id);
      } else
        this.stmt(
          `INSERT INTO rag_documents (id, collection, key, content_type, content_hash, chars, revision, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          id,
          document.collection,
          document.key,
          document.contentType,
          document.contentHash,
          document.chars,
          document.revision,
          document.now,
          document.now,
        );
      const insert = this.stmt(
        `INSERT INTO rag_chunks (document_id, collection, ordinal, heading, text, revision, embedding, embedding_model)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      );
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
    const existing = this.stmt('SELECT id FROM rag_documents WHERE collection = ? AND key = ?').get(
      document.collection,
      document.key,
    ) as { id: string } | undefined;
    if (existing !== undefined) return { id: existing.id, created: false };
    this.stmt(
      `INSERT INTO rag_documents (id, collection, key, content_type, content_hash, chars, revision, created_at, updated_at)
         VALUES (?, ?, ?, ?, '', ?, ?, ?, ?)`,
    ).run(
      document.newId,
      document.collection,
      document.key,
      document.contentType,
      document.chars,
      document.revision,
      document.now,
      document.now,
    );
    return { id: document.newId, created: true };
  }

  /** Inserts chunks of a document set aside under `mark` (see setAsideMark), in one transaction: no reader finds them. */
  stageChunks(documentId: string, mark: string, revision: number | null, chunks: readonly NewChunk[]): void {
    const insert = this.stmt(
      `INSERT INTO rag_chunks (document_id, collection, ordinal, heading, text, revision, embedding, embedding_model)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
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
      const move = this.stmt('UPDATE rag_chunks SET collection = ? WHERE document_id = ? AND collection = ?');
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
   * Deletes what a process stopped in the middle of writing or deleting documents left: chunks and
   * documents set aside, and new documents that never got their chunks (see documentToStage).
   */
  discardLeftovers(): void {
    this.sqlite.transaction(() => {
      this.stmt(`DELETE FROM rag_chunks WHERE collection >= '${SET_ASIDE_PREFIX}'`).run();
      // Documents being deleted: their chunks went with the line above.
      this.stmt(`DELETE FROM rag_collections WHERE name >= '${SET_ASIDE_PREFIX}'`).run();
      this.stmt(
        `DELETE FROM rag_documents WHERE content_hash = '' AND NOT EXISTS (SELECT 1 FROM rag_chunks k WHERE k.document_id = rag_documents.id)`,
      ).run();
    })();
  }

  /** Deletes a document that has no chunks of its own (see documentToStage). */
  deleteEmptyDocument(id: string): void {
    this.stmt(
      'DELETE FROM rag_documents WHERE id = ? AND NOT EXISTS (SELECT 1 FROM rag_chunks WHERE document_id = ?)',
    ).run(id, id);
  }

  /**
   * Takes documents by id out of a collection for every reader, with their chunks, in one transaction:
   * they are moved under a hidden collection row named `mark`, to be deleted in slices (see
   * deleteSetAsideSlice). How many it took (0: none, and no row is left under `mark`).
   */
  setAsideDocuments(collection: string, ids: readonly string[], mark: string, now: number): number {
    this.chunksChanged(collection);
    const moveChunks = this.stmt('UPDATE rag_chunks SET collection = ? WHERE document_id = ? AND collection = ?');
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
   * Deletes up to `limit` chunks of the documents set aside under `mark` (any chunk of theirs, staged
   * ones included), then, once none is left, the documents and their hidden collection row. Whether
   * anything is left.
   */
  deleteSetAsideSlice(mark: string, limit: number): boolean {
    const deleted = this.stmt(
      `DELETE FROM rag_chunks WHERE id IN (SELECT k.id FROM rag_documents d JOIN rag_chunks k ON k.document_id = d.id
         WHERE d.collection = ? LIMIT ?)`,
    ).run(mark, limit).changes;
    if (deleted > 0) return true;
    this.stmt('DELETE FROM rag_collections WHERE name = ?').run(mark);
    return false;
  }

  /**
   * Up to `limit` chunks of a collection (optionally one document) in document-key and reading order,
   * after a position in that order: the rest of the position's document, then the documents after it.
   * Each part is a range of the (collection, key) and (document, ordinal) indexes, so a late page of a
   * large document costs what the first does.
   */
  chunks(collection: string, page: ChunkPage): ChunkRow[] {
    const documentId = page.documentId ?? null;
    const select = `SELECT ${CHUNK_COLUMNS} FROM rag_documents d
      JOIN rag_chunks k ON k.document_id = d.id AND k.collection = d.collection
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
         WHERE rag_chunks_fts MATCH ? AND k.collection IN (SELECT value FROM json_each(?))
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
      `SELECT id, text, collection FROM rag_chunks WHERE id > ? AND (embedding IS NULL OR embedding_model IS NOT ?)
           AND collection < '${SET_ASIDE_PREFIX}' ORDER BY id LIMIT ?`,
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
      `SELECT EXISTS (SELECT 1 FROM rag_chunks WHERE collection IN (SELECT value FROM json_each(?))
           AND embedding IS NOT NULL AND embedding_model = ?) AS found`,
    ).get(JSON.stringify(collections), model) as { found: number };
    return row.found === 1;
  }

  /** How many chunks a collection has (counted in its index: no row is read). */
  chunkCount(collection: string): number {
    return (
      this.stmt('SELECT count(*) AS count FROM rag_chunks WHERE collection = ?').get(collection) as { count: number }
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
      `SELECT id, embedding FROM rag_chunks WHERE collection = ? AND id > ?
           AND embedding IS NOT NULL AND embedding_model = ? ORDER BY id LIMIT ?`,
    ).all(collection, afterId, model, limit) as Array<{ id: number; embedding: Buffer }>;
  }

  /** True when the full-text index answers (readiness). */
  indexReady(): boolean {
    this.stmt("SELECT rowid FROM rag_chunks_fts WHERE rag_chunks_fts MATCH 'ready' LIMIT 1").all();
    return true;
  }
}
