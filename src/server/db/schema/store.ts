import { sql } from 'drizzle-orm';
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

// The versioned document store. Design notes: docs/store.md.
// Narrow, high-volume tables (revisions, revision changes, snapshots, head state) are rebuilt
// WITHOUT ROWID by the custom migration that follows the generated one: Drizzle cannot declare that,
// and a rowid table with a composite primary key stores every row twice (table + key index).
// No foreign keys on blob and key references: garbage collection deletes unreferenced rows in bulk,
// and the engine keeps references consistent inside each write transaction.

/** Namespaces and their revision counter (shared by all branches of the namespace). */
export const storeNamespaces = sqliteTable(
  'store_namespaces',
  {
    id: integer('id').primaryKey(),
    name: text('name').notNull(),
    lastRevision: integer('last_revision').notNull().default(0),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('store_namespaces_name').on(t.name)],
);

/** Branches: head, the revision they were created from, and the counters that pace keyframes. */
export const storeBranches = sqliteTable(
  'store_branches',
  {
    id: integer('id').primaryKey(),
    namespaceId: integer('namespace_id')
      .notNull()
      .references(() => storeNamespaces.id),
    name: text('name').notNull(),
    baseRevision: integer('base_revision').notNull().default(0),
    headRevision: integer('head_revision').notNull().default(0),
    documentCount: integer('document_count').notNull().default(0),
    changesSinceKeyframe: integer('changes_since_keyframe').notNull().default(0),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('store_branches_namespace_name').on(t.namespaceId, t.name)],
);

/** Document keys, interned so that history rows carry a small integer instead of the key text. */
export const storeKeys = sqliteTable(
  'store_keys',
  {
    id: integer('id').primaryKey(),
    key: text('key').notNull(),
  },
  (t) => [uniqueIndex('store_keys_key').on(t.key)],
);

/**
 * Each distinct content once. `hash` is the first 8 bytes of its SHA-256: lookups compare the content
 * itself, so a prefix collision costs one comparison, never a wrong answer, and the index stays small.
 */
export const storeBlobs = sqliteTable(
  'store_blobs',
  {
    id: integer('id').primaryKey(),
    hash: blob('hash', { mode: 'buffer' }).notNull(),
    content: text('content').notNull(),
  },
  (t) => [index('store_blobs_hash').on(t.hash)],
);

/**
 * Contents that no revision, keyframe or head referenced when gc or a branch deletion last looked, to be
 * deleted in short transactions after it. A write that stores one of them again takes it off this list
 * in its own transaction, so the sweep never deletes a content that is in use.
 */
export const storeUnreferencedBlobs = sqliteTable('store_unreferenced_blobs', {
  blobId: integer('blob_id').primaryKey(),
});

/** Revisions, numbered per namespace; `keyframe` marks a snapshot, `root` a revision whose parent was collected. */
export const storeRevisions = sqliteTable(
  'store_revisions',
  {
    namespaceId: integer('namespace_id').notNull(),
    id: integer('id').notNull(),
    branchId: integer('branch_id').notNull(),
    parentId: integer('parent_id').notNull(),
    message: text('message').notNull(),
    createdAt: integer('created_at').notNull(),
    keyframe: integer('keyframe').notNull().default(0),
    root: integer('root').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.namespaceId, t.id] }),
    index('store_revisions_branch').on(t.branchId, t.id),
    // A log between two times (`since`, `until`) counts its entries and finds their revision ids here,
    // without reading the branch's history outside them.
    index('store_revisions_branch_created').on(t.branchId, t.createdAt),
    index('store_revisions_branch_keyframes')
      .on(t.branchId, t.id)
      .where(sql`keyframe = 1`),
  ],
);

/** What each revision changed; `type` 0 create, 1 update, 2 delete; blob ids of the content before and after. */
export const storeRevisionChanges = sqliteTable(
  'store_revision_changes',
  {
    namespaceId: integer('namespace_id').notNull(),
    revisionId: integer('revision_id').notNull(),
    keyId: integer('key_id').notNull(),
    type: integer('type').notNull(),
    beforeBlob: integer('before_blob'),
    afterBlob: integer('after_blob'),
  },
  (t) => [primaryKey({ columns: [t.namespaceId, t.revisionId, t.keyId] })],
);

/** Keyframes: the whole state at a revision, so that reading any revision replays a bounded number of changes. */
export const storeSnapshots = sqliteTable(
  'store_snapshots',
  {
    namespaceId: integer('namespace_id').notNull(),
    revisionId: integer('revision_id').notNull(),
    keyId: integer('key_id').notNull(),
    blobId: integer('blob_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.namespaceId, t.revisionId, t.keyId] })],
);

/** The materialised head of every branch: head reads and applies cost O(documents touched). */
export const storeHeadState = sqliteTable(
  'store_head_state',
  {
    branchId: integer('branch_id').notNull(),
    keyId: integer('key_id').notNull(),
    blobId: integer('blob_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.branchId, t.keyId] })],
);

/** Named checkpoints per namespace (moved when created again, as `git tag -f`). */
export const storeCheckpoints = sqliteTable(
  'store_checkpoints',
  {
    namespaceId: integer('namespace_id')
      .notNull()
      .references(() => storeNamespaces.id),
    name: text('name').notNull(),
    revisionId: integer('revision_id').notNull(),
    description: text('description').notNull().default(''),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.namespaceId, t.name] })],
);

/**
 * Answers of writes sent with an `Idempotency-Key`, per token (a SHA-256 of it) and endpoint, so a retry after a
 * lost answer gets the original one instead of writing again. Written in the write's own transaction;
 * `fingerprint` is the SHA-256 of the parsed body, `answer` the JSON answered; pruned by age.
 */
export const storeIdempotencyKeys = sqliteTable(
  'store_idempotency_keys',
  {
    token: text('token').notNull(),
    endpoint: text('endpoint').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    answer: text('answer').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.token, t.endpoint, t.key] }),
    index('store_idempotency_keys_created').on(t.createdAt),
  ],
);

/**
 * Merges, one per merge revision: `revision_id` on branch `branch_id` took branch `from_branch_id`'s
 * head `from_revision`. The merge base walks them as a merge commit's second parent, so a merge revision
 * also reaches what the merged head reaches. The branch of the merge revision is kept here because gc
 * may delete that revision while what it merged still counts. A row naming its own branch as the source
 * (which no merge can: a branch never merges itself) is a restart: a rollback or restore to the branch's
 * own history, after which, from `revision_id` on, the branch's line continues at `from_revision`.
 */
export const storeMerges = sqliteTable(
  'store_merges',
  {
    namespaceId: integer('namespace_id').notNull(),
    revisionId: integer('revision_id').notNull(),
    branchId: integer('branch_id').notNull(),
    fromBranchId: integer('from_branch_id').notNull(),
    fromRevision: integer('from_revision').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.namespaceId, t.revisionId] }),
    index('store_merges_branch').on(t.branchId, t.revisionId),
    index('store_merges_from_branch').on(t.fromBranchId),
  ],
);
