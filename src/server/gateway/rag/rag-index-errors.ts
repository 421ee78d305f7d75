import { GatewayError } from '../gateway-error.js';

/**
 * The collection a document was being indexed for was deleted, or changed its source, while the
 * document's chunks were being embedded: nothing was stored.
 */
export class CollectionChangedError extends GatewayError {
  constructor(collection: string, key: string) {
    super(
      'conflict',
      `RAG collection ${collection} was deleted or changed its source while ${key} was being indexed; the document was not stored`,
    );
    this.name = 'CollectionChangedError';
  }
}

/** A document that would make more chunks than `rag.max_chunks_per_document`; nothing of it is stored. */
export class TooManyChunksError extends GatewayError {
  constructor(key: string, max: number) {
    super(
      'too_large',
      `document ${key} makes more than ${max} chunks (rag.max_chunks_per_document): split it into smaller documents, or raise the limit`,
    );
    this.name = 'TooManyChunksError';
  }
}
