import type { RagSyncResult } from '../../../shared/rag-api.js';
import type { RevisionEvents } from '../../store/engine/revision-events.js';
import type { StoreEngine } from '../../store/engine/store-engine.js';
import { GatewayError } from '../gateway-error.js';
import {
  CollectionChangedError,
  contentHash,
  contentTypeOfKey,
  TooManyChunksError,
  type RagIndex,
} from './rag-index.js';
import type { CollectionRow } from './rag.repository.js';

/** The wait before a failed background sync is tried again, and the longest it grows to. */
const FIRST_RETRY_MS = 5000;
const LAST_RETRY_MS = 5 * 60_000;
/** Documents read from the source at a time (a page also stops at the store's response_bytes). */
const SOURCE_PAGE_DOCUMENTS = 500;

/**
 * Keeps store-backed collections equal to the head of the namespace and branch they follow: on every
 * new revision of that branch (the store's in-process event), and once at start for revisions written
 * while the gateway was not running. Changed and new documents are re-chunked with the revision they
 * came from; documents deleted in the store lose their chunks. Syncs of one collection run one at a time.
 */
export class StoreFollower {
  private readonly running = new Map<string, Promise<RagSyncResult>>();
  /** Background syncs that failed, waiting to be tried again, with the wait that follows the next failure. */
  private readonly retries = new Map<string, { timer: NodeJS.Timeout; nextDelayMs: number }>();
  private unsubscribe: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly index: RagIndex,
    private readonly engine: StoreEngine,
    private readonly log: (message: string, error: unknown) => void,
  ) {}

  /** Follows the store's revisions and catches up every store-backed collection. */
  start(events: RevisionEvents | undefined): void {
    this.unsubscribe = events?.subscribe((event) => {
      for (const row of this.index.repository.followers(event.namespace, event.branch)) this.background(row.name);
    });
    for (const row of this.index.repository.followers()) this.background(row.name);
  }

  /** Stops following (pending syncs finish). */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    for (const retry of this.retries.values()) clearTimeout(retry.timer);
    this.retries.clear();
    await Promise.allSettled([...this.running.values()]);
  }

  /** Syncs now (after any sync of the collection in progress); invalid for a collection without a source. */
  sync(name: string): Promise<RagSyncResult> {
    const row = this.index.row(name);
    if (row.sourceNamespace === null)
      return Promise.reject(new GatewayError('invalid', `RAG collection ${name} does not follow a store namespace`));
    const previous = this.running.get(name) ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(() => this.run(name));
    this.running.set(name, next);
    // Both ways, not `finally`: the promise `finally` returns rejects with a failed sync, and a
    // rejection nobody handles ends the process.
    const forget = (): void => {
      if (this.running.get(name) === next) this.running.delete(name);
    };
    next.then(forget, forget);
    return next;
  }

  /** Resolves once no sync is running (tests and the admin view wait on it). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  /**
   * Syncs without a caller to answer. A failure (the database locked by another process, a disk full)
   * is logged and the sync tried again after 5 s, then twice as long each time up to 5 minutes, until
   * one succeeds: the collection would otherwise stay behind the store until its next write.
   */
  private background(name: string): void {
    const pending = this.retries.get(name);
    if (pending !== undefined) clearTimeout(pending.timer);
    this.sync(name).then(
      () => this.retries.delete(name),
      (error: unknown) => {
        this.log(`RAG: could not sync collection ${name} from the store`, error);
        if (this.closed || this.index.repository.collection(name) === undefined) return;
        const delayMs = this.retries.get(name)?.nextDelayMs ?? FIRST_RETRY_MS;
        const timer = setTimeout(() => this.background(name), delayMs);
        timer.unref();
        this.retries.set(name, { timer, nextDelayMs: Math.min(delayMs * 2, LAST_RETRY_MS) });
      },
    );
  }

  private async run(name: string): Promise<RagSyncResult> {
    const row = this.index.repository.collection(name);
    const result: RagSyncResult = { revision: row?.sourceRevision ?? 0, added: 0, updated: 0, removed: 0, skipped: [] };
    if (row === undefined || row.sourceNamespace === null) return result;
    const scope = { namespace: row.sourceNamespace, branch: row.sourceBranch ?? 'main' };
    let page = this.engine.statePage(scope, {}, { limit: SOURCE_PAGE_DOCUMENTS });
    const revision = page.revision;
    result.revision = revision;
    // Documents skipped for their size are tried again at the same revision: the limit may have been
    // raised since, and nothing in the store changes to start another sync.
    if (revision === row.sourceRevision && revision !== 0 && row.skippedDocuments.length === 0) return result;
    // Re-pointed (or deleted) while this ran: the sync queued by that change reads the new source,
    // so this one stops rather than embed, and write, documents the collection no longer follows.
    const stillFollowing = (): CollectionRow | undefined => {
      const current = this.index.repository.collection(name);
      const same = current?.sourceNamespace === scope.namespace && (current.sourceBranch ?? 'main') === scope.branch;
      return same ? current : undefined;
    };
    const existing = new Map(this.index.repository.documents(name).map((doc) => [doc.key, doc]));
    // The source a page at a time, every page at the first one's revision: a large branch is never
    // held whole, and writes made meanwhile wait for the sync they start.
    for (;;) {
      const objects = JSON.parse(page.objectsJson) as Record<string, string>;
      for (const [key, content] of Object.entries(objects)) {
        if (stillFollowing() === undefined) return result;
        const outcome = await this.indexOne(name, key, content, revision, existing.get(key));
        if (outcome === 'collection changed') return result;
        if (typeof outcome === 'object') {
          // The rest of the source is still indexed. The document stays in `existing`, so its earlier
          // chunks go with the deleted documents': what retrieval finds must be the source's head.
          result.skipped.push({ key, reason: outcome.reason });
          continue;
        }
        existing.delete(key);
        if (outcome === 'added') result.added += 1;
        else if (outcome === 'updated') result.updated += 1;
      }
      if (page.next_cursor === undefined) break;
      page = this.engine.statePage(scope, { revision }, { limit: SOURCE_PAGE_DOCUMENTS, after: page.next_cursor });
    }
    const current = stillFollowing();
    if (current === undefined) return result;
    result.removed = this.index.repository.deleteDocuments(
      name,
      [...existing.values()].map((doc) => doc.id),
    );
    this.index.repository.updateCollection({ ...current, sourceRevision: revision, skippedDocuments: result.skipped });
    return result;
  }

  /** Indexes one document of the source unless its content is what the collection already holds. */
  private async indexOne(
    name: string,
    key: string,
    content: string,
    revision: number,
    known: { readonly contentHash: string } | undefined,
  ): Promise<'added' | 'updated' | 'unchanged' | 'collection changed' | { readonly reason: string }> {
    const contentType = contentTypeOfKey(key);
    // Unchanged content keeps its chunks, and the revision they were indexed from.
    if (known !== undefined && known.contentHash === contentHash(content, contentType)) return 'unchanged';
    try {
      await this.index.indexDocument(name, key, content, contentType, revision);
    } catch (error) {
      if (error instanceof CollectionChangedError) return 'collection changed';
      if (!(error instanceof TooManyChunksError)) throw error;
      this.log(`RAG: collection ${name} skipped ${key}`, error);
      return { reason: error.message };
    }
    return known === undefined ? 'added' : 'updated';
  }
}
