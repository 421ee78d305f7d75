/** What kind of expected failure a store operation hit; the HTTP layer maps each to a status. */
export type StoreErrorKind = 'invalid' | 'not_found' | 'conflict' | 'too_large';

/**
 * Why a write was refused with 409, for clients that must not parse English: `head_moved` (an
 * `expected_revision` or `expected_from_revision` that is not the head), `merge_conflict`,
 * `revert_conflict`, `cherry_pick_conflict`, `already_applied` (a cherry-pick of a revision the branch
 * already holds, or of a branch's starting copy), `exists` (a name taken), `in_use` (a branch deletion
 * while a checkpoint or another branch's base holds one of its revisions), `not_merged` (a guarded
 * branch deletion), `in_progress` (an `Idempotency-Key` another request still holds) and
 * `checkpoint_moved` (a checkpoint no longer marks the `expected_revision` a deletion or move sent).
 */
export type ConflictReason =
  | 'head_moved'
  | 'merge_conflict'
  | 'revert_conflict'
  | 'cherry_pick_conflict'
  | 'already_applied'
  | 'exists'
  | 'in_use'
  | 'not_merged'
  | 'in_progress'
  | 'checkpoint_moved';

/**
 * One document in a conflict's way: `both_changed` (a merge's sides changed it differently),
 * `ambiguous` (a merge's bases disagree on which side changed it), `changed_again` (changed since the
 * reverted revision), `differs` (a cherry-pick found it neither as the picked revision found it nor as
 * it left it).
 */
export interface KeyConflict {
  readonly key: string;
  readonly reason: 'both_changed' | 'ambiguous' | 'changed_again' | 'differs';
}

/** What a 409 says besides its message, so a client can retry without reading anything again. */
export interface ConflictDetails {
  readonly reason?: ConflictReason;
  /** The branch head the write was refused against. */
  readonly headRevision?: number;
  /** A merge's source head. */
  readonly fromHeadRevision?: number;
  /** A merge's base (the newest, when there are several; 0: none). */
  readonly mergeBase?: number;
  /** The revision a taken checkpoint name points at. */
  readonly checkpointRevision?: number;
  /** A refused branch deletion's revisions the named branch does not hold. */
  readonly unmergedRevisions?: number;
  /** The documents in the way, bounded; `conflictsTruncated` when more were. */
  readonly conflicts?: readonly KeyConflict[];
  readonly conflictsTruncated?: boolean;
}

/** An expected failure of a store operation (bad input, unknown revision, moved head, over a limit). */
export class StoreError extends Error {
  readonly kind: StoreErrorKind;
  /** On a moved branch head: the head it is at, so a client can rebase without reading it again. */
  readonly headRevision: number | undefined;
  /** On a merge's moved source branch: the head it is at, so a client can merge it without reading it again. */
  readonly fromHeadRevision: number | undefined;
  /** On a 409: why, and what a retry needs. */
  readonly details: ConflictDetails;

  constructor(
    kind: StoreErrorKind,
    message: string,
    headRevision?: number,
    fromHeadRevision?: number,
    details: ConflictDetails = {},
  ) {
    super(message);
    this.name = 'StoreError';
    this.kind = kind;
    this.headRevision = headRevision ?? details.headRevision;
    this.fromHeadRevision = fromHeadRevision ?? details.fromHeadRevision;
    // A 409 that names a head and no other reason is a compare-and-swap refusal (`expected_revision`).
    const movedHead = headRevision !== undefined || fromHeadRevision !== undefined;
    const reason = details.reason ?? (kind === 'conflict' && movedHead ? 'head_moved' : undefined);
    this.details = { ...details, reason };
  }
}

/** 404: a revision, checkpoint, branch or namespace that does not exist. */
export const notFoundError = (message: string): StoreError => new StoreError('not_found', message);
/** 409: the branch head is not the expected one, or a name is taken; `details` say which, for clients. */
export const conflictError = (message: string, details: ConflictDetails = {}): StoreError =>
  new StoreError('conflict', message, undefined, undefined, details);
/** 400: input the schema cannot catch (duplicates, empty lists). */
export const invalidError = (message: string): StoreError => new StoreError('invalid', message);
/** 413: more documents or bytes than the configured limits. */
export const tooLargeError = (message: string): StoreError => new StoreError('too_large', message);

/** Most documents a 409's `conflicts` lists; `conflicts_truncated` says when there were more. */
export const LISTED_CONFLICTS = 100;

/**
 * The `conflicts` of a 409's details: the first {@link LISTED_CONFLICTS} of `items` (sorted by their
 * caller, as the message lists them), and whether more were left out.
 */
export function listedConflicts(
  items: readonly KeyConflict[],
): Pick<ConflictDetails, 'conflicts' | 'conflictsTruncated'> {
  const conflicts = items.slice(0, LISTED_CONFLICTS).map(({ key, reason }) => ({ key, reason }));
  return items.length > LISTED_CONFLICTS ? { conflicts, conflictsTruncated: true } : { conflicts };
}
