import { z } from 'zod';
import { queryParams } from './query-params.js';
import { pageLimitSchema } from './gateway-api.js';
import { apiKeyIdSchema, listPageQuery, principalIdSchema } from './principals-api.js';
import { BRANCH_PATTERN, MAX_KEY_LENGTH, NAMESPACE_PATTERN } from './store-api.js';

/**
 * Schemas of the RAG admin API (`/internal/rag/*`), shared by the server routes and the UI. Pure zod.
 * A collection is read by keys holding `rag:<name>` (or `rag:*`, `*`) and, when its access lists are
 * not all empty, also listed there by key id, owner user or team.
 */

/** The longest collection name. */
export const MAX_COLLECTION_NAME_LENGTH = 100;

/** Collection names: what follows `rag:` in a scope, without `/` so they fit a URL segment. */
export const COLLECTION_NAME_PATTERN = new RegExp(`^[A-Za-z0-9._-]{1,${MAX_COLLECTION_NAME_LENGTH}}$`);

/** A collection name. */
export const collectionNameSchema = z.string().regex(COLLECTION_NAME_PATTERN, {
  error: `must be 1 to ${MAX_COLLECTION_NAME_LENGTH} letters, digits, ".", "_" or "-"`,
});

const MAX_READERS = 1000;

/**
 * Who may read a collection beyond the scope (all empty: the scope alone decides). Entries are checked
 * as the ids they must be: a key name, or a team written with a space, would match no caller and
 * silently close the collection to the readers it was meant for.
 */
export const ragAccessSchema = z
  .object({
    keys: z.array(apiKeyIdSchema).max(MAX_READERS).default([]),
    users: z.array(principalIdSchema).max(MAX_READERS).default([]),
    teams: z.array(principalIdSchema).max(MAX_READERS).default([]),
  })
  .strict();
/** Access lists of a collection. */
export type RagAccess = z.infer<typeof ragAccessSchema>;

/** Access lists to change: a list left out keeps what it holds. */
export const ragAccessPatchSchema = z
  .object({
    keys: ragAccessSchema.shape.keys.removeDefault().optional(),
    users: ragAccessSchema.shape.users.removeDefault().optional(),
    teams: ragAccessSchema.shape.teams.removeDefault().optional(),
  })
  .strict();
/** Access lists of a collection update. */
export type RagAccessPatch = z.infer<typeof ragAccessPatchSchema>;

/** A store namespace and branch a collection follows (empty parts take the store's defaults). */
export const ragSourceSchema = z
  .object({
    namespace: z.string().regex(NAMESPACE_PATTERN, { error: 'must be a path-like store namespace' }),
    branch: z.string().regex(BRANCH_PATTERN, { error: 'must be a store branch name' }).default('main'),
  })
  .strict();
/** The store source of a collection. */
export type RagSource = z.infer<typeof ragSourceSchema>;

/** `POST /internal/rag/collections` body. */
export const ragCollectionCreateSchema = z
  .object({
    name: collectionNameSchema,
    description: z.string().max(2000).optional(),
    access: ragAccessSchema.optional(),
    source: ragSourceSchema.nullable().optional(),
  })
  .strict();
/** Body of a collection creation. */
export type RagCollectionCreate = z.infer<typeof ragCollectionCreateSchema>;

/**
 * `PATCH /internal/rag/collections/:name` body: only the given fields change, down to each access list;
 * `source: null` stops following.
 */
export const ragCollectionUpdateSchema = z
  .object({
    description: z.string().max(2000).optional(),
    access: ragAccessPatchSchema.optional(),
    source: ragSourceSchema.nullable().optional(),
  })
  .strict();
/** Body of a collection update. */
export type RagCollectionUpdate = z.infer<typeof ragCollectionUpdateSchema>;

/** Access lists as stored: shown as they are, so entries kept before the ids were checked still read. */
const ragAccessViewSchema = z.object({
  keys: z.array(z.string()),
  users: z.array(z.string()),
  teams: z.array(z.string()),
});

/** A collection as the admin API shows it. */
/** A document of a collection's source that its last sync could not index, and why. */
export const ragSkippedDocumentSchema = z.object({ key: z.string(), reason: z.string() });

export const ragCollectionSchema = z.object({
  name: z.string(),
  description: z.string(),
  access: ragAccessViewSchema,
  source: ragSourceSchema.nullable(),
  /** Store revision last indexed (0: not yet, or no source). */
  source_revision: z.number(),
  /** Documents of the source the last sync could not index (too many chunks), with why. */
  skipped_documents: z.array(ragSkippedDocumentSchema),
  documents: z.number(),
  chunks: z.number(),
  /** Chunks that carry a vector of the configured embedding model. */
  embedded_chunks: z.number(),
  /** Why the followed namespace or branch gives the collection no documents (it does not exist); null when it exists or there is no source. */
  source_warning: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
/** A collection. */
export type RagCollection = z.infer<typeof ragCollectionSchema>;

/** `GET /internal/rag/collections` answer. */
export const ragCollectionListSchema = z.object({ data: z.array(ragCollectionSchema) });

/** Path parameters naming a collection. */
export const ragCollectionParamsSchema = z.object({ name: collectionNameSchema });
/** Path parameters naming a document of a collection. */
export const ragDocumentParamsSchema = z.object({ name: collectionNameSchema, id: z.string().min(1).max(100) });

/** `POST /internal/rag/collections/:name/documents` body: creates or replaces the document `key`. */
export const ragDocumentInputSchema = z
  .object({
    key: z.string().min(1).max(MAX_KEY_LENGTH),
    content: z.string().max(5 * 1024 * 1024),
    content_type: z.enum(['text', 'markdown']).optional(),
  })
  .strict();
/** Body of a document ingestion. */
export type RagDocumentInput = z.infer<typeof ragDocumentInputSchema>;

/** A document of a collection. */
export const ragDocumentSchema = z.object({
  id: z.string(),
  collection: z.string(),
  key: z.string(),
  content_type: z.enum(['text', 'markdown']),
  chars: z.number(),
  chunks: z.number(),
  /** Store revision the content was indexed from (null: ingested through the admin API). */
  revision: z.number().nullable(),
  updated_at: z.string(),
});
/** A document. */
export type RagDocument = z.infer<typeof ragDocumentSchema>;

/** What an ingest did: a new key, new content for a known key, or content the collection already held. */
export const ragDocumentChangeSchema = z.enum(['added', 'updated', 'unchanged']);

/** `POST /internal/rag/collections/:name/documents` answer: the document and what the ingest did. */
export const ragDocumentPutAnswerSchema = ragDocumentSchema.extend({ change: ragDocumentChangeSchema });
/** An ingested document with what the ingest did. */
export type RagDocumentPutAnswer = z.infer<typeof ragDocumentPutAnswerSchema>;

/** `GET /internal/rag/collections/:name/documents` query: pages by document key (`after`: the last key of the previous page). */
export const ragDocumentListQuerySchema = queryParams(listPageQuery(MAX_KEY_LENGTH));

/** `GET /internal/rag/collections/:name/documents` answer: by key; `next_cursor` is the `after` of the next page (null on the last). */
export const ragDocumentListSchema = z.object({ data: z.array(ragDocumentSchema), next_cursor: z.string().nullable() });
/** A list of documents. */
export type RagDocumentList = z.infer<typeof ragDocumentListSchema>;

/** A chunk as shown to admins and cited to callers. */
export const ragChunkSchema = z.object({
  id: z.number(),
  /** `<collection>:<chunk id>`, the citation the answer's header and traffic record carry. */
  citation: z.string(),
  collection: z.string(),
  document_id: z.string(),
  document_key: z.string(),
  ordinal: z.number(),
  heading: z.string().nullable(),
  revision: z.number().nullable(),
  text: z.string(),
  embedded: z.boolean(),
});
/** A chunk. */
export type RagChunk = z.infer<typeof ragChunkSchema>;

/**
 * `GET /internal/rag/collections/:name/chunks` query: chunks in document-key and chunk order, `limit`
 * at a time; `after` is the previous page's `next_cursor` (a position, so a page stays right when
 * documents are re-indexed between pages).
 */
export const ragChunkQuerySchema = queryParams({
  document: z.string().min(1).max(100).optional(),
  limit: pageLimitSchema,
  after: z.string().min(1).max(10_000).optional(),
});

/** `GET /internal/rag/collections/:name/chunks` answer: one page, with the cursor of the next (null on the last). */
export const ragChunkListSchema = z.object({ data: z.array(ragChunkSchema), next_cursor: z.string().nullable() });

/** `POST /internal/rag/search` body: what `key_id` would retrieve for `query` (no key: every collection). */
export const ragSearchSchema = z
  .object({
    query: z.string().min(1).max(10_000),
    key_id: z.string().min(1).max(100).optional(),
    collections: z.array(collectionNameSchema).min(1).max(50).optional(),
    top_k: z.number().int().min(1).max(50).optional(),
  })
  .strict();
/** Body of a search. */
export type RagSearch = z.infer<typeof ragSearchSchema>;

/** One retrieved chunk with its fused score and the ranks that produced it. */
export const ragHitSchema = ragChunkSchema.extend({
  score: z.number(),
  bm25_rank: z.number().nullable(),
  vector_rank: z.number().nullable(),
});
/** A retrieved chunk. */
export type RagHit = z.infer<typeof ragHitSchema>;

/** `POST /internal/rag/search` answer: the collections searched (those the key may read) and the hits. */
export const ragSearchResultSchema = z.object({
  collections: z.array(z.string()),
  /** Requested collections the key may not read (skipped). */
  denied: z.array(z.string()),
  hits: z.array(ragHitSchema),
});

/** `POST /internal/rag/collections/:name/sync` answer. */
export const ragSyncResultSchema = z.object({
  revision: z.number(),
  added: z.number(),
  updated: z.number(),
  removed: z.number(),
  /** Documents of the source that could not be indexed (too many chunks), with why; their old chunks are removed. */
  skipped: z.array(ragSkippedDocumentSchema),
});
/** What a sync changed. */
export type RagSyncResult = z.infer<typeof ragSyncResultSchema>;
