import type { RagChunk, RagCollection, RagDocument } from '../../../shared/rag-api.js';
import type { ChunkRow } from './rag-chunks.repository.js';
import type { CollectionStats } from './rag-collections.repository.js';
import type { DocumentRow } from './rag-documents.repository.js';

/** What keeps a followed store namespace and branch from giving documents (see storeSourceWarning), or null. */
export type SourceWarning = (namespace: string, branch: string) => string | null;

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

/** A collection as the admin API shows it. */
export function collectionView(row: CollectionStats, sourceWarning: SourceWarning): RagCollection {
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
