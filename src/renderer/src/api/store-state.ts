import { MAX_PAGE_LIMIT, stateResponseSchema, type StateResponse } from '../../../shared/store-api.js';
import { readAllPages } from './all-pages.js';
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
 * The documents of a branch at a revision or checkpoint (head when neither), read a page at a time
 * and every page at the first one's revision, so a state past the store's `response_bytes` (which a
 * whole read refuses with 413) still loads, up to `limitChars` of document text.
 */
export function readStoreState(
  api: StoreReader,
  scope: StoreScope,
  at: RevisionSelector,
  signal?: AbortSignal,
  limitChars = STATE_READ_LIMIT_CHARS,
): Promise<StateResponse> {
  let pinned: number | undefined;
  let chars = 0;
  return readAllPages(
    async (after) => {
      const selector =
        pinned === undefined
          ? { revision: at.revision || undefined, checkpoint: at.checkpoint || undefined }
          : { revision: pinned };
      const page = await api.request('store', '/v1/state', {
        query: { namespace: scope.namespace, branch: scope.branch, ...selector, limit: MAX_PAGE_LIMIT, after },
        schema: stateResponseSchema,
        signal,
      });
      pinned ??= page.revision;
      for (const content of Object.values(page.objects)) chars += content.length;
      if (chars > limitChars && page.next_cursor !== undefined)
        throw new Error(
          `branch "${scope.branch}" of "${scope.namespace}" holds more than ${Math.round(limitChars / 1_048_576)} MB ` +
            `of documents at revision ${page.revision}, more than this window reads at once: ` +
            'read it in pages with GET /v1/state (limit, after)',
        );
      return page;
    },
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
