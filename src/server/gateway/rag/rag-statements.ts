import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';

/**
 * The start of the `collection` value of chunks set aside: the new chunks of a document being written,
 * before they replace its old ones, and the old ones, once replaced, until they are deleted. Documents
 * being deleted are set aside under a hidden collection row of such a name. No collection name holds
 * `~` or `:`, and `~` sorts after every character one may hold, so every query by collection passes
 * them over, and the leftovers of a stopped process are one range of its index.
 */
export const SET_ASIDE_PREFIX = '~';

/** A new `collection` value for chunks set aside (see SET_ASIDE_PREFIX). */
export function setAsideMark(what: 'staged' | 'replaced' | 'deleted'): string {
  return `${SET_ASIDE_PREFIX}${what}:${randomUUID()}`;
}

/**
 * What every part of the RAG repository shares: the compiled statements, the versions of each
 * collection's chunks, and the deleted collections whose chunks still carry their name.
 */
export class RagStatements {
  // Compiled once per SQL text: retrieval runs these on every request that selects a collection.
  private readonly statements = new Map<string, Database.Statement>();
  // Per collection, the count of writes when its chunks or vectors last changed: one counter for all
  // collections, so a collection deleted and made again never repeats a version an old copy holds.
  private readonly chunkVersions = new Map<string, number>();
  private writes = 0;
  /**
   * The marks of deleted collections whose chunks are still being deleted under the collection's name
   * (see deleteCollection): readers tell those chunks by their document, set aside under the mark.
   */
  protected readonly departing = new Set<string>();

  constructor(protected readonly sqlite: Database.Database) {}

  protected stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.sqlite.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * The version of a collection's chunks and their vectors: it changes with every write to them through
   * this repository (the only writer), so a copy held in memory is current while its version is.
   */
  chunksVersion(collection: string): number {
    return this.chunkVersions.get(collection) ?? 0;
  }

  protected chunksChanged(collection: string): void {
    this.writes += 1;
    this.chunkVersions.set(collection, this.writes);
  }

  /**
   * A condition on the chunk `k` that keeps out chunks of a deleted collection still under its name (a
   * collection made again under it must not find them); nothing, costing nothing, while none is left.
   */
  protected ownChunk(): string {
    return this.departing.size === 0
      ? ''
      : ' AND EXISTS (SELECT 1 FROM rag_documents own WHERE own.id = k.document_id AND own.collection = k.collection)';
  }
}
