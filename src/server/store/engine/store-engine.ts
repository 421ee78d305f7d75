import type Database from 'better-sqlite3';
import type {
  ApplyResponse,
  BranchRenameResponse,
  CherryPickResponse,
  DiffResponse,
  DocumentInput,
  LogResponse,
  MergeResponse,
  RevertResponse,
  StateResponse,
} from '../../../shared/store-api.js';
import { renameBranch } from './branch-rename.js';
import { checkpointExists, checkpointReading, type CheckpointReadings } from './checkpoint-reading.js';
import { cherryPick, previewCherryPick, type CherryPickOptions } from './cherry-pick.js';
import { MIN_KEYFRAME_INTERVAL } from './commit.js';
import { ContentSweeper, type ContentSweeperOptions } from './content-sweeper.js';
import { StateCache } from './state-cache.js';
import { collectGarbage, countGarbage, type NamespaceFilter } from './gc.js';
import { notFoundError } from './errors.js';
import { merge, previewMerge, refuseUnmerged, type MergeOptions } from './merge.js';
import * as reads from './reads.js';
import { previewRevert, revert, type RevertOptions } from './revert.js';
import type { ReplayOptions } from './revision-replay.js';
import * as stateReads from './state-reads.js';
import { stateOfKeysJson, stateOfKeysSizes } from './state-of-keys.js';
import { compactDatabase, freeBytes } from './compaction.js';
import { revision, type ChangePage, type RevisionAnswer, type RevisionReadOptions } from './revision-reads.js';
import type { RevisionEvents } from './revision-events.js';
import { DEFAULT_LIMITS, normaliseScope, type EngineContext, type Scope, type StoreLimits } from './selectors.js';
import { StoreRepository } from './store-repository.js';
import { IdempotencyRepository, type IdempotencySlot } from './idempotency-repository.js';
import * as writes from './writes.js';

/** A scope as callers give it: empty or missing parts take the defaults. */
export type ScopeLike = { readonly namespace?: string; readonly branch?: string } | undefined;

/** A state selector with the unused parts filled in (checkpoint before revision before head). */
const fullSelector = (selector: Partial<stateReads.Selector>): stateReads.Selector => ({
  revision: selector.revision ?? 0,
  checkpoint: selector.checkpoint ?? '',
});

/** How long the answer of a write sent with an `Idempotency-Key` is kept for its retries: 24 hours. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** What {@link StoreEngine.once} did: wrote, found the kept answer, or found the key used for another request. */
export type OnceOutcome<T> =
  | { readonly kind: 'ran'; readonly answer: T }
  | { readonly kind: 'replayed'; readonly answerJson: string }
  | { readonly kind: 'mismatch' };

/** Options of {@link StoreEngine}. */
export interface StoreEngineOptions {
  readonly limits?: Partial<StoreLimits>;
  /** Clock in milliseconds since the epoch (tests pin it). */
  readonly now?: () => number;
  /** Fewest change rows between keyframes (default 64; tests lower it to exercise keyframes). */
  readonly keyframeInterval?: number;
  /** Characters of state JSON kept in memory for repeated reads (default 32 Mi; 0 turns the cache off). */
  readonly stateCacheChars?: number;
  /** Told about every new revision once it is committed (in-process followers such as RAG). */
  readonly events?: RevisionEvents;
  /** How unreferenced contents are deleted after gc and branch deletion (tests drive the slices). */
  readonly sweep?: ContentSweeperOptions;
}

/**
 * The versioned document store over one SQLite database: no HTTP here. Every write is one
 * `BEGIN IMMEDIATE` transaction, so it is all or nothing, and better-sqlite3 being synchronous, calls
 * from one process are serialised; the write lock also serialises other processes on the same file.
 */
export class StoreEngine {
  private readonly ctx: EngineContext;
  private readonly events: RevisionEvents | undefined;
  private readonly sweeper: ContentSweeper;
  private readonly idempotency: IdempotencyRepository;

  constructor(sqlite: Database.Database, options: StoreEngineOptions = {}) {
    this.ctx = {
      repo: new StoreRepository(sqlite),
      limits: { ...DEFAULT_LIMITS, ...options.limits },
      now: options.now ?? Date.now,
      keyframeInterval: options.keyframeInterval ?? MIN_KEYFRAME_INTERVAL,
      stateCache: new StateCache(options.stateCacheChars ?? 32 * 1024 * 1024),
    };
    this.events = options.events;
    this.sweeper = new ContentSweeper(this.ctx.repo, options.sweep);
    this.idempotency = new IdempotencyRepository(sqlite);
  }

  /** The limits in force. */
  get limits(): StoreLimits {
    return this.ctx.limits;
  }

  /** Creates, updates or deletes documents; a new revision only when something changed. */
  applyDocuments(
    scope: ScopeLike,
    documents: readonly DocumentInput[],
    options: Partial<writes.ApplyOptions> = {},
  ): ApplyResponse {
    const full = {
      message: options.message ?? '',
      mode: options.mode ?? 'merge',
      expectedRevision: options.expectedRevision,
    };
    return this.writeRevision(scope, (normal) => writes.applyDocuments(this.ctx, normal, documents, full));
  }

  /**
   * The documents at head, a revision of the branch, or a checkpoint, however many (for in-process
   * readers that consume a whole state; answers to clients go through {@link stateJson}).
   */
  state(scope: ScopeLike, selector: Partial<stateReads.Selector> = {}): StateResponse {
    const { revision, objectsJson } = this.read(() =>
      stateReads.stateJson(this.ctx, normaliseScope(scope), fullSelector(selector), Number.MAX_SAFE_INTEGER),
    );
    // JSON.parse makes a key named "__proto__" an own property, not the prototype.
    return { revision, objects: JSON.parse(objectsJson) as Record<string, string> };
  }

  /**
   * Like {@link state}, the documents as JSON text (what the HTTP answer embeds without re-encoding);
   * 413 when they pass `response_bytes`.
   */
  stateJson(scope: ScopeLike, selector: Partial<stateReads.Selector> = {}): stateReads.StateJson {
    return this.read(() =>
      stateReads.stateJson(this.ctx, normaliseScope(scope), fullSelector(selector), this.ctx.limits.response_bytes),
    );
  }

  /** One page of the documents, in key order after `page.after`, at most `response_bytes` past its first. */
  statePage(
    scope: ScopeLike,
    selector: Partial<stateReads.Selector>,
    page: Partial<stateReads.StatePage>,
  ): stateReads.StatePageJson {
    const full = { limit: page.limit ?? 0, after: page.after ?? '' };
    return this.read(() =>
      stateReads.statePageJson(
        this.ctx,
        normaliseScope(scope),
        fullSelector(selector),
        full,
        this.ctx.limits.response_bytes,
      ),
    );
  }

  /** The documents named by `keys` at the selected revision (absent ones left out); 413 past `response_bytes`. */
  stateOfKeys(scope: ScopeLike, selector: Partial<stateReads.Selector>, keys: readonly string[]): stateReads.StateJson {
    const maxBytes = this.ctx.limits.response_bytes;
    return this.read(() => stateOfKeysJson(this.ctx, normaliseScope(scope), fullSelector(selector), keys, maxBytes));
  }

  /**
   * The keys and content sizes of the documents (`contents=false`): all of them (413 past
   * `response_bytes`), one page with `page`, or those named by `keys`; no content is read.
   */
  stateKeys(
    scope: ScopeLike,
    selector: Partial<stateReads.Selector>,
    page: Partial<stateReads.StatePage> | undefined,
    keys: readonly string[] = [],
  ): stateReads.StateKeys {
    const normal = normaliseScope(scope);
    const full = fullSelector(selector);
    if (keys.length > 0) return this.read(() => stateOfKeysSizes(this.ctx, normal, full, keys));
    const paged = page && { limit: page.limit ?? 0, after: page.after ?? '' };
    return this.read(() => stateReads.stateKeys(this.ctx, normal, full, paged, this.ctx.limits.response_bytes));
  }

  /** What the documents named by `keys` are at the selected revision (404 as a read would), no content read. */
  namedDocumentVersions(
    scope: ScopeLike,
    selector: Partial<stateReads.Selector>,
    keys: readonly string[],
  ): stateReads.DocumentVersion[] {
    return this.read(() =>
      stateReads.namedDocumentVersions(this.ctx, normaliseScope(scope), fullSelector(selector), keys),
    );
  }

  /** The revision a state read with this selector would answer (404 as it would), without reading the state. */
  stateRevision(scope: ScopeLike, selector: Partial<stateReads.Selector> = {}): number {
    return this.read(() => stateReads.stateRevision(this.ctx, normaliseScope(scope), fullSelector(selector)));
  }

  /**
   * Runs the write `run` once for an idempotency slot: its answer is kept in the write's own transaction,
   * so a crash leaves neither, and a later request in the slot gets it back (`replayed`) while its
   * fingerprint matches, `mismatch` otherwise. A failed write keeps nothing: it wrote nothing either.
   */
  once<T>(slot: IdempotencySlot, fingerprint: string, run: () => T): OnceOutcome<T> {
    return this.write((): OnceOutcome<T> => {
      const now = this.ctx.now();
      this.idempotency.prune(now - IDEMPOTENCY_KEY_TTL_MS);
      const kept = this.idempotency.find(slot);
      if (kept)
        return kept.fingerprint === fingerprint ? { kind: 'replayed', answerJson: kept.answer } : { kind: 'mismatch' };
      const answer = run();
      this.idempotency.insert(slot, { fingerprint, answer: JSON.stringify(answer) }, now);
      return { kind: 'ran', answer };
    });
  }

  /**
   * Compares head (or the `from` side) with a revision or another branch's head, or previews documents on
   * top of one, optionally for named documents only; writes nothing.
   */
  diff(scope: ScopeLike, options: Partial<reads.DiffOptions> = {}): DiffResponse {
    const full = {
      revision: options.revision ?? 0,
      checkpoint: options.checkpoint ?? '',
      branch: options.branch ?? '',
      from: options.from,
      documents: options.documents ?? [],
      mode: options.mode ?? 'merge',
      keys: options.keys,
    };
    return this.read(() => reads.diff(this.ctx, normaliseScope(scope), full));
  }

  /**
   * The branch's history, newest first; with `key`, only the revisions that changed that document;
   * without `contents`, each change with its key and type only.
   */
  log(scope: ScopeLike, page: Partial<reads.Page<number>> = {}, options: Partial<reads.LogOptions> = {}): LogResponse {
    return this.read(() =>
      reads.log(this.ctx, normaliseScope(scope), { limit: page.limit ?? 0, after: page.after ?? 0 }, options),
    );
  }

  /**
   * One revision of a namespace with its changes, or with `page` a page of them; `options` may ask for
   * named documents' changes only, or sizes instead of contents.
   */
  revision(
    namespace: string,
    id: number,
    page?: ChangePage,
    options: Partial<RevisionReadOptions> = {},
  ): RevisionAnswer {
    const full = { contents: options.contents ?? true, keys: options.keys ?? [] };
    return this.read(() => revision(this.ctx, normaliseScope({ namespace }).namespace, id, page, full));
  }

  /** Points a checkpoint at the scope's head, or at one of its revisions. */
  createCheckpoint(
    scope: ScopeLike,
    name: string,
    description = '',
    options: Partial<writes.CheckpointOptions> = {},
  ): { name: string; revision_id: number } {
    return this.write(() =>
      writes.createCheckpoint(this.ctx, normaliseScope(scope), name, description, {
        revision: options.revision ?? 0,
        expectedRevision: options.expectedRevision,
        createOnly: options.createOnly ?? false,
        expectedCheckpointRevision: options.expectedCheckpointRevision,
      }),
    );
  }

  /** Deletes a checkpoint; with `expectedRevision`, only while it still marks that revision. */
  deleteCheckpoint(namespace: string, name: string, expectedRevision?: number | null): void {
    this.write(() =>
      writes.deleteCheckpoint(this.ctx, normaliseScope({ namespace }).namespace, name, expectedRevision),
    );
  }

  /** Whether the namespace has a checkpoint of that name. */
  checkpointExists(namespace: string, name: string): boolean {
    return this.read(() => checkpointExists(this.ctx, normaliseScope({ namespace }).namespace, name));
  }

  /** Which reading of a query's checkpoint name with a literal `+` names a checkpoint (400 when both do). */
  checkpointReading(namespace: string, readings: CheckpointReadings): string {
    return this.read(() => checkpointReading(this.ctx, normaliseScope({ namespace }).namespace, readings));
  }

  /** Lists a namespace's checkpoints. */
  checkpoints(namespace: string, page: Partial<reads.Page<string>> = {}): ReturnType<typeof reads.checkpoints> {
    return this.read(() =>
      reads.checkpoints(this.ctx, normaliseScope({ namespace }).namespace, {
        limit: page.limit ?? 0,
        after: page.after ?? '',
      }),
    );
  }

  /** Returns the branch to one of its revisions or a checkpoint, as a new revision. */
  rollback(scope: ScopeLike, options: Partial<writes.RollbackOptions> = {}): ApplyResponse {
    const full = {
      revision: options.revision ?? 0,
      checkpoint: options.checkpoint ?? '',
      message: options.message ?? '',
      expectedRevision: options.expectedRevision,
    };
    return this.writeRevision(scope, (normal) => writes.rollback(this.ctx, normal, full));
  }

  /** Copies another branch's, revision's or checkpoint's state onto the branch, as a new revision. */
  restore(scope: ScopeLike, options: Partial<writes.RestoreOptions> = {}): ApplyResponse {
    const full = {
      fromBranch: options.fromBranch ?? '',
      fromRevision: options.fromRevision ?? 0,
      fromCheckpoint: options.fromCheckpoint ?? '',
      message: options.message ?? '',
      expectedRevision: options.expectedRevision,
      keys: options.keys,
    };
    return this.writeRevision(scope, (normal) => writes.restore(this.ctx, normal, full));
  }

  /**
   * Undoes one revision reachable from the branch's head, as a new revision (`git revert`). With
   * `dryRun`, answers what it would write, in a read transaction, and writes nothing.
   */
  revert(scope: ScopeLike, options: Partial<RevertOptions> = {}, dryRun = false): RevertResponse {
    return this.replay(scope, options, dryRun, previewRevert, revert);
  }

  /**
   * Makes on the branch's head what one revision of the namespace changed, as a new revision (`git
   * cherry-pick`). With `dryRun`, answers what it would write, in a read transaction, and writes nothing.
   */
  cherryPick(scope: ScopeLike, options: Partial<CherryPickOptions> = {}, dryRun = false): CherryPickResponse {
    return this.replay(scope, options, dryRun, previewCherryPick, cherryPick);
  }

  /**
   * Merges another branch's head into the scope's branch (three-way, against their merge base), as a
   * new revision. With `dryRun`, answers what it would write, in a read transaction, and writes nothing.
   */
  merge(scope: ScopeLike, options: Partial<MergeOptions> = {}, dryRun = false): MergeResponse {
    const full = {
      fromBranch: options.fromBranch ?? '',
      message: options.message ?? '',
      expectedRevision: options.expectedRevision,
      expectedFromRevision: options.expectedFromRevision,
      strategy: options.strategy,
      resolve: options.resolve,
    };
    if (dryRun) return this.read(() => previewMerge(this.ctx, normaliseScope(scope), full));
    return this.writeRevision(scope, (normal) => merge(this.ctx, normal, full));
  }

  /** Creates a branch from the scope's branch. */
  createBranch(
    scope: ScopeLike,
    name: string,
    options: Partial<writes.CreateBranchOptions> = {},
  ): ReturnType<typeof writes.createBranch> {
    const full = { fromRevision: options.fromRevision ?? 0, fromCheckpoint: options.fromCheckpoint ?? '' };
    const normal = normaliseScope(scope);
    const created = this.write(() => writes.createBranch(this.ctx, normal, name, full));
    this.events?.publish({ namespace: normal.namespace, branch: name, revision: created.head_revision });
    return created;
  }

  /**
   * Deletes the scope's branch with its history (see {@link writes.deleteBranch}); with
   * `requireMergedInto`, only when that branch's history holds its work (see {@link refuseUnmerged}).
   */
  deleteBranch(scope: ScopeLike, expectedRevision?: number | null, requireMergedInto?: string): writes.DeletedBranch {
    const normal = normaliseScope(scope);
    const deleted = this.write(() => {
      if (requireMergedInto) refuseUnmerged(this.ctx, normal, requireMergedInto);
      return writes.deleteBranch(this.ctx, normal, expectedRevision);
    });
    this.sweeper.start();
    // Followers of the branch (RAG collections) now follow an empty branch, as if it were never written.
    this.events?.publish({ namespace: normal.namespace, branch: normal.branch, revision: 0 });
    return deleted;
  }

  /** Renames the scope's branch, keeping its history (see {@link renameBranch}). */
  renameBranch(scope: ScopeLike, newName: string, expectedRevision?: number | null): BranchRenameResponse {
    const normal = normaliseScope(scope);
    const renamed = this.write(() => renameBranch(this.ctx, normal, newName, expectedRevision));
    // Followers of the old name now follow an empty branch, as after a deletion; the new name has the history.
    this.events?.publish({ namespace: normal.namespace, branch: normal.branch, revision: 0 });
    this.events?.publish({ namespace: normal.namespace, branch: newName, revision: renamed.head_revision });
    return renamed;
  }

  /** Lists a namespace's branches. */
  branches(scope: ScopeLike, page: Partial<reads.Page<string>> = {}): ReturnType<typeof reads.branches> {
    return this.read(() =>
      reads.branches(this.ctx, normaliseScope(scope), { limit: page.limit ?? 0, after: page.after ?? '' }),
    );
  }

  /** Lists namespaces, only those `visible` accepts. */
  namespaces(
    page: Partial<reads.Page<string>> = {},
    visible: (name: string) => boolean = () => true,
  ): ReturnType<typeof reads.namespaces> {
    return this.read(() => reads.namespaces(this.ctx, { limit: page.limit ?? 0, after: page.after ?? '' }, visible));
  }

  /**
   * Deletes old revisions of the namespaces `covers` accepts (and only `namespace`, when one is named),
   * every one without them (see
   * {@link collectGarbage}). With `dryRun`, only counts what would go, in a read transaction with the
   * same selection, so the count equals what a real run would prune then.
   */
  gc(keep = 0, dryRun = false, covers?: NamespaceFilter, namespace?: string): { pruned: number } {
    if (namespace !== undefined) {
      // One namespace: a misspelt name is said, rather than pruning nothing without a word.
      if (this.read(() => this.ctx.repo.namespace(namespace)) === undefined)
        throw notFoundError(`namespace "${namespace}" does not exist`);
      const within = covers;
      covers = (name) => name === namespace && (within === undefined || within(name));
    }
    if (dryRun) return this.read(() => ({ pruned: countGarbage(this.ctx.repo, keep, covers) }));
    const result = this.write(() => ({ pruned: collectGarbage(this.ctx.repo, keep, covers) }));
    this.ctx.stateCache.clear();
    if (result.pruned > 0) this.sweeper.start();
    return result;
  }

  /** Bytes of the database's free pages, what {@link compact} would give back. */
  freeBytes(): number {
    return freeBytes(this.ctx.repo.sqlite);
  }

  /**
   * Gives the database's free pages back to the disk (`VACUUM`); returns how many bytes it gave. Blocks
   * the process, and so both services, for as long as rewriting the whole database takes.
   */
  compact(): number {
    return compactDatabase(this.ctx.repo.sqlite);
  }

  /**
   * At start: deletes, in short transactions after this call, the contents an earlier gc or branch
   * deletion listed as unreferenced and a process that stopped before its sweep ended left listed,
   * checked again against the references first (see StoreRepository.relistUnreferenced). Returns how
   * many are to be deleted.
   */
  sweepUnreferenced(): number {
    const listed = this.write(() => this.ctx.repo.relistUnreferenced());
    this.sweeper.start();
    return listed;
  }

  /** Resolves once no content sweep is running. */
  contentSwept(): Promise<void> {
    return this.sweeper.whenIdle();
  }

  /** Runs a revert or cherry-pick, or with `dryRun` its preview in a read transaction. */
  private replay<T extends ApplyResponse>(
    scope: ScopeLike,
    options: Partial<ReplayOptions>,
    dryRun: boolean,
    preview: (ctx: EngineContext, scope: Scope, options: ReplayOptions) => T,
    write: (ctx: EngineContext, scope: Scope, options: ReplayOptions) => T,
  ): T {
    const full = {
      revision: options.revision ?? 0,
      message: options.message ?? '',
      expectedRevision: options.expectedRevision,
    };
    if (dryRun) return this.read(() => preview(this.ctx, normaliseScope(scope), full));
    return this.writeRevision(scope, (normal) => write(this.ctx, normal, full));
  }

  /** Runs a write of the scope's branch in a transaction, then publishes its new revision (none for a no-op). */
  private writeRevision<T extends ApplyResponse>(scope: ScopeLike, run: (normal: Scope) => T): T {
    const normal = normaliseScope(scope);
    const result = this.write(() => run(normal));
    if (!result.noop)
      this.events?.publish({ namespace: normal.namespace, branch: normal.branch, revision: result.revision });
    return result;
  }

  private write<T>(fn: () => T): T {
    return this.ctx.repo.write(fn);
  }

  private read<T>(fn: () => T): T {
    return this.ctx.repo.read(fn);
  }
}
