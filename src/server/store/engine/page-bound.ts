/**
 * How many of `items` (in page order) one page carries: while their sizes total at most `maxBytes`,
 * and always the first, however large, so that paging always moves on.
 */
export function itemsWithin<T>(items: readonly T[], size: (item: T) => number, maxBytes: number): number {
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    total += size(items[i]);
    if (i > 0 && total > maxBytes) return i;
  }
  return items.length;
}

/**
 * The most bytes of JSON one log page carries beyond its first entry: `log_page_bytes`, or
 * `response_bytes` when that is lower, as no answer carries more. Its own bound rather than the upload
 * limit's, since a page of whole contents is built in memory at once and blocks the process meanwhile.
 */
export function logPageBytes(limits: { readonly log_page_bytes: number; readonly response_bytes: number }): number {
  return Math.min(limits.log_page_bytes, limits.response_bytes);
}
