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
