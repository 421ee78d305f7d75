import type {
  RagAccessPatch,
  RagCollection,
  RagCollectionCreate,
  RagCollectionUpdate,
  RagDocumentInput,
  RagDocumentList,
  RagDocumentPutAnswer,
  RagSyncResult,
} from '../../../shared/rag-api.js';
import type { AuditRepository } from '../accounting/audit.repository.js';
import { changesNothing, recordAction } from '../accounting/record-action.js';
import { readPage, type AdminActor, type ListPage } from '../admin/admin.service.js';
import { GatewayError } from '../gateway-error.js';
import type { KeysService } from '../keys/keys.service.js';
import type { GatewayEventBus } from '../traffic/event-bus.js';
import { documentView } from './rag-views.js';
import type { RagService } from './rag.service.js';

/** What an audit event says of a collection: who may read it and what it follows (never its documents' text). */
function described(collection: RagCollection): Record<string, unknown> {
  return { description: collection.description, access: collection.access, source: collection.source };
}

/**
 * The admin API's changes to RAG collections, each audited: the access lists decide who reads which
 * documents, so who changed them, and when, belongs in the same trail as keys and scopes. Documents
 * are described by key and size only; their text may hold personal data.
 */
export class RagAdmin {
  constructor(
    private readonly rag: RagService,
    private readonly audit: AuditRepository,
    private readonly bus: GatewayEventBus,
    private readonly keys: Pick<KeysService, 'get' | 'list'>,
  ) {}

  createCollection(input: RagCollectionCreate, actor: AdminActor): RagCollection {
    this.checkReaders(input.access);
    const created = this.rag.index.create(input);
    this.record(actor, 'rag.collection.create', created.name, described(created));
    this.rag.syncInBackground(created.name);
    return created;
  }

  updateCollection(name: string, patch: RagCollectionUpdate, actor: AdminActor): RagCollection {
    // An empty change changes nothing: no write, no new updated_at, no audit event.
    if (changesNothing(patch)) return this.rag.index.get(name);
    this.checkReaders(patch.access);
    const before = this.rag.index.get(name);
    const after = this.rag.index.update(name, patch);
    this.record(actor, 'rag.collection.update', name, { before: described(before), after: described(after) });
    if (patch.source !== undefined) this.rag.syncInBackground(name);
    return after;
  }

  deleteCollection(name: string, actor: AdminActor): void {
    const before = this.rag.index.get(name);
    this.rag.index.delete(name);
    this.record(actor, 'rag.collection.delete', name, { ...described(before), documents: before.documents });
  }

  /** A collection's documents by key: every one, or a page and the cursor of the next (404 for no such collection). */
  documents(name: string, page: ListPage): RagDocumentList {
    this.rag.index.row(name);
    const { rows, nextCursor } = readPage(
      page.limit,
      (limit) => this.rag.index.repository.documents(name, { after: page.after, limit }),
      (document) => document.key,
    );
    return { data: rows.map(documentView), next_cursor: nextCursor };
  }

  async ingest(name: string, input: RagDocumentInput, actor: AdminActor): Promise<RagDocumentPutAnswer> {
    const document = await this.rag.index.ingest(name, input);
    // Content the collection already held changes nothing: no write, no audit event.
    if (document.change === 'unchanged') return document;
    this.record(actor, 'rag.document.put', name, {
      document_id: document.id,
      key: document.key,
      content_type: document.content_type,
      chars: document.chars,
      chunks: document.chunks,
      change: document.change,
    });
    return document;
  }

  deleteDocument(name: string, id: string, actor: AdminActor): void {
    // The one document, by id: listing the collection to find it costs as much as the whole list.
    const key = this.rag.index.repository.documentById(name, id)?.key ?? null;
    this.rag.index.deleteDocument(name, id);
    this.record(actor, 'rag.document.delete', name, { document_id: id, key });
  }

  async sync(name: string, actor: AdminActor): Promise<RagSyncResult> {
    const result = await this.rag.follower.sync(name);
    this.record(actor, 'rag.collection.sync', name, { ...result });
    return result;
  }

  /** Refuses access list entries that can match no caller (see checkKeys and checkUsers). */
  private checkReaders(access: Pick<RagAccessPatch, 'keys' | 'users'> | undefined): void {
    this.checkKeys(access?.keys);
    this.checkUsers(access?.users);
  }

  /**
   * Key ids are made by the gateway, so one that names no key can never match a caller (a key's name
   * typed where its id belongs, most likely). Users and teams may be listed before their first key.
   */
  private checkKeys(keys: readonly string[] | undefined): void {
    if (keys === undefined) return;
    const index = keys.findIndex((id) => this.keys.get(id) === undefined);
    if (index >= 0)
      throw new GatewayError(
        'invalid',
        `access.keys[${index}]: no API key with id '${keys[index]!}' (list keys by id, key_...; see GET /internal/api-keys)`,
      );
  }

  /**
   * Single sign-on names users by e-mail address in lower case, so an address with capitals matches
   * only keys an admin issued to that very id. Listed before any such key exists, it is most likely
   * the address of an SSO user typed as written elsewhere, and would close the collection to them.
   * Matching stays exact: another account's claim differing only in case must not read as this user.
   */
  private checkUsers(users: readonly string[] | undefined): void {
    if (users === undefined) return;
    const index = users.findIndex(
      (id) =>
        id.includes('@') &&
        id.toLowerCase() !== id &&
        this.keys.list({ user: id, includeRevoked: true, limit: 1 }).length === 0,
    );
    if (index >= 0) {
      const id = users[index]!;
      throw new GatewayError(
        'invalid',
        `access.users[${index}]: '${id}' can match no caller: no key is owned by it, and single sign-on names users by e-mail address in lower case; list '${id.toLowerCase()}' (or issue the user's key before listing an id written with capitals)`,
      );
    }
  }

  private record(actor: AdminActor, action: string, target: string, details: Record<string, unknown>): void {
    const entry = { createdAt: Date.now(), actor: 'master', action, target, requestId: actor.requestId, details };
    recordAction(this.audit, this.bus, entry);
  }
}
