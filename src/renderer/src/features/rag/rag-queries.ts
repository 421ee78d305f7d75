import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { z } from 'zod';
import {
  ragChunkListSchema,
  ragCollectionListSchema,
  ragCollectionSchema,
  ragDocumentListSchema,
  ragDocumentSchema,
  ragSearchResultSchema,
  type RagCollection,
  type RagCollectionCreate,
  type RagCollectionUpdate,
  type RagDocumentInput,
  type RagSearch,
} from '../../../../shared/rag-api.js';
import { useApi } from '../../api/api-context.js';

/** Query keys of the RAG screens: invalidating `['rag']` refreshes all of them. */
export const ragKeys = {
  all: ['rag'] as const,
  collections: ['rag', 'collections'] as const,
  /** Everything read of one collection: its documents and chunks. */
  collection: (name: string) => ['rag', 'collection', name] as const,
  documents: (name: string) => ['rag', 'collection', name, 'documents'] as const,
  chunks: (name: string, document: string | undefined) =>
    ['rag', 'collection', name, 'chunks', document ?? ''] as const,
};

const path = (name: string, rest = ''): string => `/internal/rag/collections/${encodeURIComponent(name)}${rest}`;

/**
 * A store-backed collection whose first sync from its source (after it was created or its source
 * changed, which forgets the indexed revision) has not finished: no revision indexed yet, and the
 * source exists (a missing one says so in `source_warning` and has nothing to sync).
 */
export function isSyncing(collection: RagCollection): boolean {
  return collection.source !== null && collection.source_revision === 0 && collection.source_warning === null;
}

/** How often the collections are read again while one is syncing: the gateway sends no event when a sync ends. */
const SYNC_POLL_MS = 1000;

/** Every collection with its counts (read again every second while one is syncing from the store). */
export function useCollections() {
  const api = useApi();
  return useQuery({
    queryKey: ragKeys.collections,
    queryFn: ({ signal }) =>
      api.request('gateway', '/internal/rag/collections', { schema: ragCollectionListSchema, signal }),
    refetchInterval: (query) => (query.state.data?.data.some(isSyncing) ? SYNC_POLL_MS : false),
  });
}

/** Documents asked for at a time: a collection may hold thousands, and the whole list costs the gateway a long read. */
export const DOCUMENT_PAGE_SIZE = 100;

/** Documents of a collection by key, a page at a time (`after` cursor). */
export function useRagDocuments(name: string) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: ragKeys.documents(name),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.request('gateway', path(name, '/documents'), {
        query: { limit: DOCUMENT_PAGE_SIZE, after: pageParam },
        schema: ragDocumentListSchema,
        signal,
      }),
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

/** Chunks asked for at a time: a document may have thousands, each up to a chunk's size. */
export const CHUNK_PAGE_SIZE = 100;

/** Chunks of a collection, or of one of its documents, a page at a time (`after` cursor). */
export function useRagChunks(name: string, document: string | undefined) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: ragKeys.chunks(name, document),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.request('gateway', path(name, '/chunks'), {
        query: { document, limit: CHUNK_PAGE_SIZE, after: pageParam },
        schema: ragChunkListSchema,
        signal,
      }),
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

/** Creates a collection. */
export function useCreateCollection() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RagCollectionCreate) =>
      api.request('gateway', '/internal/rag/collections', { method: 'POST', body, schema: ragCollectionSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: ragKeys.all }),
  });
}

/** Changes a collection's description, readers or store source (only the fields in the body). */
export function useUpdateCollection() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, body }: { readonly name: string; readonly body: RagCollectionUpdate }) =>
      api.request('gateway', path(name), { method: 'PATCH', body, schema: ragCollectionSchema }),
    // Its documents and chunks too: a new source is synced, and the search's readers may have changed.
    onSuccess: () => client.invalidateQueries({ queryKey: ragKeys.all }),
  });
}

/** Deletes a collection with its documents and chunks. */
export function useDeleteCollection() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.request('gateway', path(name), { method: 'DELETE', schema: z.unknown() }),
    onSuccess: () => client.invalidateQueries({ queryKey: ragKeys.all }),
  });
}

/** Ingests (or replaces) a text or Markdown document. */
export function useIngestDocument(name: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RagDocumentInput) =>
      api.request('gateway', path(name, '/documents'), { method: 'POST', body, schema: ragDocumentSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: ragKeys.all }),
  });
}

/** What a key would retrieve for a query (the admin's search). */
export function useRagSearch() {
  const api = useApi();
  return useMutation({
    mutationFn: (body: RagSearch) =>
      api.request('gateway', '/internal/rag/search', { method: 'POST', body, schema: ragSearchResultSchema }),
  });
}

/**
 * Reads a collection's documents and chunks again when its counts or indexed revision change (a sync
 * finished, seen by reading the collections again): their lists would otherwise show the old source.
 */
export function useDocumentsFollowCollection(collection: RagCollection): void {
  const client = useQueryClient();
  const { name, source_revision: revision, documents, chunks } = collection;
  const seen = useRef(`${revision}:${documents}:${chunks}`);
  useEffect(() => {
    const now = `${revision}:${documents}:${chunks}`;
    if (seen.current === now) return;
    seen.current = now;
    void client.invalidateQueries({ queryKey: ragKeys.collection(name) });
  }, [client, name, revision, documents, chunks]);
}
