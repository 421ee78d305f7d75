import { RagChunkQueries } from './rag-chunks.repository.js';

export type { NewChunk } from './rag-documents.repository.js';

/**
 * Every query of the RAG feature; SQL stays in its parts: rag-statements (shared state),
 * rag-collections, rag-documents, rag-chunk-staging (writes in slices, cleanup) and rag-chunks (reads,
 * search, vectors).
 */
export class RagRepository extends RagChunkQueries {}
