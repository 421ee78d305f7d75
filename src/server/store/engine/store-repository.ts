import type Database from 'better-sqlite3';
import { contentHash } from './bytewise.js';

// All SQL of the store. Statements are prepared once, here: the apply hot path runs a handful of
// them per document and preparing is the expensive part. Tables: src/server/db/schema/store.ts.

/** A namespace row. */
export interface NamespaceRow {
  readonly id: number;
  readonly name: string;
  readonly lastRevision: number;
  readonly createdAt: number;
}

/** A branch row. */
export interface BranchRow {
  readonly id: number;
  readonly namespaceId: number;
  readonly name: string;
  readonly baseRevision: number;
  readonly headRevision: number;
  readonly documentCount: number;
  readonly changesSinceKeyframe: number;
  readonly createdAt: number;
}

/** A revision row. */
export interface RevisionRow {
  readonly namespaceId: number;
  readonly id: number;
  readonly branchId: number;
  readonly parentId: number;
  readonly message: string;
  readonly createdAt: number;
  readonly keyframe: number;
  readonly root: number;
}

/** How many revisions a branch created within some times holds, and their lowest and highest ids (0 for none). */
export interface RevisionSpan {
  readonly count: number;
  readonly oldest: number;
  readonly newest: number;
}

/** Revisions with ids in [`oldest`, `below`) created within [`since`, `until`). */
export interface RevisionRange {
  readonly oldest: number;
  readonly below: number;
  readonly since: number;
  readonly until: number;
}

/** A recorded merge into a branch: its merge revision took `fromRevision`, the head of `fromBranchId`. */
export interface MergeRow {
  readonly revisionId: number;
  readonly fromBranchId: number;
  readonly fromRevision: number;
}

/** A rollback or restore of a branch to its own history: from `revisionId` on, its line continues at `target`. */
export interface RestartRow {
  readonly revisionId: number;
  readonly target: number;
}

/** A checkpoint row with the branch of its revision (empty for revision 0). */
export interface CheckpointRow {
  readonly namespaceId: number;
  readonly name: string;
  readonly revisionId: number;
  readonly description: string;
  readonly createdAt: number;
  readonly branch: string | null;
}

/** Stored change types, as integers in `store_revision_changes.type`. */
export const CHANGE_TYPES = ['create', 'update', 'delete'] as const;

/** A change in id space: key and blob ids (null where there is no before or after). */
export interface ChangeRow {
  readonly keyId: number;
  readonly type: 0 | 1 | 2;
  readonly beforeBlob: number | null;
  readonly afterBlob: number | null;
}

/** A change joined with its key text and contents: `[key, type, before, after]`. */
export type ChangeTextRow = [string, 0 | 1 | 2, string | null, string | null];

/** A state's size and, when it was within the bound asked for, its JSON. */
export interface SizedStateJson {
  readonly documents: number;
  /** UTF-8 bytes of the keys and contents. */
  readonly bytes: number;
  readonly json: string | null;
}

/** A change of a revision's page: `[key, type, before blob, after blob, UTF-8 bytes of both contents]`. */
export type ChangePageRow = [string, 0 | 1 | 2, number | null, number | null, number];

/** A change listed without contents: `[key, type, UTF-8 bytes before, UTF-8 bytes after]` (null: no such side). */
export type ChangeSizeRow = [string, 0 | 1 | 2, number | null, number | null];

/** One document's change of a revision: `[key, type, before blob, after blob, bytes before, bytes after]`. */
export type KeyChangeRow = [string, 0 | 1 | 2, number | null, number | null, number | null, number | null];

/** A document of a state page: `[key, blob id, UTF-8 bytes of key and content]`. */
export type StatePageRow = [string, number, number];

/** Map of key id to blob id: the state of a scope in id space. */
export type BlobMap = Map<number, number>;

const BRANCH_COLUMNS = `id, namespace_id AS namespaceId, name, base_revision AS baseRevision, head_revision AS headRevision,
  document_count AS documentCount, changes_since_keyframe AS changesSinceKeyframe, created_at AS createdAt`;
/** The revision columns as {@link RevisionRow} names them. */
export const REVISION_COLUMNS = `namespace_id AS namespaceId, id, branch_id AS branchId, parent_id AS parentId, message,
  created_at AS createdAt, keyframe, root`;
/** Whether revision `r` changed the key bound to the condition's one parameter. */
const TOUCHES_KEY = `SELECT 1 FROM store_revision_changes c
  WHERE c.namespace_id = r.namespace_id AND c.revision_id = r.id AND c.key_id = ?`;
const CHECKPOINT_COLUMNS = `c.namespace_id AS namespaceId, c.name, c.revision_id AS revisionId, c.description,
  c.created_at AS createdAt, b.name AS branch`;
const CHECKPOINT_FROM = `store_checkpoints c
  LEFT JOIN store_revisions r ON r.namespace_id = c.namespace_id AND r.id = c.revision_id
  LEFT JOIN store_branches b ON b.id = r.branch_id`;

/**
 * A state as a SQL relation: a branch's materialised head; a keyframe (`from`, 0 for none) of a branch
 * replayed forward through the branch's changes in (`from`, `to`]; or the branch's head with its
 * changes above `to` undone (`back`, for revisions close to the head).
 */
export type StateSource =
  | { readonly kind: 'head'; readonly branchId: number }
  | {
      readonly kind: 'at';
      readonly namespaceId: number;
      readonly branchId: number;
      readonly from: number;
      readonly to: number;
    }
  | { readonly kind: 'back'; readonly branchId: number; readonly to: number };

/** The empty state (no branch has id 0). */
export const EMPTY_STATE: StateSource = { kind: 'head', branchId: 0 };

// Each statement below starts with a CTE `tgt(key_id, blob_id)` holding the source's state.
// Forward (`at`), the latest change of each key wins; backward (`back`), the earliest change above `to`
// holds the key's content at `to` as its `before`. The bare columns of a max() or min() aggregate come
// from the row holding the extreme (documented SQLite behaviour).
const SOURCE_CTE = {
  head: `WITH tgt AS (SELECT key_id, blob_id FROM store_head_state WHERE branch_id = @branch)`,
  at: `WITH latest AS (
      SELECT c.key_id AS key_id, c.after_blob AS blob_id, max(c.revision_id) AS revision_id
      FROM store_revisions r
      JOIN store_revision_changes c ON c.namespace_id = r.namespace_id AND c.revision_id = r.id
      WHERE r.branch_id = @branch AND r.id > @from AND r.id <= @to
      GROUP BY c.key_id),
    tgt AS (
      SELECT s.key_id AS key_id, s.blob_id AS blob_id FROM store_snapshots s
        WHERE s.namespace_id = @ns AND s.revision_id = @from AND s.key_id NOT IN (SELECT key_id FROM latest)
      UNION ALL
      SELECT key_id, blob_id FROM latest WHERE blob_id IS NOT NULL)`,
  back: `WITH earliest AS (
      SELECT c.key_id AS key_id, c.before_blob AS blob_id, min(c.revision_id) AS revision_id
      FROM store_revisions r
      JOIN store_revision_changes c ON c.namespace_id = r.namespace_id AND c.revision_id = r.id
      WHERE r.branch_id = @branch AND r.id > @to
      GROUP BY c.key_id),
    tgt AS (
      SELECT h.key_id AS key_id, h.blob_id AS blob_id FROM store_head_state h
        WHERE h.branch_id = @branch AND h.key_id NOT IN (SELECT key_id FROM earliest)
      UNION ALL
      SELECT key_id, blob_id FROM earliest WHERE blob_id IS NOT NULL)`,
} as const;

// What turns the head of branch @cur into `tgt`: one row per differing key. Point lookups into the
// head's primary key, and one ephemeral index for the deletes (a FULL JOIN of the two CTEs would not
// get an index and degrades to a nested scan).
const DIFF = `, diff AS (
    SELECT t.key_id AS key_id, h.blob_id AS before_blob, t.blob_id AS after_blob FROM tgt t
      LEFT JOIN store_head_state h ON h.branch_id = @cur AND h.key_id = t.key_id
      WHERE h.blob_id IS NOT t.blob_id
    UNION ALL
    SELECT h.key_id, h.blob_id, NULL FROM store_head_state h
      WHERE h.branch_id = @cur AND h.key_id NOT IN (SELECT key_id FROM tgt))`;
// The same against the branch's own recent revision: only the keys changed since can differ, so
// compare those alone (O(changes since), not O(documents)).
const DIFF_OWN_HISTORY = `, diff AS (
    SELECT e.key_id AS key_id, h.blob_id AS before_blob, e.blob_id AS after_blob FROM earliest e
      LEFT JOIN store_head_state h ON h.branch_id = @cur AND h.key_id = e.key_id
      WHERE h.blob_id IS NOT e.blob_id)`;
const CHANGE_TYPE = `CASE WHEN d.before_blob IS NULL THEN 0 WHEN d.after_blob IS NULL THEN 2 ELSE 1 END`;

const DIFF_IDS = `SELECT d.key_id, ${CHANGE_TYPE}, d.before_blob, d.after_blob FROM diff d`;
// Keys and types only: what a diff too large to carry its contents lists (no content is read).
const DIFF_KEYS = `SELECT k.key AS key, ${CHANGE_TYPE} AS type FROM diff d JOIN store_keys k ON k.id = d.key_id ORDER BY k.key`;
const DIFF_TEXT = `SELECT k.key, ${CHANGE_TYPE}, bb.content, ab.content FROM diff d
  JOIN store_keys k ON k.id = d.key_id
  LEFT JOIN store_blobs bb ON bb.id = d.before_blob
  LEFT JOIN store_blobs ab ON ab.id = d.after_blob
  ORDER BY k.key`;

const SOURCE_STATEMENTS = {
  ids: `SELECT key_id, blob_id FROM tgt`,
  // SQLite writes the JSON: 10,000 documents cross into JavaScript as one string, not 10,000 rows.
  // json_quote on both sides rather than json_group_object, which cuts an object key at U+0000 (a
  // legal key) and so could answer with a truncated, duplicated key; same speed, same text otherwise.
  // The state's size (UTF-8 bytes of keys and contents) comes first and the JSON only within @max:
  // octet_length takes a text's size from its record header, so measuring reads no content, and a
  // state of gigabytes is refused without being built.
  json: `, total AS (
      SELECT count(*) AS documents, coalesce(sum(octet_length(k.key) + octet_length(b.content)), 0) AS bytes FROM tgt
      JOIN store_keys k ON k.id = tgt.key_id JOIN store_blobs b ON b.id = tgt.blob_id)
    SELECT total.documents, total.bytes, CASE WHEN total.bytes <= @max THEN (
      SELECT '{' || coalesce(group_concat(json_quote(key) || ':' || json_quote(content), ','), '') || '}' FROM (
        SELECT k.key AS key, b.content AS content FROM tgt
        JOIN store_keys k ON k.id = tgt.key_id JOIN store_blobs b ON b.id = tgt.blob_id ORDER BY k.key))
    END FROM total`,
  // One page of the state in key order (bytewise): each key with its content's id and size.
  page: `SELECT k.key, tgt.blob_id, octet_length(k.key) + octet_length(b.content) FROM tgt
    JOIN store_keys k ON k.id = tgt.key_id JOIN store_blobs b ON b.id = tgt.blob_id
    WHERE k.key > @after ORDER BY k.key LIMIT @limit`,
  diffIds: `${DIFF} ${DIFF_IDS}`,
  diffText: `${DIFF} ${DIFF_TEXT}`,
  diffKeys: `${DIFF} ${DIFF_KEYS}`,
  ownDiffIds: `${DIFF_OWN_HISTORY} ${DIFF_IDS}`,
  ownDiffText: `${DIFF_OWN_HISTORY} ${DIFF_TEXT}`,
  ownDiffKeys: `${DIFF_OWN_HISTORY} ${DIFF_KEYS}`,
  keyframe: `INSERT INTO store_snapshots (namespace_id, revision_id, key_id, blob_id) SELECT @ns, @rev, key_id, blob_id FROM tgt`,
} as const;

type SourceStatement = keyof typeof SOURCE_STATEMENTS;

function sourceParams(source: StateSource): Record<string, number> {
  switch (source.kind) {
    case 'head':
      return { branch: source.branchId };
    case 'at':
      return { ns: source.namespaceId, branch: source.branchId, from: source.from, to: source.to };
    case 'back':
      return { branch: source.branchId, to: source.to };
  }
}

/** Prepared statements over the store tables of one database connection. */
export class StoreRepository {
  readonly sqlite: Database.Database;
  private readonly s;
  private readonly source: Record<StateSource['kind'], Record<SourceStatement, Database.Statement>>;
  // One transaction wrapper, built once: better-sqlite3 builds several closures per transaction().
  private readonly transaction: Database.Transaction<(fn: () => unknown) => unknown>;

  constructor(sqlite: Database.Database) {
    this.sqlite = sqlite;
    this.transaction = sqlite.transaction((fn: () => unknown) => fn());
    const p = (source: string) => sqlite.prepare(source);
    const bySource = (kind: StateSource['kind']) =>
      Object.fromEntries(
        Object.entries(SOURCE_STATEMENTS).flatMap(([name, body]) => {
          // The own-history diff needs the `earliest` CTE, which only the backward form has.
          if (name.startsWith('own') && kind !== 'back') return [];
          const statement = p(`${SOURCE_CTE[kind]} ${body}`);
          return [[name, name === 'keyframe' || name.endsWith('Keys') ? statement : statement.raw()]];
        }),
      ) as Record<SourceStatement, Database.Statement>;
    this.source = { head: bySource('head'), at: bySource('at'), back: bySource('back') };
    this.s = {
      namespaceByName: p(
        `SELECT id, name, last_revision AS lastRevision, created_at AS createdAt FROM store_namespaces WHERE name = ?`,
      ),
      namespaceInsert: p(`INSERT INTO store_namespaces (name, last_revision, created_at) VALUES (?, 0, ?)`),
      namespaceNextRevision: p(
        `UPDATE store_namespaces SET last_revision = last_revision + 1 WHERE id = ? RETURNING last_revision`,
      ).pluck(),
      // A namespace whose branches were all deleted keeps its row (its revision ids are never reused) but
      // leaves the listing, unless a checkpoint still lives in it.
      namespacePage: p(`SELECT id, name, last_revision AS lastRevision, created_at AS createdAt FROM store_namespaces n
        WHERE name > ? AND (EXISTS (SELECT 1 FROM store_branches b WHERE b.namespace_id = n.id)
          OR EXISTS (SELECT 1 FROM store_checkpoints c WHERE c.namespace_id = n.id))
        ORDER BY name LIMIT ?`),
      namespaceAll: p(
        `SELECT id, name, last_revision AS lastRevision, created_at AS createdAt FROM store_namespaces ORDER BY id`,
      ),
      namespaceCounts: p(`SELECT
        (SELECT count(*) FROM store_branches WHERE namespace_id = @ns) AS branches,
        (SELECT count(*) FROM store_revisions WHERE namespace_id = @ns) AS revisions,
        (SELECT count(*) FROM store_checkpoints WHERE namespace_id = @ns) AS checkpoints,
        (SELECT coalesce(max(head_revision), 0) FROM store_branches WHERE namespace_id = @ns) AS headRevision`),

      branchByName: p(`SELECT ${BRANCH_COLUMNS} FROM store_branches WHERE namespace_id = ? AND name = ?`),
      branchById: p(`SELECT ${BRANCH_COLUMNS} FROM store_branches WHERE id = ?`),
      branchInsert: p(`INSERT INTO store_branches (namespace_id, name, base_revision, head_revision, document_count,
        changes_since_keyframe, created_at) VALUES (?, ?, ?, 0, 0, 0, ?)`),
      branchUpdateHead: p(
        `UPDATE store_branches SET head_revision = ?, document_count = ?, changes_since_keyframe = ? WHERE id = ?`,
      ),
      branchResetKeyframeCounter: p(`UPDATE store_branches SET changes_since_keyframe = 0 WHERE id = ?`),
      branchPage: p(
        `SELECT ${BRANCH_COLUMNS} FROM store_branches WHERE namespace_id = ? AND name > ? ORDER BY name LIMIT ?`,
      ),
      branchesOfNamespace: p(`SELECT ${BRANCH_COLUMNS} FROM store_branches WHERE namespace_id = ? ORDER BY id`),
      branchCheckpointHolder: p(`SELECT c.name, c.revision_id FROM store_checkpoints c
        JOIN store_revisions r ON r.namespace_id = c.namespace_id AND r.id = c.revision_id
        WHERE r.branch_id = ? ORDER BY c.name LIMIT 1`).raw(),
      branchBaseHolder: p(`SELECT b.name, b.base_revision FROM store_branches b
        JOIN store_revisions r ON r.namespace_id = b.namespace_id AND r.id = b.base_revision
        WHERE r.branch_id = ? AND b.id <> r.branch_id ORDER BY b.name LIMIT 1`).raw(),
      branchChangesDelete: p(`DELETE FROM store_revision_changes WHERE namespace_id = ? AND revision_id IN
        (SELECT id FROM store_revisions WHERE branch_id = ?)`),
      branchSnapshotsDelete: p(`DELETE FROM store_snapshots WHERE namespace_id = ? AND revision_id IN
        (SELECT id FROM store_revisions WHERE branch_id = ?)`),
      branchRevisionsDelete: p(`DELETE FROM store_revisions WHERE branch_id = ?`),
      branchHeadDelete: p(`DELETE FROM store_head_state WHERE branch_id = ?`),
      branchDelete: p(`DELETE FROM store_branches WHERE id = ?`),
      branchRename: p(`UPDATE store_branches SET name = ? WHERE id = ?`),
      branchMergesDelete: p(`DELETE FROM store_merges WHERE branch_id = ? OR from_branch_id = ?`),

      mergeInsert: p(`INSERT INTO store_merges (namespace_id, revision_id, branch_id, from_branch_id, from_revision)
        VALUES (?, ?, ?, ?, ?)`),
      mergesInto: p(`SELECT revision_id AS revisionId, from_branch_id AS fromBranchId, from_revision AS fromRevision
        FROM store_merges WHERE branch_id = ? AND from_branch_id <> branch_id ORDER BY revision_id`),
      restartsOf: p(`SELECT revision_id AS revisionId, from_revision AS target
        FROM store_merges WHERE branch_id = ? AND from_branch_id = branch_id ORDER BY revision_id`),
      mergedRevisions: p(`SELECT from_revision FROM store_merges WHERE namespace_id = ?`).pluck(),

      keyId: p(`SELECT id FROM store_keys WHERE key = ?`).pluck(),
      keyInsert: p(`INSERT INTO store_keys (key) VALUES (?)`),
      keyText: p(`SELECT key FROM store_keys WHERE id = ?`).pluck(),

      blobsByHash: p(`SELECT id, content FROM store_blobs WHERE hash = ?`).raw(),
      blobInsert: p(`INSERT INTO store_blobs (hash, content) VALUES (?, ?)`),
      blobContent: p(`SELECT content FROM store_blobs WHERE id = ?`).pluck(),
      blobBytes: p(`SELECT octet_length(content) FROM store_blobs WHERE id = ?`).pluck(),
      blobHash: p(`SELECT hex(hash) FROM store_blobs WHERE id = ?`).pluck(),
      // A JSON object from a JSON array of [key, blob id] pairs, in the array's order, written by SQLite
      // as a whole state is: one string crosses into JavaScript, not every content and then their JSON.
      pairsJson: p(`SELECT '{' || coalesce(group_concat(json_quote(key) || ':' || json_quote(content), ','), '') || '}'
        FROM (SELECT j.value ->> 0 AS key, b.content AS content FROM json_each(?) j
          JOIN store_blobs b ON b.id = j.value ->> 1 ORDER BY j.key)`).pluck(),

      headBlob: p(`SELECT blob_id FROM store_head_state WHERE branch_id = ? AND key_id = ?`).pluck(),
      headUpsert: p(`INSERT INTO store_head_state (branch_id, key_id, blob_id) VALUES (?, ?, ?)
        ON CONFLICT (branch_id, key_id) DO UPDATE SET blob_id = excluded.blob_id`),
      headDelete: p(`DELETE FROM store_head_state WHERE branch_id = ? AND key_id = ?`),
      headMap: p(`SELECT key_id, blob_id FROM store_head_state WHERE branch_id = ?`).raw(),

      revisionInsert:
        p(`INSERT INTO store_revisions (namespace_id, id, branch_id, parent_id, message, created_at, keyframe, root)
        VALUES (?, ?, ?, ?, ?, ?, 0, 0)`),
      revision: p(`SELECT ${REVISION_COLUMNS} FROM store_revisions WHERE namespace_id = ? AND id = ?`),
      revisionCount: p(`SELECT count(*) FROM store_revisions WHERE branch_id = ?`).pluck(),
      revisionPage: p(
        `SELECT ${REVISION_COLUMNS} FROM store_revisions WHERE branch_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
      ),
      // A document's history walks the branch's revisions newest first and keeps those with a change
      // of the key (a primary-key lookup each), so no index is kept up on every write for it.
      revisionPageTouching: p(
        `SELECT ${REVISION_COLUMNS} FROM store_revisions r WHERE branch_id = ? AND id < ? AND EXISTS (${TOUCHES_KEY})
          ORDER BY id DESC LIMIT ?`,
      ),
      revisionCountTouching: p(
        `SELECT count(*) FROM store_revisions r WHERE branch_id = ? AND EXISTS (${TOUCHES_KEY})`,
      ).pluck(),
      // A log between two times: one pass over the creation-time index (covering: it holds the ids) for
      // the count and the id range; the page then walks the id index within that range only. The unary
      // `+` keeps the page's plan off the creation-time index, which would sort the whole window per page.
      revisionSpanWithin: p(`SELECT count(*), coalesce(min(id), 0), coalesce(max(id), 0) FROM store_revisions
        WHERE branch_id = @branch AND created_at >= @since AND created_at < @until`).raw(),
      revisionPageWithin: p(`SELECT ${REVISION_COLUMNS} FROM store_revisions WHERE branch_id = @branch
        AND id < @below AND id >= @oldest AND +created_at >= @since AND +created_at < @until
        ORDER BY id DESC LIMIT @limit`),
      revisionPageTouchingWithin: p(`SELECT ${REVISION_COLUMNS} FROM store_revisions r WHERE branch_id = @branch
        AND id < @below AND id >= @oldest AND +created_at >= @since AND +created_at < @until
        AND EXISTS (${TOUCHES_KEY.replace('?', '@key')}) ORDER BY id DESC LIMIT @limit`),
      revisionCountTouchingWithin: p(`SELECT count(*) FROM store_revisions r
        WHERE branch_id = @branch AND created_at >= @since AND created_at < @until
        AND EXISTS (${TOUCHES_KEY.replace('?', '@key')})`).pluck(),
      // Roots are keyframes, so the partial keyframe index finds them.
      rootWithin: p(
        `SELECT 1 FROM store_revisions WHERE branch_id = ? AND keyframe = 1 AND id > ? AND id <= ? AND root = 1 LIMIT 1`,
      ).pluck(),
      keyframeAtOrBefore: p(
        `SELECT max(id) FROM store_revisions WHERE branch_id = ? AND id <= ? AND keyframe = 1`,
      ).pluck(),
      revisionMarkKeyframe: p(`UPDATE store_revisions SET keyframe = 1 WHERE namespace_id = ? AND id = ?`),
      revisionMarkRoot: p(`UPDATE store_revisions SET root = 1 WHERE namespace_id = ? AND id = ?`),
      revisionsOfNamespace: p(
        `SELECT id, branch_id, parent_id, keyframe FROM store_revisions WHERE namespace_id = ? ORDER BY id`,
      ).raw(),
      revisionDelete: p(`DELETE FROM store_revisions WHERE namespace_id = ? AND id BETWEEN ? AND ?`),

      changeInsert:
        p(`INSERT INTO store_revision_changes (namespace_id, revision_id, key_id, type, before_blob, after_blob)
        VALUES (?, ?, ?, ?, ?, ?)`),
      changeRowsOfRevision: p(`SELECT key_id, type, before_blob, after_blob FROM store_revision_changes
        WHERE namespace_id = ? AND revision_id = ?`).raw(),
      changesOfRevision: p(`SELECT k.key, c.type, bb.content, ab.content FROM store_revision_changes c
        JOIN store_keys k ON k.id = c.key_id
        LEFT JOIN store_blobs bb ON bb.id = c.before_blob
        LEFT JOIN store_blobs ab ON ab.id = c.after_blob
        WHERE c.namespace_id = ? AND c.revision_id = ? ORDER BY k.key`).raw(),
      // Sizes come from the record headers (octet_length reads no content): a revision's contents are
      // measured before any is built into an answer.
      changesBytesOfRevision: p(`SELECT
        coalesce(sum(coalesce(octet_length(bb.content), 0) + coalesce(octet_length(ab.content), 0)), 0)
        FROM store_revision_changes c
        LEFT JOIN store_blobs bb ON bb.id = c.before_blob
        LEFT JOIN store_blobs ab ON ab.id = c.after_blob
        WHERE c.namespace_id = ? AND c.revision_id = ?`).pluck(),
      changeKeysOfRevision: p(`SELECT k.key, c.type FROM store_revision_changes c
        JOIN store_keys k ON k.id = c.key_id
        WHERE c.namespace_id = ? AND c.revision_id = ? ORDER BY k.key`),
      changesPageOfRevision: p(`SELECT k.key, c.type, c.before_blob, c.after_blob,
        coalesce(octet_length(bb.content), 0) + coalesce(octet_length(ab.content), 0) FROM store_revision_changes c
        JOIN store_keys k ON k.id = c.key_id
        LEFT JOIN store_blobs bb ON bb.id = c.before_blob
        LEFT JOIN store_blobs ab ON ab.id = c.after_blob
        WHERE c.namespace_id = ? AND c.revision_id = ? AND k.key > ? ORDER BY k.key LIMIT ?`).raw(),
      changeSizesPageOfRevision: p(`SELECT k.key, c.type, octet_length(bb.content), octet_length(ab.content)
        FROM store_revision_changes c
        JOIN store_keys k ON k.id = c.key_id
        LEFT JOIN store_blobs bb ON bb.id = c.before_blob
        LEFT JOIN store_blobs ab ON ab.id = c.after_blob
        WHERE c.namespace_id = ? AND c.revision_id = ? AND k.key > ? ORDER BY k.key LIMIT ?`).raw(),
      changeOfRevisionKey: p(`SELECT k.key, c.type, c.before_blob, c.after_blob,
        octet_length(bb.content), octet_length(ab.content) FROM store_revision_changes c
        JOIN store_keys k ON k.id = c.key_id
        LEFT JOIN store_blobs bb ON bb.id = c.before_blob
        LEFT JOIN store_blobs ab ON ab.id = c.after_blob
        WHERE c.namespace_id = ? AND c.revision_id = ? AND c.key_id = ?`).raw(),
      changesDelete: p(`DELETE FROM store_revision_changes WHERE namespace_id = ? AND revision_id BETWEEN ? AND ?`),

      snapshotFromHead: p(`INSERT INTO store_snapshots (namespace_id, revision_id, key_id, blob_id)
        SELECT ?, ?, key_id, blob_id FROM store_head_state WHERE branch_id = ?`),
      snapshotInsert: p(`INSERT INTO store_snapshots (namespace_id, revision_id, key_id, blob_id) VALUES (?, ?, ?, ?)`),
      snapshotDelete: p(`DELETE FROM store_snapshots WHERE namespace_id = ? AND revision_id BETWEEN ? AND ?`),

      checkpoint: p(`SELECT ${CHECKPOINT_COLUMNS} FROM ${CHECKPOINT_FROM} WHERE c.namespace_id = ? AND c.name = ?`),
      checkpointUpsert: p(`INSERT INTO store_checkpoints (namespace_id, name, revision_id, description, created_at)
        VALUES (?, ?, ?, ?, ?) ON CONFLICT (namespace_id, name) DO UPDATE SET
        revision_id = excluded.revision_id, description = excluded.description, created_at = excluded.created_at`),
      checkpointDelete: p(`DELETE FROM store_checkpoints WHERE namespace_id = ? AND name = ?`),
      checkpointPage: p(
        `SELECT ${CHECKPOINT_COLUMNS} FROM ${CHECKPOINT_FROM} WHERE c.namespace_id = ? AND c.name > ? ORDER BY c.name LIMIT ?`,
      ),
      checkpointRevisions: p(`SELECT revision_id FROM store_checkpoints WHERE namespace_id = ?`).pluck(),

      blobsMarkUnreferenced: p(`INSERT OR IGNORE INTO store_unreferenced_blobs (blob_id)
        SELECT id FROM store_blobs WHERE id NOT IN (
        SELECT blob_id FROM store_head_state UNION SELECT blob_id FROM store_snapshots
        UNION SELECT before_blob FROM store_revision_changes WHERE before_blob IS NOT NULL
        UNION SELECT after_blob FROM store_revision_changes WHERE after_blob IS NOT NULL)`),
      blobUnmark: p(`DELETE FROM store_unreferenced_blobs WHERE blob_id = ?`),
      unreferencedBatchEnd: p(
        `SELECT max(blob_id) FROM (SELECT blob_id FROM store_unreferenced_blobs ORDER BY blob_id LIMIT ?)`,
      ).pluck(),
      unreferencedBlobsDelete: p(
        `DELETE FROM store_blobs WHERE id IN (SELECT blob_id FROM store_unreferenced_blobs WHERE blob_id <= ?)`,
      ),
      unreferencedMarksDelete: p(`DELETE FROM store_unreferenced_blobs WHERE blob_id <= ?`),
      unreferencedListed: p(`SELECT 1 FROM store_unreferenced_blobs LIMIT 1`).pluck(),
      unreferencedMarksClear: p(`DELETE FROM store_unreferenced_blobs`),
      keysDeleteUnreferenced: p(`DELETE FROM store_keys WHERE id NOT IN (
        SELECT key_id FROM store_head_state UNION SELECT key_id FROM store_snapshots
        UNION SELECT key_id FROM store_revision_changes)`),
    };
  }

  /** Runs `fn` in one `BEGIN IMMEDIATE` transaction: the write lock is taken before the first read. */
  write<T>(fn: () => T): T {
    return this.transaction.immediate(fn) as T;
  }

  /** Runs `fn` in one read transaction, so multi-statement reads see one snapshot. */
  read<T>(fn: () => T): T {
    return this.transaction.deferred(fn) as T;
  }

  // ── namespaces ────────────────────────────────────────────────────────────

  namespace(name: string): NamespaceRow | undefined {
    return this.s.namespaceByName.get(name) as NamespaceRow | undefined;
  }

  /** The namespace, created when missing. */
  ensureNamespace(name: string, now: number): NamespaceRow {
    const found = this.namespace(name);
    if (found) return found;
    const id = Number(this.s.namespaceInsert.run(name, now).lastInsertRowid);
    return { id, name, lastRevision: 0, createdAt: now };
  }

  /** Takes the next revision id of the namespace. */
  nextRevisionId(namespaceId: number): number {
    return this.s.namespaceNextRevision.get(namespaceId) as number;
  }

  namespacePage(after: string, limit: number): NamespaceRow[] {
    return this.s.namespacePage.all(after, limit) as NamespaceRow[];
  }

  allNamespaces(): NamespaceRow[] {
    return this.s.namespaceAll.all() as NamespaceRow[];
  }

  /** A namespace's counts, and the newest head of its branches (0 before its first write). */
  namespaceCounts(namespaceId: number): {
    branches: number;
    revisions: number;
    checkpoints: number;
    headRevision: number;
  } {
    return this.s.namespaceCounts.get({ ns: namespaceId }) as {
      branches: number;
      revisions: number;
      checkpoints: number;
      headRevision: number;
    };
  }

  // ── branches ──────────────────────────────────────────────────────────────

  branch(namespaceId: number, name: string): BranchRow | undefined {
    return this.s.branchByName.get(namespaceId, name) as BranchRow | undefined;
  }

  branchById(id: number): BranchRow | undefined {
    return this.s.branchById.get(id) as BranchRow | undefined;
  }

  insertBranch(namespaceId: number, name: string, baseRevision: number, now: number): BranchRow {
    const id = Number(this.s.branchInsert.run(namespaceId, name, baseRevision, now).lastInsertRowid);
    return {
      id,
      namespaceId,
      name,
      baseRevision,
      headRevision: 0,
      documentCount: 0,
      changesSinceKeyframe: 0,
      createdAt: now,
    };
  }

  updateBranchHead(branchId: number, head: number, documentCount: number, changesSinceKeyframe: number): void {
    this.s.branchUpdateHead.run(head, documentCount, changesSinceKeyframe, branchId);
  }

  resetKeyframeCounter(branchId: number): void {
    this.s.branchResetKeyframeCounter.run(branchId);
  }

  branchPage(namespaceId: number, after: string, limit: number): BranchRow[] {
    return this.s.branchPage.all(namespaceId, after, limit) as BranchRow[];
  }

  branchesOf(namespaceId: number): BranchRow[] {
    return this.s.branchesOfNamespace.all(namespaceId) as BranchRow[];
  }

  /** A checkpoint pointing at one of the branch's revisions, as `[name, revision]`, if any. */
  checkpointOnBranch(branchId: number): [string, number] | undefined {
    return this.s.branchCheckpointHolder.get(branchId) as [string, number] | undefined;
  }

  /** Another branch created from one of the branch's revisions, as `[name, base revision]`, if any. */
  branchBasedOn(branchId: number): [string, number] | undefined {
    return this.s.branchBaseHolder.get(branchId) as [string, number] | undefined;
  }

  /** Gives a branch another name (every other row refers to it by id). */
  renameBranch(branchId: number, name: string): void {
    this.s.branchRename.run(name, branchId);
  }

  /** Deletes a branch with its head state and every revision of it; returns how many revisions went. */
  deleteBranch(branch: BranchRow): number {
    this.s.branchChangesDelete.run(branch.namespaceId, branch.id);
    this.s.branchSnapshotsDelete.run(branch.namespaceId, branch.id);
    const revisions = this.s.branchRevisionsDelete.run(branch.id).changes;
    this.s.branchHeadDelete.run(branch.id);
    // Merges into it went with its revisions, and merges from it point at revisions that are gone.
    this.s.branchMergesDelete.run(branch.id, branch.id);
    this.s.branchDelete.run(branch.id);
    return revisions;
  }

  // ── merges ────────────────────────────────────────────────────────────────

  /** Records that merge revision `revisionId` of branch `branchId` took `fromRevision` of `fromBranchId`. */
  insertMerge(namespaceId: number, revisionId: number, branchId: number, fromBranchId: number, fromRevision: number) {
    this.s.mergeInsert.run(namespaceId, revisionId, branchId, fromBranchId, fromRevision);
  }

  /** The merges recorded on a branch, oldest first. */
  mergesInto(branchId: number): MergeRow[] {
    return this.s.mergesInto.all(branchId) as MergeRow[];
  }

  /**
   * Records that revision `revisionId` of branch `branchId` returned it to `target` (a revision its line
   * reached, or 0). Kept in `store_merges` as a row that names its own branch as the source, which no merge
   * can (a branch never merges itself): gc keeps `target` as it keeps a merged head, and branch deletion
   * drops the row with the branch.
   */
  insertRestart(namespaceId: number, revisionId: number, branchId: number, target: number) {
    this.s.mergeInsert.run(namespaceId, revisionId, branchId, branchId, target);
  }

  /** Where a branch's line restarted (rollbacks and restores to its own history), oldest first. */
  restartsOf(branchId: number): RestartRow[] {
    return this.s.restartsOf.all(branchId) as RestartRow[];
  }

  /** The source revisions every recorded merge of a namespace took (gc keeps them: merge bases can be any). */
  mergedRevisions(namespaceId: number): number[] {
    return this.s.mergedRevisions.all(namespaceId) as number[];
  }

  // ── keys and blobs ────────────────────────────────────────────────────────

  keyId(key: string): number | undefined {
    return this.s.keyId.get(key) as number | undefined;
  }

  /** The id of a key, interned when new. */
  ensureKey(key: string): number {
    return this.keyId(key) ?? Number(this.s.keyInsert.run(key).lastInsertRowid);
  }

  keyText(id: number): string {
    return this.s.keyText.get(id) as string;
  }

  /**
   * The id of a content, stored when new; equal hash prefixes are confirmed by comparing content. A
   * content found again is in use from here on: it leaves the sweep's list in this same transaction.
   */
  ensureBlob(content: string): number {
    const hash = contentHash(content);
    for (const [id, stored] of this.s.blobsByHash.all(hash) as [number, string][]) {
      if (stored !== content) continue;
      this.s.blobUnmark.run(id);
      return id;
    }
    return Number(this.s.blobInsert.run(hash, content).lastInsertRowid);
  }

  content(blobId: number): string {
    return this.s.blobContent.get(blobId) as string;
  }

  /** UTF-8 bytes of a content, read from its record header (the content itself is not read). */
  contentBytes(blobId: number): number {
    return this.s.blobBytes.get(blobId) as number;
  }

  /** The stored hash prefix of a content, in hex (the content itself is not read). */
  contentHashOf(blobId: number): string {
    return this.s.blobHash.get(blobId) as string;
  }

  /** A JSON object of each key to the content of its blob, keys in the order given. */
  contentsJson(pairs: readonly (readonly [string, number])[]): string {
    return this.s.pairsJson.get(JSON.stringify(pairs)) as string;
  }

  /** Content of a nullable blob reference. */
  contentOrUndefined(blobId: number | null): string | undefined {
    return blobId === null ? undefined : this.content(blobId);
  }

  // ── head state ────────────────────────────────────────────────────────────

  headBlob(branchId: number, keyId: number): number | undefined {
    return this.s.headBlob.get(branchId, keyId) as number | undefined;
  }

  setHead(branchId: number, keyId: number, blobId: number | null): void {
    if (blobId === null) this.s.headDelete.run(branchId, keyId);
    else this.s.headUpsert.run(branchId, keyId, blobId);
  }

  headMap(branchId: number): BlobMap {
    return new Map(this.s.headMap.all(branchId) as [number, number][]);
  }

  // ── revisions and changes ─────────────────────────────────────────────────

  insertRevision(row: Omit<RevisionRow, 'keyframe' | 'root'>): void {
    this.s.revisionInsert.run(row.namespaceId, row.id, row.branchId, row.parentId, row.message, row.createdAt);
  }

  revision(namespaceId: number, id: number): RevisionRow | undefined {
    return this.s.revision.get(namespaceId, id) as RevisionRow | undefined;
  }

  /** How many revisions a branch's log holds (those written on it, not its base's). */
  revisionCount(branchId: number): number {
    return this.s.revisionCount.get(branchId) as number;
  }

  /** Revisions of a branch below `before`, newest first. */
  revisionPage(branchId: number, before: number, limit: number): RevisionRow[] {
    return this.s.revisionPage.all(branchId, before, limit) as RevisionRow[];
  }

  /** Revisions of a branch below `before` that changed a key, newest first. */
  revisionPageTouching(branchId: number, keyId: number, before: number, limit: number): RevisionRow[] {
    return this.s.revisionPageTouching.all(branchId, before, keyId, limit) as RevisionRow[];
  }

  /** How many revisions of a branch changed a key. */
  revisionCountTouching(branchId: number, keyId: number): number {
    return this.s.revisionCountTouching.get(branchId, keyId) as number;
  }

  /** How many revisions of a branch were created within [`since`, `until`), and their lowest and highest ids. */
  revisionSpanWithin(branchId: number, since: number, until: number): RevisionSpan {
    const [count, oldest, newest] = this.s.revisionSpanWithin.get({ branch: branchId, since, until }) as [
      number,
      number,
      number,
    ];
    return { count, oldest, newest };
  }

  /** Revisions of a branch in a range of ids and creation times, newest first. */
  revisionPageWithin(branchId: number, range: RevisionRange, limit: number): RevisionRow[] {
    return this.s.revisionPageWithin.all({ branch: branchId, ...range, limit }) as RevisionRow[];
  }

  /** Like {@link revisionPageWithin}, only the revisions that changed a key. */
  revisionPageTouchingWithin(branchId: number, keyId: number, range: RevisionRange, limit: number): RevisionRow[] {
    return this.s.revisionPageTouchingWithin.all({ branch: branchId, key: keyId, ...range, limit }) as RevisionRow[];
  }

  /** How many revisions of a branch created within [`since`, `until`) changed a key. */
  revisionCountTouchingWithin(branchId: number, keyId: number, since: number, until: number): number {
    return this.s.revisionCountTouchingWithin.get({ branch: branchId, key: keyId, since, until }) as number;
  }

  /** The newest keyframe of a branch at or below `revision`, 0 when none. */
  keyframeAtOrBefore(branchId: number, revision: number): number {
    return (this.s.keyframeAtOrBefore.get(branchId, revision) as number | null) ?? 0;
  }

  markRoot(namespaceId: number, id: number): void {
    this.s.revisionMarkRoot.run(namespaceId, id);
  }

  /** `[id, branch_id, parent_id, keyframe]` of every revision of a namespace, oldest first. */
  revisionsOf(namespaceId: number): [number, number, number, number][] {
    return this.s.revisionsOfNamespace.all(namespaceId) as [number, number, number, number][];
  }

  /** Deletes the revisions `from`..`to` (inclusive) of a namespace with their change rows and keyframes. */
  deleteRevisions(namespaceId: number, from: number, to: number): void {
    this.s.changesDelete.run(namespaceId, from, to);
    this.s.snapshotDelete.run(namespaceId, from, to);
    this.s.revisionDelete.run(namespaceId, from, to);
  }

  insertChange(namespaceId: number, revisionId: number, change: ChangeRow): void {
    this.s.changeInsert.run(namespaceId, revisionId, change.keyId, change.type, change.beforeBlob, change.afterBlob);
  }

  /** Changes of one revision in id space, in no particular order. */
  changeRowsOf(namespaceId: number, revisionId: number): ChangeRow[] {
    const rows = this.s.changeRowsOfRevision.all(namespaceId, revisionId) as [
      number,
      0 | 1 | 2,
      number | null,
      number | null,
    ][];
    return rows.map(([keyId, type, beforeBlob, afterBlob]) => ({ keyId, type, beforeBlob, afterBlob }));
  }

  /** Changes of one revision with key text and contents, sorted by key bytes. */
  changesOf(namespaceId: number, revisionId: number): ChangeTextRow[] {
    return this.s.changesOfRevision.all(namespaceId, revisionId) as ChangeTextRow[];
  }

  /** UTF-8 bytes of the contents before and after every change of one revision. */
  changesBytes(namespaceId: number, revisionId: number): number {
    return this.s.changesBytesOfRevision.get(namespaceId, revisionId) as number;
  }

  /** Keys and types of the changes of one revision, sorted by key bytes. */
  changeKeysOf(namespaceId: number, revisionId: number): { key: string; type: 0 | 1 | 2 }[] {
    return this.s.changeKeysOfRevision.all(namespaceId, revisionId) as { key: string; type: 0 | 1 | 2 }[];
  }

  /** Up to `limit` changes of one revision with keys after `after`, by key bytes, their contents by id and size. */
  changesPage(namespaceId: number, revisionId: number, after: string, limit: number): ChangePageRow[] {
    return this.s.changesPageOfRevision.all(namespaceId, revisionId, after, limit) as ChangePageRow[];
  }

  /**
   * Up to `limit` changes of one revision (-1: all) with keys after `after`, by key bytes, with the sizes
   * of their contents and no content read.
   */
  changeSizesPage(namespaceId: number, revisionId: number, after: string, limit: number): ChangeSizeRow[] {
    return this.s.changeSizesPageOfRevision.all(namespaceId, revisionId, after, limit) as ChangeSizeRow[];
  }

  /** The change one revision made to the document `keyId`, its contents by id and size; undefined when none. */
  changeOfKey(namespaceId: number, revisionId: number, keyId: number): KeyChangeRow | undefined {
    return this.s.changeOfRevisionKey.get(namespaceId, revisionId, keyId) as KeyChangeRow | undefined;
  }

  // ── keyframes and reconstruction ──────────────────────────────────────────

  /** Writes the branch's head state as the keyframe of `revisionId` (which must be its head). */
  keyframeFromHead(namespaceId: number, revisionId: number, branchId: number): void {
    this.s.snapshotFromHead.run(namespaceId, revisionId, branchId);
    this.s.revisionMarkKeyframe.run(namespaceId, revisionId);
  }

  /** Writes the state of `source` as the keyframe of `revisionId`. */
  keyframeFromSource(namespaceId: number, revisionId: number, source: StateSource): void {
    this.sourceStatement(source, 'keyframe').run({ ...sourceParams(source), ns: namespaceId, rev: revisionId });
    this.s.revisionMarkKeyframe.run(namespaceId, revisionId);
  }

  /** The state of `source` in id space. */
  stateMap(source: StateSource): BlobMap {
    return new Map(this.sourceStatement(source, 'ids').all(sourceParams(source)) as [number, number][]);
  }

  /**
   * The size of the state of `source` and, when it is at most `maxBytes`, its JSON: an object of key to
   * content, keys in byte order.
   */
  stateJson(source: StateSource, maxBytes: number): SizedStateJson {
    const [documents, bytes, json] = this.sourceStatement(source, 'json').get({
      ...sourceParams(source),
      max: maxBytes,
    }) as [number, number, string | null];
    return { documents, bytes, json };
  }

  /** Up to `limit` documents of the state of `source` with keys after `after`, in key order, without contents. */
  statePage(source: StateSource, after: string, limit: number): StatePageRow[] {
    return this.sourceStatement(source, 'page').all({ ...sourceParams(source), after, limit }) as StatePageRow[];
  }

  /** The changes that turn the head of branch `currentBranchId` (0: none) into `source`, in id space. */
  diffIds(currentBranchId: number, source: StateSource): ChangeRow[] {
    const rows = this.diffStatement(currentBranchId, source, 'diffIds').all({
      ...sourceParams(source),
      cur: currentBranchId,
    }) as [number, 0 | 1 | 2, number | null, number | null][];
    return rows.map(([keyId, type, beforeBlob, afterBlob]) => ({ keyId, type, beforeBlob, afterBlob }));
  }

  /**
   * Like {@link diffIds}, with key text and contents, sorted by key bytes; read one row at a time, so
   * a caller can drop contents as they come. Run no other statement before the iteration ends.
   */
  diffText(currentBranchId: number, source: StateSource): IterableIterator<ChangeTextRow> {
    return this.diffStatement(currentBranchId, source, 'diffText').iterate({
      ...sourceParams(source),
      cur: currentBranchId,
    }) as IterableIterator<ChangeTextRow>;
  }

  private sourceStatement(source: StateSource, name: SourceStatement): Database.Statement {
    return this.source[source.kind][name];
  }

  /** Like {@link diffText}, keys and types only. */
  diffKeys(currentBranchId: number, source: StateSource): { key: string; type: 0 | 1 | 2 }[] {
    return this.diffStatement(currentBranchId, source, 'diffKeys').all({
      ...sourceParams(source),
      cur: currentBranchId,
    }) as { key: string; type: 0 | 1 | 2 }[];
  }

  private diffStatement(
    currentBranchId: number,
    source: StateSource,
    name: 'diffIds' | 'diffText' | 'diffKeys',
  ): Database.Statement {
    if (source.kind === 'back' && source.branchId === currentBranchId) {
      const own = { diffIds: 'ownDiffIds', diffText: 'ownDiffText', diffKeys: 'ownDiffKeys' } as const;
      return this.source.back[own[name]];
    }
    return this.sourceStatement(source, name);
  }

  /** True when garbage collection left a gap in the branch's history within (`above`, `upTo`]. */
  rootWithin(branchId: number, above: number, upTo: number): boolean {
    return this.s.rootWithin.get(branchId, above, upTo) !== undefined;
  }

  // ── checkpoints ───────────────────────────────────────────────────────────

  checkpoint(namespaceId: number, name: string): CheckpointRow | undefined {
    return this.s.checkpoint.get(namespaceId, name) as CheckpointRow | undefined;
  }

  upsertCheckpoint(namespaceId: number, name: string, revisionId: number, description: string, now: number): void {
    this.s.checkpointUpsert.run(namespaceId, name, revisionId, description, now);
  }

  /** Deletes a checkpoint; false when there was none. */
  deleteCheckpoint(namespaceId: number, name: string): boolean {
    return this.s.checkpointDelete.run(namespaceId, name).changes > 0;
  }

  checkpointPage(namespaceId: number, after: string, limit: number): CheckpointRow[] {
    return this.s.checkpointPage.all(namespaceId, after, limit) as CheckpointRow[];
  }

  checkpointRevisions(namespaceId: number): number[] {
    return this.s.checkpointRevisions.all(namespaceId) as number[];
  }

  // ── garbage collection ────────────────────────────────────────────────────

  /**
   * Deletes the keys nothing references any more and lists the contents nothing references for
   * {@link sweepUnreferenced}: finding them is one pass over the references, while deleting them frees
   * every page of their text, which is what takes long. Returns how many contents were newly listed.
   */
  markUnreferenced(): number {
    this.s.keysDeleteUnreferenced.run();
    return this.s.blobsMarkUnreferenced.run().changes;
  }

  /**
   * Lists anew, from the references themselves, the contents left listed by a process that stopped
   * before its sweep ended: whatever wrote to the database since (a version that did not keep the list,
   * a hand edit) may have put one of them back in use. Nothing to do, and no pass over the references,
   * when nothing is listed.
   */
  relistUnreferenced(): number {
    if (this.s.unreferencedListed.get() === undefined) return 0;
    this.s.unreferencedMarksClear.run();
    return this.s.blobsMarkUnreferenced.run().changes;
  }

  /** Deletes up to `limit` listed contents (lowest ids first) with their marks; returns how many went. */
  sweepUnreferenced(limit: number): number {
    const upTo = this.s.unreferencedBatchEnd.get(limit) as number | null;
    if (upTo === null) return 0;
    this.s.unreferencedBlobsDelete.run(upTo);
    return this.s.unreferencedMarksDelete.run(upTo).changes;
  }
}
