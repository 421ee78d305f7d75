import {
  MAX_PAGE_LIMIT,
  stateKeysResponseSchema,
  stateResponseSchema,
  type StateKeysResponse,
  type StateResponse,
} from '../../../shared/store-api.js';
import { readAllPages, type ListPage } from './all-pages.js';
import type { z } from 'zod';
import type { RevisionSelector, StoreScope } from './query-keys.js';

/**
 * The most document text the UI reads of one state (in UTF-16 code units, about the bytes of ASCII
 * text): past it the screen says so, rather than exhaust the window's memory.
 */
export const STATE_READ_LIMIT_CHARS = 256 * 1024 * 1024;

/** What reading a state needs of the API client (the app's ApiClient is one). */
export interface StoreReader {
  request<T>(
    service: 'store',
    path: string,
    options: {
      readonly query: Readonly<Record<string, string | number | undefined>>;
      readonly schema: z.ZodType<T>;
      readonly signal?: AbortSignal;
    },
  ): Promise<T>;
}

/**
 * Reads a state a page at a time, every page at the first one's revision (a write between two pages
 * must not mix two revisions into one answer), so a state past the store's `response_bytes` (which a
 * whole read refuses with 413) still loads. `contents: 'false'` lists keys and sizes only.
 */
function readPinnedPages<P extends ListPage & { readonly revision: number }>(
  api: StoreReader,
  scope: StoreScope,
  at: RevisionSelector,
  read: {
    readonly schema: z.ZodType<P>;
    readonly contents?: 'false';
    readonly signal?: AbortSignal;
    /** Checks each page as it comes (throwing ends the read). */
    readonly onPage?: (page: P) => void;
  },
  join: (pages: readonly P[]) => P,
): Promise<P> {
  let pinned: number | undefined;
  return readAllPages(async (after) => {
    const selector =
      pinned === undefined
        ? { revision: at.revision || undefined, checkpoint: at.checkpoint || undefined }
        : { revision: pinned };
    const page = await api.request('store', '/v1/state', {
      query: {
        namespace: scope.namespace,
        branch: scope.branch,
        ...selector,
        contents: read.contents,
        limit: MAX_PAGE_LIMIT,
        after,
      },
      schema: read.schema,
      signal: read.signal,
    });
    pinned ??= page.revision;
    read.onPage?.(page);
    return page;
  }, join);
}

/**
 * The documents of a branch at a revision or checkpoint (head when neither), read a page at a time
 * (see {@link readPinnedPages}), up to `limitChars` of document text.
 */
export function readStoreState(
  api: StoreReader,
  scope: StoreScope,
  at: RevisionSelector,
  signal?: AbortSignal,
  limitChars = STATE_READ_LIMIT_CHARS,
): Promise<StateResponse> {
  let chars = 0;
  const limitPage = (page: StateResponse): void => {
    for (const content of Object.values(page.objects)) chars += content.length;
    if (chars > limitChars && page.next_cursor !== undefined)
      throw new Error(
        `branch "${scope.branch}" of "${scope.namespace}" holds more than ${Math.round(limitChars / 1_048_576)} MB ` +
          `of documents at revision ${page.revision}, more than this window reads at once: ` +
          'read it in pages with GET /v1/state (limit, after)',
      );
  };
  return readPinnedPages(
    api,
    scope,
    at,
    { schema: stateResponseSchema, signal, onPage: limitPage },
    // Object.fromEntries defines each key, so a document named "__proto__" stays a document.
    (pages) =>
      pages.length === 1
        ? pages[0]!
        : {
            revision: pages[0]!.revision,
            objects: Object.fromEntries(pages.flatMap((page) => Object.entries(page.objects))),
          },
  );
}

/**
 * The keys and sizes of a branch's documents at a revision or checkpoint (head when neither), no
 * contents (`contents=false`), read a page at a time (see {@link readPinnedPages}).
 */
export function readStateKeys(
  api: StoreReader,
  scope: StoreScope,
  at: RevisionSelector,
  signal?: AbortSignal,
): Promise<StateKeysResponse> {
  return readPinnedPages(api, scope, at, { schema: stateKeysResponseSchema, contents: 'false', signal }, (pages) => ({
    revision: pages[0]!.revision,
    documents: pages.flatMap((page) => page.documents),
  }));
}
