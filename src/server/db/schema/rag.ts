import { blob, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

// Retrieval-augmented generation: collections, their documents and chunks. The full-text index over
// chunks (`rag_chunks_fts`, FTS5) is a virtual table Drizzle cannot express; a custom migration creates
// it with the triggers that keep it equal to `rag_chunks`.

/** Who may read a collection besides holding its `rag:<name>` scope; all lists empty means the scope alone decides. */
export interface RagAccessRow {
  readonly keys: string[];
  readonly users: string[];
  readonly teams: string[];
}

/** A collection of documents; `source_*` set when it follows a store namespace and branch. */
export const ragCollections = sqliteTable('rag_collections', {
  name: text('name').primaryKey(),
  description: text('description').notNull().default(''),
  access: text('access', { mode: 'json' }).$type<RagAccessRow>().notNull(),
  sourceNamespace: text('source_namespace'),
  sourceBranch: text('source_branch'),
  /** The store revision the collection was last indexed at (0: not yet). */
  sourceRevision: integer('source_revision').notNull().default(0),
  /** Documents of the source the last sync could not index (too many chunks), with why. */
  skippedDocuments: text('skipped_documents', { mode: 'json' })
    .$type<Array<{ key: string; reason: string }>>()
    .notNull()
    .default([]),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/** A document of a collection: ingested text or Markdown, or one key of the followed store branch. */
export const ragDocuments = sqliteTable(
  'rag_documents',
  {
    id: text('id').primaryKey(),
    collection: text('collection')
      .notNull()
      .references(() => ragCollections.name, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    contentType: text('content_type').$type<'text' | 'markdown'>().notNull(),
    contentHash: text('content_hash').notNull(),
    chars: integer('chars').notNull(),
    /** The store revision the content was indexed from (null for ingested documents). */
    revision: integer('revision'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [uniqueIndex('rag_documents_collection_key').on(table.collection, table.key)],
);

/** A chunk of a document: its text (indexed by FTS5) and, when an embedding model is set, its vector. */
export const ragChunks = sqliteTable(
  'rag_chunks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    documentId: text('document_id')
      .notNull()
      .references(() => ragDocuments.id, { onDelete: 'cascade' }),
    collection: text('collection').notNull(),
    ordinal: integer('ordinal').notNull(),
    heading: text('heading'),
    text: text('text').notNull(),
    revision: integer('revision'),
    /** Little-endian float32 vector. */
    embedding: blob('embedding', { mode: 'buffer' }),
    embeddingModel: text('embedding_model'),
  },
  (table) => [
    index('rag_chunks_document').on(table.documentId, table.ordinal),
    index('rag_chunks_collection').on(table.collection),
  ],
);
