import { createHash } from 'node:crypto';
import type { ChunkOptions } from './chunker.js';

/** The content type of a store document: Markdown by its key's extension, text otherwise. */
export function contentTypeOfKey(key: string): 'text' | 'markdown' {
  return /\.(md|markdown|mdx)$/i.test(key) ? 'markdown' : 'text';
}

/** The chunking settings' defaults (`rag.chunk_size`, `rag.chunk_overlap`). */
const DEFAULT_CHUNKING: ChunkOptions = { size: 800, overlap: 150 };

/**
 * The hash that tells an unchanged document from a changed one (re-indexing skips the former): its
 * content, content type and the chunking settings, so that other settings re-chunk it. The default
 * settings add nothing, keeping the hash documents were stored with before the settings counted: a
 * gateway that keeps them does not re-chunk and re-embed every document once.
 */
export function contentHash(content: string, contentType: string, chunking: ChunkOptions): string {
  const hash = createHash('sha256').update(contentType).update('\0').update(content);
  if (chunking.size !== DEFAULT_CHUNKING.size || chunking.overlap !== DEFAULT_CHUNKING.overlap)
    hash.update(`\0chunks ${chunking.size}/${chunking.overlap}`);
  return hash.digest('hex');
}
