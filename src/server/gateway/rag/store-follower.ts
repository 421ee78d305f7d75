import type { RagSyncResult } from '../../../shared/rag-api.js';
import type { RevisionEvents } from '../../store/engine/revision-events.js';
import type { StoreEngine } from '../../store/engine/store-engine.js';
import { GatewayError } from '../gateway-error.js';
import { EMBED_BATCH } from './embedder.js';
import { contentTypeOfKey } from './document-content.js';
import type { ChunkVectors, PreparedDocument } from './document-indexer.js';
import type { CollectionRow } from './rag-collections.repository.js';
import { CollectionChangedError, TooManyChunksError } from './rag-index-errors.js';
import type { RagIndex } from './rag-index.js';

/** The wait before a failed background sync is tried again, and the longest it grows to. */
const FIRST_RETRY_MS = 5000;
const LAST_RETRY_MS = 5 * 60_000;
/** Documents read from the source at a time (a page also stops at the store's response_bytes). */
const SOURCE_PAGE_DOCUMENTS = 500;

/** Embedding failures of one sync: logged once when it ends, not once per document. */
interface EmbeddingFailures {
  documents: number;
  /** The first failure; once set, the sync embeds nothing more. */
  error: unknown;
}

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
  /** Stops the embedding calls of syncs under way when the gateway closes. */
  private readonly stopping = new AbortController();
  /**
   * Collections compared with their source in full since start: the first sync reads every document
   * even at an indexed revision, since changed chunking settings re-chunk documents the store did not change.
   */
  private readonly compared = new Set<string>();

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

  /**
   * Stops following: embedding calls under way are cancelled and pending syncs end without writing
   * their revision, so the next start syncs again from where the collection was.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.stopping.abort();
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
        if (this.closed) return;
        this.log(`RAG: could not sync collection ${name} from the store`, error);
        if (this.index.repository.collection(name) === undefined) return;
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
    // raised since, and nothing in the store changes to start another sync. So is the first sync after
    // start: the chunking settings may have changed (see `compared`).
    const upToDate = revision === row.sourceRevision && revision !== 0 && row.skippedDocuments.length === 0;
    if (upToDate && this.compared.has(name)) return result;
    // Re-pointed (or deleted) while this ran: the sync queued by that change reads the new source,
    // so this one stops rather than embed, and write, documents the collection no longer follows.
    const stillFollowing = (): CollectionRow | undefined => {
      const current = this.index.repository.collection(name);
      const same = current?.sourceNamespace === scope.namespace && (current.sourceBranch ?? 'main') === scope.branch;
      return same ? current : undefined;
    };
    const existing = new Map(this.index.repository.documents(name).map((doc) => [doc.key, doc]));
    const failures: EmbeddingFailures = { documents: 0, error: undefined };
    // Documents chunked and waiting to be embedded together: one embeddings call for many small ones.
    let pending: PreparedDocument[] = [];
    let pendingChunks = 0;
    const flush = async (): Promise<boolean> => {
      const outcomes = await this.indexPending(pending, failures);
      pending = [];
      pendingChunks = 0;
      for (const [key, outcome] of outcomes) {
        if (outcome === 'collection changed') return false;
        if (existing.delete(key)) result.updated += 1;
        else result.added += 1;
      }
      return true;
    };
    try {
      // The source a page at a time, every page at the first one's revision: a large branch is never
      // held whole, and writes made meanwhile wait for the sync they start.
      for (;;) {
        const objects = JSON.parse(page.objectsJson) as Record<string, string>;
        for (const [key, content] of Object.entries(objects)) {
          if (stillFollowing() === undefined) return result;
          const prepared = await this.prepareOne(name, key, content, revision, existing.get(key));
          if (prepared === 'unchanged') {
            existing.delete(key);
            continue;
          }
          if ('reason' in prepared) {
            // The rest of the source is still indexed. The document stays in `existing`, so its earlier
            // chunks go with the deleted documents': what retrieval finds must be the source's head.
            result.skipped.push({ key, reason: prepared.reason });
            continue;
          }
          pending.push(prepared);
          pendingChunks += prepared.drafts.length;
          if (pendingChunks >= EMBED_BATCH && !(await flush())) return result;
        }
        if (page.next_cursor === undefined) break;
        page = this.engine.statePage(scope, { revision }, { limit: SOURCE_PAGE_DOCUMENTS, after: page.next_cursor });
      }
      if (!(await flush())) return result;
    } finally {
      if (failures.documents > 0)
        this.log(
          `RAG: could not embed the chunks of ${failures.documents} document(s) of collection ${name} with ` +
            `${this.index.indexer.embeddingModel ?? 'the embedding model'}; they are indexed for BM25 only until the model answers again`,
          failures.error,
        );
    }
    const current = stillFollowing();
    if (current === undefined) return result;
    result.removed = this.index.deleteDocuments(
      name,
      [...existing.values()].map((doc) => doc.id),
    );
    this.index.repository.updateCollection({ ...current, sourceRevision: revision, skippedDocuments: result.skipped });
    this.compared.add(name);
    return result;
  }

  /** A document of the source chunked, unless its content is what the collection already holds or it is too large. */
  private async prepareOne(
    name: string,
    key: string,
    content: string,
    revision: number,
    known: { readonly contentHash: string } | undefined,
  ): Promise<PreparedDocument | 'unchanged' | { readonly reason: string }> {
    const contentType = contentTypeOfKey(key);
    // Unchanged content keeps its chunks, and the revision they were indexed from.
    if (known !== undefined && known.contentHash === this.index.indexer.hash(content, contentType)) return 'unchanged';
    try {
      return await this.index.indexer.prepare(name, key, content, contentType, revision);
    } catch (error) {
      if (!(error instanceof TooManyChunksError)) throw error;
      this.log(`RAG: collection ${name} skipped ${key}`, error);
      return { reason: error.message };
    }
  }

  /**
   * Embeds the documents' chunks together and stores each. After a failure the sync's remaining
   * documents are stored without vectors (BM25 finds them, the backfill embeds them later) rather than
   * each waiting on a model that is down. Throws when the gateway is closing.
   */
  private async indexPending(
    documents: readonly PreparedDocument[],
    failures: EmbeddingFailures,
  ): Promise<Array<[string, 'stored' | 'collection changed']>> {
    if (documents.length === 0) return [];
    let vectors: Array<ChunkVectors | null> = documents.map(() => null);
    if (failures.error === undefined) {
      try {
        vectors = await this.index.indexer.embed(documents, this.stopping.signal);
      } catch (error) {
        if (this.stopping.signal.aborted) throw error;
        failures.error = error;
      }
    }
    if (failures.error !== undefined) failures.documents += documents.length;
    const outcomes: Array<[string, 'stored' | 'collection changed']> = [];
    for (const [at, document] of documents.entries()) {
      try {
        await this.index.indexer.store(document, vectors[at]!);
      } catch (error) {
        if (!(error instanceof CollectionChangedError)) throw error;
        outcomes.push([document.key, 'collection changed']);
        break;
      }
      outcomes.push([document.key, 'stored']);
    }
    return outcomes;
  }
}
