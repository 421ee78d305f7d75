import { MAX_PAGE_LIMIT } from '../../../shared/store-api.js';
import { tooLargeError } from './errors.js';
import { itemsWithin } from './page-bound.js';
import { sourceAt } from './reconstruct.js';
import { namedBlobs } from './state-of-keys.js';
import { lookupScope, selectInBranch, type EngineContext, type Scope, type Target } from './selectors.js';
import type { CachedState } from './state-cache.js';

// Reading a state, whole or in pages. A branch holds any number of documents of up to a MiB each, so
// its whole state can pass what one process can build in memory: a whole read is refused past a bound,
// naming it and how to page, and a page carries at most that much beyond its first document.

/** A state selector: checkpoint before revision before head. */
export interface Selector {
  readonly revision: number;
  readonly checkpoint: string;
}

/** The state of the scope at head, a revision or a checkpoint, its documents as JSON text. */
export interface StateJson {
  readonly revision: number;
  /** A JSON object of key to content, keys in byte order. */
  readonly objectsJson: string;
}

/** A page of a state: its documents after a key, and the last key when more follow. */
export interface StatePageJson extends StateJson {
  readonly next_cursor?: string;
}

/** A state without contents (`contents=false`): each document's key and UTF-8 size, keys in byte order. */
export interface StateKeys {
  readonly revision: number;
  readonly documents: readonly { readonly key: string; readonly bytes: number }[];
  readonly next_cursor?: string;
}

/** Where a page starts (`after`, a key; empty for the first) and how many documents it holds at most. */
export interface StatePage {
  readonly limit: number;
  readonly after: string;
}

/** The revision a read of the scope with the selector answers, without reading its documents. */
export function stateRevision(ctx: EngineContext, scope: Scope, selector: Selector): number {
  return selectInBranch(ctx.repo, lookupScope(ctx.repo, scope), selector).revision;
}

/** One named document as an entity tag covers it: its key, its content's id and that content's hash prefix. */
export type DocumentVersion = readonly [key: string, blobId: number, hash: string];

/**
 * The documents `keys` names at the selected revision (absent ones left out, keys in byte order), each
 * as a {@link DocumentVersion}, without reading a content: a tag over them changes exactly when one of
 * them is written or deleted. A content id alone could name another content once gc has deleted its
 * own and the id is given again; with the hash prefix, that would take a collision in that very id.
 */
export function namedDocumentVersions(
  ctx: EngineContext,
  scope: Scope,
  selector: Selector,
  keys: readonly string[],
): DocumentVersion[] {
  return namedBlobs(ctx, scope, selector, keys).named.map(({ key, blob }) => [key, blob, ctx.repo.contentHashOf(blob)]);
}

/**
 * The whole state of the scope at the selected revision; 413 when its keys and contents pass
 * `maxBytes` UTF-8 bytes, before any of it is built.
 */
export function stateJson(ctx: EngineContext, scope: Scope, selector: Selector, maxBytes: number): StateJson {
  const target = selectInBranch(ctx.repo, lookupScope(ctx.repo, scope), selector);
  const { revision, branch } = target;
  if (!branch || revision === 0) return { revision, objectsJson: '{}' };
  const state = ctx.stateCache.through(branch.namespaceId, revision, () => {
    const sized = ctx.repo.stateJson(sourceAt(ctx.repo, branch, revision), maxBytes);
    if (sized.json === null) throw tooLarge(scope, target, sized, maxBytes);
    return { json: sized.json, bytes: sized.bytes, documents: sized.documents };
  });
  // A state cached by an in-process reader with no bound may still be over this one.
  if (state.bytes > maxBytes) throw tooLarge(scope, target, state, maxBytes);
  return { revision, objectsJson: state.json };
}

/**
 * Up to `limit` documents (1,000 at most) of the state at the selected revision, keys after `after` in
 * byte order. The page ends early, with `next_cursor`, before the document that would take its keys and
 * contents past `maxBytes`; its first document always comes.
 */
export function statePageJson(
  ctx: EngineContext,
  scope: Scope,
  selector: Selector,
  page: StatePage,
  maxBytes: number,
): StatePageJson {
  const { revision, branch } = selectInBranch(ctx.repo, lookupScope(ctx.repo, scope), selector);
  if (!branch || revision === 0) return { revision, objectsJson: '{}' };
  const limit = Math.min(page.limit || MAX_PAGE_LIMIT, MAX_PAGE_LIMIT);
  const rows = ctx.repo.statePage(sourceAt(ctx.repo, branch, revision), page.after, limit + 1);
  const carried = itemsWithin(rows.slice(0, limit), ([, , bytes]) => bytes, maxBytes);
  const pairs = rows.slice(0, carried).map(([key, blobId]) => [key, blobId] as const);
  const objectsJson = ctx.repo.contentsJson(pairs);
  return rows.length > pairs.length
    ? { revision, objectsJson, next_cursor: pairs[pairs.length - 1][0] }
    : { revision, objectsJson };
}

/**
 * The keys and content sizes of the state at the selected revision, no content read (`git ls-tree -l`):
 * all of them, or with `page` up to `limit` (1,000 at most) after `after`. A whole listing is 413 past
 * `maxBytes` as a whole state is, its keys counted with room for the sizes.
 */
export function stateKeys(
  ctx: EngineContext,
  scope: Scope,
  selector: Selector,
  page: StatePage | undefined,
  maxBytes: number,
): StateKeys {
  const target = selectInBranch(ctx.repo, lookupScope(ctx.repo, scope), selector);
  const { revision, branch } = target;
  if (!branch || revision === 0) return { revision, documents: [] };
  const limit = page ? Math.min(page.limit || MAX_PAGE_LIMIT, MAX_PAGE_LIMIT) : -1;
  // SQLite reads a negative LIMIT as none.
  const rows = ctx.repo.statePage(sourceAt(ctx.repo, branch, revision), page?.after ?? '', page ? limit + 1 : -1);
  const listed = page ? rows.slice(0, limit) : rows;
  const documents = listed.map(([key, , bytes]) => ({ key, bytes: bytes - Buffer.byteLength(key, 'utf8') }));
  if (!page) {
    const listingBytes = documents.reduce(
      (sum, { key }) => sum + Buffer.byteLength(key, 'utf8') + LISTED_DOCUMENT_BYTES,
      0,
    );
    if (listingBytes > maxBytes)
      throw tooLarge(scope, target, { bytes: listingBytes, documents: documents.length }, maxBytes, '&contents=false');
  }
  return page && rows.length > limit
    ? { revision, documents, next_cursor: documents[documents.length - 1].key }
    : { revision, documents };
}

/** JSON a listed document takes besides its key: `{"key":"","bytes":1048576},`. */
const LISTED_DOCUMENT_BYTES = 27;

function tooLarge(
  scope: Scope,
  target: Target,
  size: Pick<CachedState, 'bytes' | 'documents'>,
  maxBytes: number,
  extraQuery = '',
): Error {
  const first = `/v1/state?namespace=${scope.namespace}&branch=${target.branchName}&revision=${target.revision}&limit=${MAX_PAGE_LIMIT}${extraQuery}`;
  return tooLargeError(
    `the state of branch "${target.branchName}" of namespace "${scope.namespace}" at revision ${target.revision} ` +
      `is ${size.bytes} bytes in ${size.documents} documents; a whole state is at most ${maxBytes} bytes ` +
      `(store.limits.response_bytes): read it in pages, GET ${first} and then the same with after=<next_cursor> ` +
      `until an answer has no next_cursor`,
  );
}
