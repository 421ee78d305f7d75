import type { RagAccessRow } from '../../db/schema/rag.js';
import { RagStatements, SET_ASIDE_PREFIX } from './rag-statements.js';

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

const COLLECTION_COLUMNS = `c.name, c.description, c.access, c.source_namespace AS sourceNamespace,
  c.source_branch AS sourceBranch, c.source_revision AS sourceRevision, c.skipped_documents AS skippedDocuments,
  c.created_at AS createdAt, c.updated_at AS updatedAt`;

function parseCollection<T extends { access: unknown; skippedDocuments: unknown }>(
  row: T,
): T & Pick<CollectionRow, 'access' | 'skippedDocuments'> {
  return {
    ...row,
    access: JSON.parse(row.access as string) as RagAccessRow,
    skippedDocuments: JSON.parse(row.skippedDocuments as string) as CollectionRow['skippedDocuments'],
  };
}

/** The RAG repository's queries of collections. */
export class RagCollectionQueries extends RagStatements {
  /** Every collection with its counts, by name. */
  listCollections(): CollectionStats[] {
    const own = this.ownChunk();
    const rows = this.stmt(
      `SELECT ${COLLECTION_COLUMNS},
          (SELECT count(*) FROM rag_documents d WHERE d.collection = c.name) AS documents,
          (SELECT count(*) FROM rag_chunks k WHERE k.collection = c.name${own}) AS chunks,
          (SELECT count(*) FROM rag_chunks k WHERE k.collection = c.name AND k.embedding IS NOT NULL${own}) AS embeddedChunks
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
   * Deletes a collection at once for every reader, its name free again, but sets its documents aside
   * under `mark` (see setAsideDocuments) rather than delete them. Its chunks keep the collection's name
   * (see `departing`): moving them too would rewrite every chunk and its vector in this transaction,
   * seconds for a large collection, during which no other request reaches the database. They are
   * deleted in slices with their documents (see deleteSetAsideSlice).
   */
  deleteCollection(name: string, mark: string, now: number): boolean {
    this.chunksChanged(name);
    const deleted = this.sqlite.transaction(() => {
      if (this.collection(name) === undefined) return false;
      this.insertSetAsideCollection(mark, now);
      this.stmt('UPDATE rag_documents SET collection = ? WHERE collection = ?').run(mark, name);
      this.stmt('DELETE FROM rag_collections WHERE name = ?').run(name);
      return true;
    })();
    if (deleted) this.departing.add(mark);
    return deleted;
  }

  /** The hidden collection row that documents being deleted are moved under (see SET_ASIDE_PREFIX). */
  protected insertSetAsideCollection(mark: string, now: number): void {
    this.stmt(
      `INSERT INTO rag_collections (name, description, access, source_namespace, source_branch, source_revision, created_at, updated_at)
         VALUES (?, '', '{"keys":[],"users":[],"teams":[]}', NULL, NULL, 0, ?, ?)`,
    ).run(mark, now, now);
  }
}
